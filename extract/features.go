// Package extract turns each step of a run into features with regexp2
// patterns (and scanners in plain Go for values, names and quotations):
// what kind of step it is, its OTAR parts, ECHO reductions, ledger, error
// and success signals, claims, and the run's final answer. It decides
// nothing about blame; the graph and the rules read what it finds.
package extract

import (
	"encoding/json"
	"sync"

	"github.com/offattr/offattr/run"
)

// Features is everything extract found in one step. The facts most steps
// lack are in Details, which every step has: a long run's steps would each
// carry them empty, most of what its features weigh. The step's agent is
// the run's (run.Step.Agent), not repeated here; RunFeatures' JSON names
// it. Positions are int32 and the small facts sit together: a long run
// holds one for every step.
type Features struct {
	Index int32 `json:"index"`
	// Kind is the most specific of Kinds, which holds every kind that
	// matched (a step can be a tool call and an answer at once).
	Kind  StepKind `json:"kind"`
	Kinds KindSet  `json:"kinds"`
	// Asks: the step ends by asking the other party something;
	// AsksChoice: to choose among things, not to agree to one. Affirms:
	// it opens by agreeing to what was proposed. Picks: it opens by
	// picking one of the choices offered ("the 10 am one please").
	Asks        bool        `json:"asks,omitempty"`
	AsksChoice  bool        `json:"asks_choice,omitempty"`
	Affirms     bool        `json:"affirms,omitempty"`
	Picks       bool        `json:"picks,omitempty"`
	ContextType ContextType `json:"context_type"`
	// Caller is, for a tool result, the step that answers for it: the one
	// whose call produced it, or the result itself when its speaker chose
	// the action; NoCaller for any other step.
	Caller int32 `json:"caller"`

	// OTAR, but for a tool result, and Reductions are made on first use,
	// for every step at once: read them after RunFeatures.Describe (or
	// the reductions with RunFeatures.Reductions). Until then they are
	// nil: most readers never ask, and a long run's steps would each carry
	// seven empty strings and two maps.
	OTAR       *OTAR       `json:"otar"`
	Reductions *Reductions `json:"reductions"`

	Claims []Claim `json:"claims,omitempty"`
	// Answer is the answer this step puts forward, if it puts one forward.
	Answer string `json:"answer,omitempty"`

	// Details is never nil in features extract made. Steps with none of
	// its facts share one empty Details: read it through the step, and
	// change a step's only after Clone.
	*Details
}

// Details are the facts of a step that most steps do not have. The rarer
// of them are behind Rare, which every Details extract made has: a step
// with code, a call, an exit code or an error (a long run's most common
// details) carries only these.
type Details struct {
	// Features.MarshalJSON writes these among the step's other facts.
	// Code holds the code blocks and function calls the step issues.
	Code     []string
	ExitCode *int

	Errors    []Signal
	Successes []Signal
	// Calls are the tool calls the step makes, structured or written.
	Calls []Call
	// FailureWords is where the step first uses explicit failure words (a
	// non-zero exit code, a traceback, "error:", "not found"), read
	// without judging whose failure they tell; nil when it uses none.
	FailureWords *Span

	// Rare is never nil in details extract made. Details without any of
	// its facts share one empty Rare, as steps share one empty Details.
	*Rare
}

