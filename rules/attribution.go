// Package rules attributes a failed run to an agent and a step with
// deterministic rules over extract's features and the dependency graph. It
// ranks candidates with evidence and a confidence; it never calls a model.
package rules

// DecisiveFault is what offattr looks for (Who&When; RAFFLES Def. 3.5),
// in the words its help and the bundles it exports use: the decisive fault
// is the DecisiveFault.
const DecisiveFault = "earliest step whose correction would have turned the failed run into a success"

// Mode says what produced an attribution.
const (
	ModeRules    = "rules"
	ModeRulesLLM = "rules+llm"
)

// Attribution is offattr's answer for one run. Its JSON keys are a contract
// with tooling: analyze --json prints exactly these.
type Attribution struct {
	File  string `json:"file"`
	Agent string `json:"agent"`
	Step  int    `json:"step"`
	// TraceID and SpanID locate the blamed step in the telemetry the run
	// was read from (run.Step's ids), so that the answer opens in a trace
	// viewer; empty for other formats. The engine sets them.
	TraceID    string  `json:"trace_id,omitempty"`
	SpanID     string  `json:"span_id,omitempty"`
	Confidence float64 `json:"confidence"`
	// Spread is the rules' step model's entropy over the run's steps
	// (Spread): how widely its evidence spreads, whichever step answers.
	Spread float64 `json:"spread,omitempty"`
	// Triage is the band the answer falls in: clear (no model or person
	// needed), review, or escalate; TriageReason says why.
	Triage       string      `json:"triage,omitempty"`
	TriageReason string      `json:"triage_reason,omitempty"`
	Mode         string      `json:"mode"`
	Rationale    string      `json:"rationale"`
	Evidence     []Evidence  `json:"evidence"`
	Candidates   []Candidate `json:"candidates"`
	// Votes are the local model's analysts' votes, when a model was asked;
	// the rules' own observations are Evidence.
	Votes []Vote `json:"votes,omitempty"`
	// Model says how the local model was asked and what it was shown, when
	// one was; nil for rules alone.
	Model *ModelReview `json:"model,omitempty"`
	Usage Usage        `json:"usage"`
}

// ModelReview is how the local model took part: the strategy it ran and
// every step it could have chosen, so a reader can tell a wrong model
// answer from a question that never showed it the right step.
type ModelReview struct {
	Name string `json:"name"`
	// Strategy is what ran: "rank" (the model judged the rules' top
	// candidates) or "sweep" (it read the whole run in windows first).
	Strategy string `json:"strategy"`
	// Requested is the strategy asked for; "auto" chose Strategy for
	// Reason.
	Requested string `json:"requested"`
	Reason    string `json:"reason,omitempty"`
	Rounds    int    `json:"rounds"`
	Windows   int    `json:"windows,omitempty"`
	// CandidatesSeen is every step the model could have named, in step
	// order: those of every window it answered and the final candidates.
	CandidatesSeen []int `json:"candidates_seen"`
	// Finalists are the steps the final round judged.
	Finalists []int `json:"finalists"`
	// Rejected are hypotheses a round set aside, with why; later rounds
	// were told not to raise them again.
	Rejected []Rejection `json:"rejected,omitempty"`
	// RulesPick is the rules' answer before the model was weighed with it,
	// ModelPick what the model alone would have answered (the step most of
	// its analysts voted for), nil when no analyst was counted.
	RulesPick *Pick `json:"rules_pick,omitempty"`
	ModelPick *Pick `json:"model_pick,omitempty"`
	// Weights says which weights weighed the model: "default", or "fitted
	// for NAME".
	Weights string `json:"weights,omitempty"`
	// Analysts are the analysts of the final panel whose votes counted.
	Analysts []string `json:"analysts,omitempty"`
	// Signals are what the model said of each step it named or judged, in
	// step order: what its weights weigh (ModelFeatureNames).
	Signals []ModelSignal `json:"signals,omitempty"`
}

// Pick is one answer: a step and the agent blamed for it.
type Pick struct {
	Step  int    `json:"step"`
	Agent string `json:"agent"`
}

// ModelSignal is what the model said of one step: whether a reader named
// it, and each counted analyst's vote and criteria score, by role.
type ModelSignal struct {
	Step   int    `json:"step"`
	Agent  string `json:"agent"`
	Reader bool   `json:"reader,omitempty"`
	// ReaderChoices is how many steps the reader that named it chose
	// among (its window's), 0 when no reader did or it is not known.
	ReaderChoices int `json:"reader_choices,omitempty"`
	// Judged is true when the final panel rated the step.
	Judged bool `json:"judged,omitempty"`
	// Votes holds the confidence of each analyst that voted for the step.
	Votes map[string]float64 `json:"votes,omitempty"`
	// Criteria holds each analyst's mean of fault, first and decisive.
	Criteria map[string]float64 `json:"criteria,omitempty"`
}

// Rejection is one step a round judged not to be the decisive fault.
type Rejection struct {
	Step   int    `json:"step"`
	Reason string `json:"reason"`
}

// Vote is one model analyst's answer: the step it holds decisive, how sure
// it is, and why, in its words.
type Vote struct {
	Analyst    string  `json:"analyst"`
	Step       int     `json:"step"`
	Confidence float64 `json:"confidence"`
	Reason     string  `json:"reason"`
}

// Evidence is one observation a rule made about a step, with a quote.
// The quote is the step's own text unless QuoteStep names the step it was
// taken from (a tool's output quoted against the step that called it, a
// reviewer's words against the step reviewed).
type Evidence struct {
	Rule      string `json:"rule"`
	Step      int    `json:"step"`
	Quote     string `json:"quote"`
	QuoteStep *int   `json:"quote_step,omitempty"`
}

// QuotedStep is the step the evidence's quote comes from.
func (e Evidence) QuotedStep() int {
	if e.QuoteStep != nil {
		return *e.QuoteStep
	}
	return e.Step
}

// Candidate is a ranked possible decisive step.
type Candidate struct {
	Step  int    `json:"step"`
	Agent string `json:"agent"`
	// Span is where the step is in the telemetry the run was read from;
	// nil for a run read from a file that is not telemetry, which a long
	// run's candidates, one for most steps, would each carry empty. Read
	// it through TraceID and SpanID.
	*Span
	Score float64  `json:"score"`
	Rules []string `json:"rules"`
	// Votes counts the model analysts that voted for this step.
	Votes int `json:"votes,omitempty"`
}

// Span holds a candidate's trace and span ids, as Attribution's.
type Span struct {
	TraceID string `json:"trace_id,omitempty"`
	SpanID  string `json:"span_id,omitempty"`
}

// TraceID is the id of the trace the candidate's step is in, if any.
func (c Candidate) TraceID() string {
	if c.Span == nil {
		return ""
	}
	return c.Span.TraceID
}

// SpanID is the id of the candidate's step's span, if any.
func (c Candidate) SpanID() string {
	if c.Span == nil {
		return ""
	}
	return c.Span.SpanID
}

// Usage counts model traffic; all zero for rules alone.
type Usage struct {
	LLMCalls         int `json:"llm_calls"`
	PromptTokens     int `json:"prompt_tokens"`
	CompletionTokens int `json:"completion_tokens"`
}

// Add sums two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{u.LLMCalls + o.LLMCalls, u.PromptTokens + o.PromptTokens, u.CompletionTokens + o.CompletionTokens}
}
