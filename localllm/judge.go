// Package localllm asks a locally served model (Ollama) the judgments that
// need language, and combines its panel's votes with the rules' ranking. By
// the rank strategy its panel judges the rules' few top candidates; by the
// sweep (sweep.go) readers first go through the whole run in windows and
// name suspects, so the panel can judge a step the rules did not rank;
// auto chooses per run (strategy.go). Parsing, ranking and the graph stay
// the rules'; the rules' answer stands whenever the model fails.
//
// Each analyst of the panel (ECHO's roles) makes one call that rates every
// candidate on RAFFLES's three criteria and votes for one; see budget.go for
// the prompt budget, consensus.go for the vote and fence.go for how the log
// is kept data.
package localllm

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

// Judge asks one model about runs. It is safe for concurrent use; Parallel
// bounds its calls across all runs.
type Judge struct {
	opts   Options
	client *api.Client
	model  Model
	cache  *cache
	slots  chan struct{}
	warns  *warner
	shrink *shrink
	// roundsBudgeted is set when the rounds are the default, which a
	// run's token budget also bounds (sweep.go).
	roundsBudgeted bool
	// weighing holds the model weights: Options.ModelWeights when fitted
	// for this model, else the defaults.
	weighing *weighing
}

// New checks that the server answers and has the model (/api/show), reads
// its context length and capabilities, and returns a Judge. Its errors are
// one line a user can act on; they match ErrServerUnreachable,
// ErrModelNotAvailable, ErrServerFailed or ErrContextTooSmall.
func New(ctx context.Context, opts Options) (*Judge, error) {
	budgeted := opts.Rounds <= 0
	opts.fillDefaults()
	if !slices.Contains(Strategies, opts.Strategy) {
		return nil, fmt.Errorf("--strategy %q: want one of %s", opts.Strategy, strings.Join(Strategies, ", "))
	}
	if opts.Model == "" {
		return nil, fmt.Errorf("no model named (--model)")
	}
	if opts.Panel > len(Roles) {
		return nil, fmt.Errorf("--panel %d: at most %d analyst roles", opts.Panel, len(Roles))
	}
	u, err := resolveHost(opts.Host)
	if err != nil {
		return nil, err
	}
	hc := opts.HTTPClient
	if hc == nil {
		hc = newHTTPClient()
	}
	j := &Judge{roundsBudgeted: budgeted, shrink: &shrink{factor: 1}, opts: opts, client: api.NewClient(u, hc), slots: make(chan struct{}, opts.Parallel), warns: &warner{w: opts.Warn, once: map[string]bool{}}}
	j.model, err = inspect(ctx, j.client, opts.Model, u.String())
	if err != nil {
		return nil, err
	}
	if limit := promptLimit(j.model.NumCtx, opts.TopK, j.thinks()); limit < minPromptLimit {
		with := ""
		if j.thinks() {
			with = " with --think"
		}
		return nil, &lineError{ErrContextTooSmall, nil, fmt.Sprintf(
			"model %s has a context of %d tokens, too small for --top-k %d%s; use a larger model, fewer candidates, or drop --model",
			opts.Model, j.model.NumCtx, opts.TopK, with)}
	}
	if opts.Think && !j.model.Thinking {
		j.warns.line("", fmt.Sprintf("model %s cannot think; --think ignored", opts.Model))
	}
	j.weighing = &weighing{}
	if mw := opts.ModelWeights; mw != nil {
		if sameModel(mw.Model, j.model.Name) {
			j.weighing.fitted = mw
		} else {
			j.warns.line("", fmt.Sprintf("the weights' model section was fitted with %s, not %s; weighing %s by the default model weights (fit --model %s to fit them)", mw.Model, j.model.Name, j.model.Name, j.model.Name))
		}
	}
	j.cache = &cache{}
	if !opts.NoCache {
		dir, err := cacheDir(opts.CacheDir)
		if err != nil {
			j.warns.line("", "response cache disabled: "+err.Error())
		} else {
			j.cache.dir = dir
		}
	}
	return j, nil
}