// Rare are the facts of a step that few steps with details have.
type Rare struct {
	Target string // the agent an instruction addresses
	Ledger *Ledger
	// Tool is, for a tool result, the tool it says it answers.
	Tool string
	// Policies are the rules a system prompt or task states.
	Policies []Policy
	// Critique is where the step first says an earlier result is wrong
	// ("is incorrect", "there was an error in"), or, failing that, where
	// it puts a value forward in the place of another agent's answer
	// ("the correct figure is 10"); nil when it does neither.
	Critique *Span
	// States are, for a tool result, the states it reports objects in
	// ("status": "pending"), in lower case, in the order it gives them.
	States []string
	// ErrorNames are the names and values the step's errors quote as
	// missing or wrong (an attribute, module, key, file, path, column,
	// endpoint), in the order written.
	ErrorNames []string
	// FailedIn are, for a step whose errors print a stack or a failed
	// assertion, the functions the failure ran through and the calls
	// whose values the assertion rejected, in the order written.
	FailedIn []string
	// FailedAt are, for a step that prints a failed assertion, the files
	// the assertion failed in (a test's, or a helper it calls), and the
	// test modules a runner reports it could not load (pytest's ERROR
	// tests/test_a.py - ModuleNotFoundError), as PathNorm has them.
	FailedAt []string
	// FailedTests are, for a step that prints a test runner's report,
	// the names of the tests it says failed (pytest's test_b of
	// tests/test_a.py::test_b, go test's TestB).
	FailedTests []string
	// Defines are the functions and classes the step's code defines.
	Defines []string
	// Asserts are the checks of calls' values the step's tests write.
	Asserts []Assertion
	// Computes are the numbers the step writes as what an arithmetic
	// expression comes to ("2,620 x 4 = 10,480": 10480), as the values
	// of its claims (Claim.Value): figures it worked out, not ones it
	// states as given.
	Computes []string
	// Miscomputes is whether the step writes arithmetic of bare numbers
	// that does not come to the number it writes after its "=" ("24 +
	// 15 = 38"): a slip in its own arithmetic; or a fact of the calendar
	// the calendar contradicts ("2023 is a leap year", "April 16, 2025
	// falls on a Thursday"), as sure a slip.
	Miscomputes bool
	// WordNumbers are the numbers a step that states a number in digits
	// also writes in words ("over four quarters comes to $6,000"), in
	// increasing order: a factor it worked a figure out with.
	WordNumbers []float64
	// MonthDays are the days of a month the step names without a year
	// ("May 14": "05-14"), in the order written: a date a person gives
	// that a call writes in full.
	MonthDays []string
	// Codes are the reference codes a step other than a tool's output
	// writes ("INC-48213": capital letters, a hyphen, digits), in the
	// order written: a ticket, issue or asset an agent names.
	Codes []string
	// Phones are the numbers to dial a step writes, as their digits alone
	// ("(415) 555-0132": "4155550132"), in the order written: a line or an
	// account a person names, or a page or a record gives, which a call
	// writes without the punctuation, or with other (SamePhone).
	Phones []string
	// Grouped are the ids a step writes in groups spaced or hyphenated
	// apart ("W 123 4567", "4417 2209 18"), joined and in lower case
	// ("w1234567"): an id a person reads out, which a call writes whole.
	Grouped []string
	// Counts are the whole numbers under a hundred a step other than a
	// tool's output states of a thing ("two bags", "2 checked bags"),
	// each with the words that follow it: what a person asked for, or
	// was offered, by number.
	Counts []Count
	// Done are the actions a step other than a tool's output reports
	// done ("has been cancelled", "I've refunded"), as the verbs' past
	// participles in lower case, in the order written.
	Done []string
	// Asked are the actions a step other than a tool's output asks
	// another to take ("please cancel", "could you refund"), as the verbs
	// in lower case, in the order written.
	Asked []string
	// Offered are the claims (their Norm) a step names as choices in a
	// list it then asks which of to take (offeredChoices): what it puts
	// to another to pick, not values it states.
	Offered []string
	// Rejected are, for a step that says an earlier result is wrong
	// (Critique), the numbers it sets aside for another ("0.10, not
	// 0.01": 0.01), as claims' Norm: the values it calls wrong.
	Rejected []string
	// Refused are the actions a step other than a tool's output says
	// cannot be taken ("can't be cancelled", "unable to refund", "not
	// eligible for an exchange"), as the verbs (or their acts' nouns) in
	// lower case, in the order written.
	Refused []string
	// RelativeDay is whether a step other than a tool's output names a
	// day by where it falls from today ("tomorrow", "next Monday"): a
	// date a call then writes in full was worked out from it.
	RelativeDay bool
	// Weekdays are, for a step whose every day from today is a day of
	// the week ("on Friday", "next Tuesday"), those days: with today's
	// date they pin the date a call then writes. Nil where the step also
	// names a day some other way ("tomorrow", "by Friday").
	Weekdays []Weekday
	// IDFields are, for a tool result, the ids its JSON prints as field
	// values, each with its field's name: the records it lists.
	IDFields []Field
	// Records are, for a tool result, the records of a listing its JSON
	// prints (two or more): each one's ids and the words describing it.
	Records []Record
	// CodeWrites are the files the step's code blocks write by name, as
	// PathNorm has them: a Python block's open(NAME, "w") or
	// Path(NAME).write_text, a shell block's sed -i, heredoc or
	// redirection. An agent of a group chat changes files this way, with
	// no tool call, for another to run.
	CodeWrites []string
	// Files are the names of the files a step other than a tool's output
	// names in its prose (a design's file list, a task list), in lower
	// case, in the order written.
	Files []string
	// Unreachable is, for a tool result, whether the failure it reports is
	// the network's: a host refused, reset or timed the connection out, a
	// name did not resolve, a package index gave no versions. It tells
	// of the machine the run was on, not of the code the agent changed.
	Unreachable bool
	// ServiceFault is, for a tool result, whether the failure it reports
	// is the service's rather than its caller's: the network's
	// (Unreachable), a request or an upstream service that timed out, a
	// server's error (a 5xx status), a rate limit, a service overloaded or
	// unavailable. The arguments the call was given play no part in it.
	ServiceFault bool
	// FoundNothing is, for a tool result written as JSON, whether it
	// says it found no record (foundNothing): an error it returns, a
	// found or exists flag that is false, a count of nought, or lists
	// that are all empty beside the plain values it echoes.
	FoundNothing bool
	// TellsNone is, for a step other than a tool's output, whether it
	// tells that there is none of something: "None", a count of nought
	// ("0 invoices", "zero orders") or "there are no …" (tellsNoneRe).
	TellsNone bool
	// Passes is, for a step other than a tool's output, where it says as
	// a report that the checks it speaks of passed ("the suite is green",
	// "all 14 tests pass"; passes); nil when it does not.
	Passes *Span
	// Image is, for a tool result, whether it shows images only (a
	// screenshot, kept as its placeholder, "[image]"): what the step
	// after it reads there, no text of the run gives.
	Image bool
	// TurnLimit is whether the step reports that the run was stopped
	// because it reached its limit of turns, rounds, steps, iterations or
	// interactions (turnLimitRe): the harness's notice, not an agent's
	// answer, and a run that ran out of turns rather than ending.
	TurnLimit bool
	// SendsLedger is, for a message that sends word for word the
	// instruction or question its agent's last ledger named for the next
	// speaker, that ledger's step: where the instruction was decided.
	SendsLedger *int
	// PassedOver is, for an agent's step, its pick among the choices the
	// tool result right before it offered, where the task asks for others
	// of them that the agent never writes once they are offered
	// (readPicks); nil otherwise.
	PassedOver *Choice
	// OverCap is, for an agent's step, its pick of a choice the tool
	// result right before it offered at a price over the most the task
	// would pay, which no later pick within it undid (overCap); nil
	// otherwise.
	OverCap *PricedPick
	// ListedPick is, for an agent's step, its pick of a row of a listing
	// whose own fields show it breaks the task (readListedPicks); nil
	// otherwise.
	ListedPick *ListedPick
	// Clash is, for an agent's step, its call that books a slot over a
	// time an earlier tool result lists as busy (readBusyClashes); nil
	// otherwise.
	Clash *BusyClash
	// OverBudget is, for an agent's step, the total it states over the
	// task's budget (readOverBudget); nil otherwise.
	OverBudget *OverBudget
	// OtherPrice is, for an agent's step, its call that gives as the
	// amount of money it moves another figure of a listing than the
	// price of the item the task names (readOtherPrices); nil otherwise.
	OtherPrice *OtherPrice
	// Stale are, for a step other than a tool's output, the values it
	// writes that a change has since replaced (readStale): a tool's
	// output gave each under a field, and a later output, after a call
	// that changes things, gave that field another value.
	Stale []Stale
	// Guessed are the numbers a step writes only under a heading of
	// educated guesses (a plan's fact sheet): figures it marks as its
	// guesses, not as facts (guessed).
	Guessed []string
}

