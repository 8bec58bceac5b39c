package localllm

import (
	"io"
	"net/http"
	"time"

	"github.com/offattr/offattr/rules"
)

// Defaults, chosen for a local model on one GPU or a CPU. See Options.
// DefaultTopK is four, not three, because a vote says something only when
// a weak analyst's misses spread: among three steps a model right 30% of
// the time names the decisive one less often than either other, and two
// of three such analysts land on one wrong step by chance, which reads as
// agreement; among four it names the decisive one more often than any
// other. Of three, four and five, four gives the default model weights the
// largest worst margin by their stated rule (docs/model.md). The prompt
// budget of a call does not grow with it (budget.go); only its answer
// does.
const (
	DefaultTopK     = 4
	DefaultPanel    = 3
	DefaultParallel = 1
	DefaultTimeout  = 2 * time.Minute
	DefaultSeed     = 42
	DefaultRounds   = 2
	// Delta is ECHO's minimum confidence (§4.1): an analyst whose vote is
	// less sure than this is left out of the consensus.
	Delta = 0.3
)

// Strategies: how the model is asked (see Options.Strategy).
const (
	// StrategyRank has the panel judge the rules' top candidates.
	StrategyRank = "rank"
	// StrategySweep has the model read the whole run in windows that fit
	// its context and name suspects, then the panel judge those and the
	// rules' top candidates (sweep.go).
	StrategySweep = "sweep"
	// StrategyAuto chooses one of them per run (strategy.go).
	StrategyAuto = "auto"
)

// Strategies lists the values of Options.Strategy.
var Strategies = []string{StrategyRank, StrategySweep, StrategyAuto}

// CacheDirEnv names the environment variable that moves the response cache.
const CacheDirEnv = "OFFATTR_CACHE_DIR"

// Options configure a Judge. Zero values mean the defaults above, so a
// literal Options{Model: "qwen3:8b"} works.
type Options struct {
	// Model is the Ollama model name; empty means no model (rules alone).
	Model string
	// Host is the Ollama server ("127.0.0.1:11434", "http://box:11434");
	// empty means OLLAMA_HOST, else 127.0.0.1:11434.
	Host string
	// Think lets thinking models think; off by default because it costs many
	// tokens and the questions are narrow.
	Think bool
	// Strategy is rank, sweep or auto; empty means auto.
	Strategy string
	// Rounds bounds the sweep's rounds (windows, then the panel); a round
	// after the first runs only when the panel rejected every finalist and
	// the run's token budget allows it.
	Rounds int
	// TopK is how many of the rules' candidates the model judges.
	TopK int
	// Panel is how many analyst roles vote, taken in the order of Roles.
	Panel int
	// Parallel bounds concurrent calls to the server (for this Judge, across
	// every run it judges).
	Parallel int
	// Timeout bounds each call.
	Timeout time.Duration
	// NoCache neither reads nor writes the response cache.
	NoCache bool
	// CacheDir overrides OFFATTR_CACHE_DIR and the user cache directory.
	CacheDir string
	// Seed is sent with every call (the retry of a bad answer uses Seed+1).
	Seed int
	// PromptTokens fixes the prompt budget of every call; 0 sizes it to the
	// run (see Budget).
	PromptTokens int

	// ModelWeights weigh the model's signals with the rules'; nil, or
	// fitted for another model (a warning says so), uses
	// DefaultModelWeights.
	ModelWeights *rules.ModelWeights

	// Context renders what the analysts read; nil uses HierarchyContext.
	Context ContextFunc
	// Warn receives one line per dropped answer or degraded run; nil
	// discards them.
	Warn io.Writer
	// HTTPClient talks to the server; nil uses a client that never goes
	// through a proxy, so Ollama stays the only network peer.
	HTTPClient *http.Client
}

// Enabled reports whether a model was asked for.
func (o *Options) Enabled() bool { return o.Model != "" }

// fillDefaults replaces zero values by the defaults.
func (o *Options) fillDefaults() {
	if o.TopK <= 0 {
		o.TopK = DefaultTopK
	}
	if o.Strategy == "" {
		o.Strategy = StrategyAuto
	}
	if o.Rounds <= 0 {
		o.Rounds = DefaultRounds
	}
	if o.Panel <= 0 {
		o.Panel = DefaultPanel
	}
	if o.Parallel <= 0 {
		o.Parallel = DefaultParallel
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	if o.Warn == nil {
		o.Warn = io.Discard
	}
}