// Model describes the model as the server reported it.
func (j *Judge) Model() Model { return j.model }

func (j *Judge) thinks() bool { return j.opts.Think && j.model.Thinking }

// Attribute has the panel judge the top candidates of att and returns the
// consensus. The attribution it returns is always usable: when the model
// fails, or ctx ends, it is the rules' own (with the calls made counted in
// Usage), and the reason goes to Options.Warn. The error is non-nil only
// when ctx ended, so a bulk caller knows to stop.
func (j *Judge) Attribute(ctx context.Context, r *run.Run, att rules.Attribution) (rules.Attribution, error) {
	return j.review(ctx, r, nil, att)
}

// Review is Attribute for the engine, which has already read the run: its
// features are used, not extracted again.
func (j *Judge) Review(ctx context.Context, in *rules.Input, att rules.Attribution) (rules.Attribution, error) {
	return j.review(ctx, in.Run, in.Features, att)
}

// review asks the model about att in r by the strategy the options ask
// for (auto chooses per run); f may be nil.
func (j *Judge) review(ctx context.Context, r *run.Run, f *extract.RunFeatures, att rules.Attribution) (rules.Attribution, error) {
	name := att.File
	if name == "" {
		name = r.Source
	}
	s := j.newSweep(r, f, att, name)
	review := &rules.ModelReview{Name: j.model.Name, Requested: j.opts.Strategy, CandidatesSeen: []int{}, Finalists: []int{}}
	review.Strategy, review.Reason = j.choose(s)
	run := j.rankReview
	if review.Strategy == StrategySweep {
		run = j.sweepReview
	}
	out, err := run(ctx, s, review)
	if out.Model != nil && review.Reason != "" {
		out.Rationale = joinSentences(out.Rationale, strings.ToUpper(review.Reason[:1])+review.Reason[1:]+".")
	}
	return out, err
}

// rankReview has the panel judge the rules' top candidates.
func (j *Judge) rankReview(ctx context.Context, s *sweep, review *rules.ModelReview) (rules.Attribution, error) {
	att := s.att
	judged := j.pick(s.r, att)
	if len(judged) == 0 {
		j.warns.line(s.name, "no candidate step to judge; the rules' answer stands")
		return att, nil
	}
	review.Rounds = 1
	got, err := j.judge(ctx, s.r, s.render, judged, "")
	att.Usage = att.Usage.Add(got.spent)
	if err != nil {
		for _, o := range got.outs {
			att.Usage = att.Usage.Add(o.usage)
		}
		j.warns.line(s.name, "model calls cancelled; the rules' answer stands")
		return att, fmt.Errorf("judge %s: %w", s.name, err)
	}
	if got.failed != "" {
		j.warns.line(s.name, got.failed+"; the rules' answer stands")
		return att, nil
	}
	for _, o := range got.outs {
		if o.answer == nil {
			j.warns.line(s.name, fmt.Sprintf("analyst %s: %s; answer dropped", o.role.Name, o.problem))
		}
	}
	review.Finalists = stepsOf(judged)
	if answered(got.outs) {
		review.CandidatesSeen = slices.Sorted(slices.Values(review.Finalists))
	}
	return combine(att, judged, got.outs, j.model, Roles[:j.opts.Panel], nil, review, j.weighing), nil
}

// panel is what came of one panel round.
type panel struct {
	outs []outcome
	// spent is the usage of attempts that overflowed and were asked again
	// smaller; the outcomes carry their own.
	spent rules.Usage
	// planned estimates the prompt tokens of every call made.
	planned int
	// failed says why no prompt could be built; outs is nil then.
	failed string
}