// noRare is the Rare of every Details that has none of them.
var noRare = &Rare{}

// noDetails is the Details of every step that has none of them.
var noDetails = &Details{Rare: noRare}

// empty reports whether r holds none of the facts.
func (r *Rare) empty() bool {
	return r.Target == "" && r.Ledger == nil && r.Tool == "" && len(r.Policies) == 0 && r.Critique == nil && len(r.States) == 0 && len(r.ErrorNames) == 0 && len(r.FailedIn) == 0 && len(r.FailedAt) == 0 && len(r.FailedTests) == 0 && len(r.Defines) == 0 && len(r.Asserts) == 0 && len(r.Computes) == 0 && !r.Miscomputes && len(r.WordNumbers) == 0 && len(r.MonthDays) == 0 && len(r.Codes) == 0 && len(r.Phones) == 0 && len(r.Grouped) == 0 && len(r.Counts) == 0 && len(r.Done) == 0 && len(r.Asked) == 0 && len(r.Offered) == 0 && len(r.Rejected) == 0 && len(r.Refused) == 0 && !r.RelativeDay && len(r.Weekdays) == 0 && len(r.IDFields) == 0 && len(r.Records) == 0 && len(r.CodeWrites) == 0 && len(r.Files) == 0 && !r.Unreachable && !r.ServiceFault && !r.FoundNothing && !r.Image && !r.TellsNone && r.Passes == nil && !r.TurnLimit && r.SendsLedger == nil && r.PassedOver == nil && r.OverCap == nil && r.ListedPick == nil && r.Clash == nil && r.OverBudget == nil && r.OtherPrice == nil && len(r.Stale) == 0 && len(r.Guessed) == 0
}

// empty reports whether d holds none of the facts.
func (d *Details) empty() bool {
	return len(d.Code) == 0 && d.ExitCode == nil && len(d.Errors) == 0 && len(d.Successes) == 0 &&
		len(d.Calls) == 0 && d.FailureWords == nil && (d.Rare == nil || d.Rare.empty())
}

// Clone returns f with Details of its own, which can be changed without
// changing f's.
func (f Features) Clone() Features {
	d := Details{}
	if f.Details != nil {
		d = *f.Details
	}
	r := Rare{}
	if d.Rare != nil {
		r = *d.Rare
	}
	d.Rare = &r
	f.Details = &d
	return f
}

// featuresJSON is Features as JSON has it: every fact in one object, in
// the order readers of extract's output know.
type featuresJSON struct {
	Index        int         `json:"index"`
	Agent        string      `json:"agent"`
	Kind         StepKind    `json:"kind"`
	Kinds        KindSet     `json:"kinds"`
	Target       string      `json:"target,omitempty"`
	OTAR         *OTAR       `json:"otar"`
	ContextType  ContextType `json:"context_type"`
	Reductions   *Reductions `json:"reductions"`
	Ledger       *Ledger     `json:"ledger,omitempty"`
	Code         []string    `json:"code,omitempty"`
	ExitCode     *int        `json:"exit_code,omitempty"`
	Errors       []Signal    `json:"errors,omitempty"`
	Successes    []Signal    `json:"successes,omitempty"`
	Claims       []Claim     `json:"claims,omitempty"`
	Answer       string      `json:"answer,omitempty"`
	Calls        []Call      `json:"calls,omitempty"`
	Tool         string      `json:"tool,omitempty"`
	Policies     []Policy    `json:"policies,omitempty"`
	Asks         bool        `json:"asks,omitempty"`
	AsksChoice   bool        `json:"asks_choice,omitempty"`
	Affirms      bool        `json:"affirms,omitempty"`
	Picks        bool        `json:"picks,omitempty"`
	Critique     *Span       `json:"critique,omitempty"`
	FailureWords *Span       `json:"failure_words,omitempty"`
	States       []string    `json:"states,omitempty"`
	ErrorNames   []string    `json:"error_names,omitempty"`
	FailedIn     []string    `json:"failed_in,omitempty"`
	FailedAt     []string    `json:"failed_at,omitempty"`
	FailedTests  []string    `json:"failed_tests,omitempty"`
	Defines      []string    `json:"defines,omitempty"`
	Asserts      []Assertion `json:"asserts,omitempty"`
	Computes     []string    `json:"computes,omitempty"`
	Miscomputes  bool        `json:"miscomputes,omitempty"`
	WordNumbers  []float64   `json:"word_numbers,omitempty"`
	MonthDays    []string    `json:"month_days,omitempty"`
	Codes        []string    `json:"codes,omitempty"`
	Phones       []string    `json:"phones,omitempty"`
	Grouped      []string    `json:"grouped,omitempty"`
	Counts       []Count     `json:"counts,omitempty"`
	Done         []string    `json:"done,omitempty"`
	Asked        []string    `json:"asked,omitempty"`
	Offered      []string    `json:"offered,omitempty"`
	Rejected     []string    `json:"rejected,omitempty"`
	Refused      []string    `json:"refused,omitempty"`
	RelativeDay  bool        `json:"relative_day,omitempty"`
	Weekdays     []Weekday   `json:"weekdays,omitempty"`
	IDFields     []Field     `json:"id_fields,omitempty"`
	Records      []Record    `json:"records,omitempty"`
	CodeWrites   []string    `json:"code_writes,omitempty"`
	Files        []string    `json:"files,omitempty"`
	Unreachable  bool        `json:"unreachable,omitempty"`
	ServiceFault bool        `json:"service_fault,omitempty"`
	FoundNothing bool        `json:"found_nothing,omitempty"`
	TellsNone    bool        `json:"tells_none,omitempty"`
	Passes       *Span       `json:"passes,omitempty"`
	Image        bool        `json:"image,omitempty"`
	TurnLimit    bool        `json:"turn_limit,omitempty"`
	SendsLedger  *int        `json:"sends_ledger,omitempty"`
	PassedOver   *Choice     `json:"passed_over,omitempty"`
	OverCap      *PricedPick `json:"over_cap,omitempty"`
	ListedPick   *ListedPick `json:"listed_pick,omitempty"`
	Clash        *BusyClash  `json:"clash,omitempty"`
	OverBudget   *OverBudget `json:"over_budget,omitempty"`
	OtherPrice   *OtherPrice `json:"other_price,omitempty"`
	Stale        []Stale     `json:"stale,omitempty"`
	Guessed      []string    `json:"guessed,omitempty"`
	Caller       int         `json:"caller"`
}