// judge puts the candidates to the panel, each analyst in one call, and
// rebuilds the prompts smaller when the server finds them too long. Its
// error is non-nil only when ctx ended.
func (j *Judge) judge(ctx context.Context, r *run.Run, render ContextFunc, judged []rules.Candidate, notes string) (panel, error) {
	inStepOrder := slices.Clone(judged)
	slices.SortFunc(inStepOrder, func(a, b rules.Candidate) int { return a.Step - b.Step })
	roles := Roles[:j.opts.Panel]
	var res panel
	for {
		factor := j.shrink.get()
		// Every size below is in estimated tokens; a factor of 2 means the
		// model spends twice as many, so everything is built half as big.
		budget := callBudget(runTokens(r), j.opts.PromptTokens, promptLimit(j.model.NumCtx, len(judged), j.thinks())) / factor
		p, err := buildPrompt(r, inStepOrder, budget, render, notes)
		if err != nil {
			res.failed = err.Error()
			return res, nil
		}
		calls := make([]call, len(roles))
		for i, role := range roles {
			calls[i] = j.newCall(role, p)
			res.planned += callTokens(calls[i].req)
		}
		res.outs = j.askAll(ctx, calls)
		if err := ctx.Err(); err != nil {
			return res, err
		}
		if !overflowed(res.outs) || !j.shrink.grow(factor) {
			return res, nil
		}
		for _, o := range res.outs {
			res.spent = res.spent.Add(o.usage)
		}
		j.warnOnce("overflow", fmt.Sprintf("model %s: prompts sized at bytes/4 tokens do not fit its context; shrinking them %d×", j.model.Name, j.shrink.get()))
	}
}

// render is the context builder: the caller's, else hierarchy's over f
// (extracted here, once, when the caller has no features).
func (j *Judge) render(r *run.Run, f *extract.RunFeatures) ContextFunc {
	if j.opts.Context != nil {
		return j.opts.Context
	}
	if f == nil {
		f = extract.Run(r)
	}
	return HierarchyContextOf(f)
}

func overflowed(outs []outcome) bool {
	for _, o := range outs {
		if o.overflow {
			return true
		}
	}
	return false
}

// pick returns the top-k distinct candidates that are steps of the run, in
// the rules' order. Rules that give no candidate list offer their answer.
func (j *Judge) pick(r *run.Run, att rules.Attribution) []rules.Candidate {
	cands := att.Candidates
	if len(cands) == 0 {
		cands = []rules.Candidate{{Step: att.Step, Agent: att.Agent, Score: att.Confidence}}
	}
	var out []rules.Candidate
	seen := map[int]bool{}
	for _, c := range cands {
		if len(out) == j.opts.TopK {
			break
		}
		if c.Step < 0 || c.Step >= len(r.Steps) || seen[c.Step] {
			continue
		}
		seen[c.Step] = true
		out = append(out, c)
	}
	return out
}

// newCall is the request of one analyst: JSON schema format, temperature 0,
// fixed seed, bounded answer, no streaming, and num_ctx fixed per model.
func (j *Judge) newCall(role Role, p prompt) call {
	no := false
	req := &api.ChatRequest{
		Model: j.model.Name,
		Messages: []api.Message{
			{Role: "system", Content: systemFor(role)},
			{Role: "user", Content: p.user},
		},
		Stream: &no,
		Format: p.format.raw,
		Options: map[string]any{
			"temperature": 0,
			"seed":        j.opts.Seed,
			"num_ctx":     j.model.NumCtx,
			"num_predict": answerTokens(len(p.steps), j.thinks()),
		},
		// A prompt that does not fit must fail loudly, not lose its start.
		Truncate: &no,
		Shift:    &no,
	}
	if j.model.Thinking {
		// Thinking models think unless told not to; others reject the field.
		req.Think = &api.ThinkValue{Value: j.opts.Think}
	}
	return call{role: role, req: req, check: p.format, steps: p.steps}
}

// warner writes warnings, one line each, safely from many goroutines.
type warner struct {
	mu   sync.Mutex
	w    io.Writer
	once map[string]bool
}

func (w *warner) line(file, msg string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if file != "" {
		msg = file + ": " + msg
	}
	fmt.Fprintf(w.w, "offattr: model: %s\n", msg)
}

func (j *Judge) warnOnce(key, msg string) {
	j.warns.mu.Lock()
	seen := j.warns.once[key]
	j.warns.once[key] = true
	j.warns.mu.Unlock()
	if !seen {
		j.warns.line("", msg)
	}
}