// MarshalJSON writes f as one object, Details' facts among the others,
// with an empty agent: RunFeatures' JSON names each step's.
func (f Features) MarshalJSON() ([]byte, error) { return json.Marshal(f.asJSON("")) }

// asJSON is f as JSON has it, the step spoken by agent.
func (f *Features) asJSON(agent string) featuresJSON {
	d := *noDetails
	if f.Details != nil {
		d = *f.Details
	}
	if d.Rare == nil {
		d.Rare = noRare
	}
	return featuresJSON{
		Index: int(f.Index), Agent: agent, Kind: f.Kind, Kinds: f.Kinds, Target: d.Target,
		OTAR: f.OTAR, ContextType: f.ContextType, Reductions: f.Reductions, Ledger: d.Ledger,
		Code: d.Code, ExitCode: d.ExitCode, Errors: d.Errors, Successes: d.Successes,
		Claims: f.Claims, Answer: f.Answer, Calls: d.Calls, Tool: d.Tool, Policies: d.Policies,
		Asks: f.Asks, AsksChoice: f.AsksChoice, Affirms: f.Affirms, Picks: f.Picks, Critique: d.Critique, FailureWords: d.FailureWords,
		States: d.States, ErrorNames: d.ErrorNames, FailedIn: d.FailedIn, FailedAt: d.FailedAt, FailedTests: d.FailedTests, Defines: d.Defines, Asserts: d.Asserts, Computes: d.Computes,
		Miscomputes: d.Miscomputes, WordNumbers: d.WordNumbers, MonthDays: d.MonthDays, Codes: d.Codes, Phones: d.Phones, Grouped: d.Grouped, Counts: d.Counts, Done: d.Done, Asked: d.Asked, Offered: d.Offered, Rejected: d.Rejected, Refused: d.Refused, RelativeDay: d.RelativeDay, Weekdays: d.Weekdays, IDFields: d.IDFields, Records: d.Records, CodeWrites: d.CodeWrites, Files: d.Files, Unreachable: d.Unreachable, ServiceFault: d.ServiceFault, FoundNothing: d.FoundNothing, Image: d.Image, TellsNone: d.TellsNone, Passes: d.Passes, TurnLimit: d.TurnLimit, SendsLedger: d.SendsLedger, PassedOver: d.PassedOver, OverCap: d.OverCap, ListedPick: d.ListedPick, Clash: d.Clash, OverBudget: d.OverBudget, OtherPrice: d.OtherPrice, Stale: d.Stale, Guessed: d.Guessed, Caller: int(f.Caller),
	}
}

// Span is where a reading found its words in a step's content, in bytes.
type Span struct {
	Offset int `json:"offset"`
	Len    int `json:"len"`
}

// Has reports whether k is among the step's kinds.
func (f *Features) Has(k StepKind) bool { return f.Kinds.Has(k) }

// OTAR holds the Observation, Thought, Action and Result parts of a step
// where the text has them (CHIEF appendix B), empty otherwise.
type OTAR struct {
	Observation string `json:"observation,omitempty"`
	Thought     string `json:"thought,omitempty"`
	Action      string `json:"action,omitempty"`
	Result      string `json:"result,omitempty"`
}

// Reductions are ECHO's three compressions of a step, by the step's context
// type; Fallback is true where a level fell back to the first sentence.
type Reductions struct {
	KeyDecision string          `json:"key_decision"` // ≤ 50 words, L2
	Summary     string          `json:"summary"`      // ≤ 20 words, L3
	Milestone   string          `json:"milestone"`    // ≤ 15 words, L4
	Fallback    map[string]bool `json:"fallback,omitempty"`
	// Sources says, per level, which extractor produced the text: a
	// structural one ("final_answer", "ledger", "tool_failure"), a context
	// type's patterns ("pattern:handoff"...), or "fallback".
	Sources map[string]string `json:"sources,omitempty"`
}

// Ledger is a Magentic-One progress ledger.
type Ledger struct {
	RequestSatisfied      LedgerItem `json:"is_request_satisfied"`
	InLoop                LedgerItem `json:"is_in_loop"`
	ProgressBeingMade     LedgerItem `json:"is_progress_being_made"`
	NextSpeaker           string     `json:"next_speaker"`
	NextSpeakerReason     string     `json:"next_speaker_reason,omitempty"`
	InstructionOrQuestion string     `json:"instruction_or_question"`
	// Unfound is, for a ledger that declares the request satisfied,
	// whether its verdict's reason or its answer says that what was asked
	// is not stated, not found or could not be determined (unfoundRe):
	// it stops on no fact a result gave.
	Unfound bool `json:"unfound,omitempty"`
}

// LedgerItem is one ledger judgement with its reason.
type LedgerItem struct {
	Answer bool   `json:"answer"`
	Reason string `json:"reason,omitempty"`
}

// Severity orders signals: a traceback outweighs an apology.
type Severity int

const (
	SeverityLow    Severity = 1 // hedge, apology
	SeverityMedium Severity = 2 // "cannot", "not found", refusal
	SeverityHigh   Severity = 3 // non-zero exit code, exception, traceback
)

// Signal is one error or success signal with the text that raised it.
type Signal struct {
	Kind     string   `json:"kind"` // e.g. "exit_code", "exception", "not_found", "apology", "refusal", "confirmed"
	Severity Severity `json:"severity"`
	Quote    string   `json:"quote"`
	Offset   int      `json:"offset"` // byte offset in the step's content
}

// ClaimKind is the sort of value a claim states. Like StepKind, it is a
// small number that reads and writes as its name.
type ClaimKind uint8

const (
	ClaimNumber ClaimKind = iota + 1
	ClaimDate
	ClaimURL
	ClaimPath
	ClaimQuoted
	ClaimEntity
	ClaimTime // a time of day, normalised to 24-hour "HH:MM"
)

var claimKindNames = [...]string{"", "number", "date", "url", "path", "quoted", "entity", "time"}

func (k ClaimKind) String() string { return enumName(claimKindNames[:], k, "ClaimKind") }

// MarshalText writes the kind's name.
func (k ClaimKind) MarshalText() ([]byte, error) { return enumText(claimKindNames[:], k, "claim kind") }

// UnmarshalText reads a kind's name.
func (k *ClaimKind) UnmarshalText(b []byte) error {
	return enumParse(claimKindNames[:], k, b, "claim kind")
}

// Claim is a value stated in a step. Norm is its normalised form so that
// equal values match across steps ("1,234" = "1234" = "1234.0").
//
// A long run's features hold millions of claims: the kind and the offset
// (a step's text is at most a few MiB, run.Excerpt) share a word, and
// MarshalJSON writes the fields in the order readers know.
type Claim struct {
	Text   string
	Norm   string
	Offset int32 // in bytes, in the text the claim was read from
	Kind   ClaimKind
}

// claimJSON is Claim as JSON has it.
type claimJSON struct {
	Kind   ClaimKind `json:"kind"`
	Text   string    `json:"text"`
	Norm   string    `json:"norm"`
	Offset int32     `json:"offset"`
}

// MarshalJSON writes c's kind, text, norm and offset.
func (c Claim) MarshalJSON() ([]byte, error) {
	return json.Marshal(claimJSON{Kind: c.Kind, Text: c.Text, Norm: c.Norm, Offset: c.Offset})
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *Claim) UnmarshalJSON(b []byte) error {
	var j claimJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*c = Claim{Kind: j.Kind, Text: j.Text, Norm: j.Norm, Offset: j.Offset}
	return nil
}

// RunFeatures is extract's reading of a whole run.
type RunFeatures struct {
	Steps    []Features `json:"steps"`
	Question []Claim    `json:"question_claims,omitempty"`
	// QuestionWordNumbers are the numbers the task writes in words ("a
	// dozen", "twenty-four"), in increasing order: a step that writes one
	// in digits restates the task.
	QuestionWordNumbers []float64 `json:"question_word_numbers,omitempty"`
	// Instructions are the values the system instructions a trace keeps
	// apart from its steps state (run.Run.Instructions): today's date, as
	// a system prompt gives it, which a transcript's system step states
	// among its claims.
	Instructions []Claim      `json:"instruction_claims,omitempty"`
	FinalAnswer  *FinalAnswer `json:"final_answer,omitempty"`
	// Requirements are the constraints the task states (something to
	// include or leave out, a bound, a rounding, a unit or a format,
	// what a thing must do), with the steps that take each up.
	Requirements []Requirement `json:"requirements,omitempty"`
	// AskedUnits are the forms of the unit a task's question counts its
	// answer in ("how many minutes": minute, min, mins), which it asks
	// for without making it a requirement: a bare ground truth of "48" is
	// a step's "48 minutes".
	AskedUnits []string `json:"asked_units,omitempty"`
	// AsksExtreme is 1 when the task asks for the most of something ("the
	// highest average", "the most customers"), -1 when it asks for the
	// least ("the lowest", "the fewest"), and 0 when it asks neither, or
	// both.
	AsksExtreme int `json:"asks_extreme,omitempty"`
	// ExpectedCalls are the tool calls the run's ground truth lists, when
	// it gives the actions the run should have taken rather than an answer.
	ExpectedCalls []Call `json:"expected_calls,omitempty"`
	// Renames are the compound names (user_id, orderId) steps write
	// otherwise than the task or another agent first wrote them, with the
	// later steps that carry each new spelling.
	Renames []Rename `json:"renames,omitempty"`
	// ShowsReported are the tool results, in step order, whose output
	// shows a result the task reports the code gives ("returns 'IIII'"):
	// the reported problem printed again, as a reproduction prints it.
	ShowsReported []int `json:"shows_reported,omitempty"`
	// TaskFiles are the files the task names, its traceback's frames
	// among them, as PathNorm has them.
	TaskFiles []string `json:"task_files,omitempty"`
	// PatchOrigin is, for a run that answers with a unified diff, the
	// step that first wrote a line the diff adds.
	PatchOrigin *PatchOrigin `json:"patch_origin,omitempty"`
	// Misroute is, for a run whose router hands the request to an agent
	// its instructions describe in no word of the task while they describe
	// another destination in one, that handoff; nil otherwise.
	Misroute *Misroute `json:"misroute,omitempty"`
	// Reversed is the first agent's step that writes a figure an earlier
	// step wrote of the same subject with its direction the other way
	// round; nil for none.
	Reversed *Reversal `json:"reversed,omitempty"`
	// Guards are the conditions the task's and the system's policies set
	// on a kind of consequential action, with the tool results after
	// each that speak of the state it forbids.
	Guards []Guard `json:"guards,omitempty"`

	steps       []run.Step // the run's steps, whose texts Describe reads; nil in features made by hand
	groundTruth string     // the run's ground truth, which the answer's values read from pages are left to
	described   sync.Once  // fills in every step's Reductions and OTAR from the texts
}

// runFeaturesJSON is RunFeatures as JSON has it.
type runFeaturesJSON struct {
	Steps               stepsJSON     `json:"steps"`
	Question            []Claim       `json:"question_claims,omitempty"`
	QuestionWordNumbers []float64     `json:"question_word_numbers,omitempty"`
	Instructions        []Claim       `json:"instruction_claims,omitempty"`
	FinalAnswer         *FinalAnswer  `json:"final_answer,omitempty"`
	Requirements        []Requirement `json:"requirements,omitempty"`
	AskedUnits          []string      `json:"asked_units,omitempty"`
	AsksExtreme         int           `json:"asks_extreme,omitempty"`
	ExpectedCalls       []Call        `json:"expected_calls,omitempty"`
	Renames             []Rename      `json:"renames,omitempty"`
	ShowsReported       []int         `json:"shows_reported,omitempty"`
	TaskFiles           []string      `json:"task_files,omitempty"`
	PatchOrigin         *PatchOrigin  `json:"patch_origin,omitempty"`
	Misroute            *Misroute     `json:"misroute,omitempty"`
	Reversed            *Reversal     `json:"reversed,omitempty"`
	Guards              []Guard       `json:"guards,omitempty"`
}

// MarshalJSON writes the run's features, each step's with the agent the
// run names for it (none in features made by hand).
func (rf *RunFeatures) MarshalJSON() ([]byte, error) {
	return json.Marshal(runFeaturesJSON{Steps: stepsJSON{rf}, Question: rf.Question, QuestionWordNumbers: rf.QuestionWordNumbers, Instructions: rf.Instructions, FinalAnswer: rf.FinalAnswer, Requirements: rf.Requirements, AskedUnits: rf.AskedUnits, AsksExtreme: rf.AsksExtreme, ExpectedCalls: rf.ExpectedCalls, Renames: rf.Renames, ShowsReported: rf.ShowsReported, TaskFiles: rf.TaskFiles, PatchOrigin: rf.PatchOrigin, Misroute: rf.Misroute, Reversed: rf.Reversed, Guards: rf.Guards})
}

// stepsJSON writes a run's features step by step, rather than a list of
// every step's JSON object made at once.
type stepsJSON struct{ rf *RunFeatures }

func (s stepsJSON) MarshalJSON() ([]byte, error) {
	if s.rf.Steps == nil {
		return []byte("null"), nil
	}
	b := []byte{'['}
	for i := range s.rf.Steps {
		if i > 0 {
			b = append(b, ',')
		}
		var agent string
		if i < len(s.rf.steps) {
			agent = s.rf.steps[i].Agent
		}
		step, err := json.Marshal(s.rf.Steps[i].asJSON(agent))
		if err != nil {
			return nil, err
		}
		b = append(b, step...)
	}
	return append(b, ']'), nil
}

// FinalAnswer is the run's answer and where it was given.
type FinalAnswer struct {
	Step   int     `json:"step"`
	Text   string  `json:"text"`
	Claims []Claim `json:"claims,omitempty"`
	Source string  `json:"source"` // "final_answer", "ledger", "last_answer"
	// Calls are the functions of the call whose result the answer
	// states, when it states one as a call and its value
	// ("can_register(18) returns False", "len(attention(SAMPLE)) returns
	// 1"), the outermost first: the value is what their code returns,
	// and the call's arguments are no value of the answer.
	Calls []string `json:"calls,omitempty"`
	// Const and ConstValue are, when the answer states what a named
	// constant holds ("MAX_RETRIES is 3", "SESSION_TTL = 900"), the
	// constant's name and the value, as written: the value is what
	// the code was given for it, however small or plain it is.
	Const      string `json:"const,omitempty"`
	ConstValue string `json:"const_value,omitempty"`
	// Seen holds, for a value of a reply without a ground truth that
	// only its words state and that earlier steps' text holds (see
	// withWords), by its Norm, those steps: where the answer's data flow
	// finds it, as no step's claims hold it.
	Seen map[string][]int `json:"seen,omitempty"`
}
