package extract

import (
	"context"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	matching "github.com/offattr/offattr/internal/match"

	"github.com/offattr/offattr/run"
)

// Run reads every step of a run. It never fails: a step it cannot read
// (no text, a timed-out pattern) gets the features it could find and the
// fallbacks for the rest. Steps are read in order because two readings
// depend on what came before (a plan after a plan is a re-plan; only the
// first step that states the task is the task).
func Run(r *run.Run) *RunFeatures {
	rf, _ := RunContext(context.Background(), r)
	return rf
}

// RunContext is Run that stops with ctx's error once ctx is done: a run of
// many thousand steps takes seconds to read. It checks before each step.
func RunContext(ctx context.Context, r *run.Run) (*RunFeatures, error) {
	rc := newRunContext(r)
	rc.buf = lentBuffers.Get().(*stepBuffers)
	defer lentBuffers.Put(rc.buf)
	task := withoutActionDocs(r.Question)
	rf := &RunFeatures{Steps: make([]Features, len(r.Steps)), Question: Claims(task), QuestionWordNumbers: wordNumbers(task), Instructions: Claims(r.Instructions)}
	for i := range r.Steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		rc.toUser = i+1 < len(r.Steps) && r.Steps[i+1].Kind == run.KindUser
		// A text environment answers the command before it, in the user's
		// turn or as an agent of its own (a Who&When case's).
		rc.answersCommand = rc.commanded && r.Steps[i].Kind != run.KindSystem && !run.SameAgent(r.Steps[i].Agent, r.Steps[i-1].Agent)
		// An executor that answers code in its own turn with nothing but
		// the output (AG2's MathUserProxyAgent, AutoGen's
		// CodeExecutorAgent) reports a result too.
		answerer := r.Steps[i].Kind == run.KindUser || i > 0 && r.Steps[i].Kind == run.KindMessage && !run.SameAgent(r.Steps[i].Agent, r.Steps[i-1].Agent) &&
			(bareOutput(r.Steps[i].Content) || printedBy(r.Steps[i].Content, rf.Steps[i-1].Code))
		rc.answersCall = i > 0 && answerer && r.Steps[i-1].Kind != run.KindUser && r.Steps[i-1].Kind != run.KindSystem && rf.Steps[i-1].IssuesCall() || rc.answersCommand
		rc.commanded = false
		rf.Steps[i] = rc.step(r.Steps[i])
		if rc.correction != nil {
			rc.correction.step = i
			rc.corrections = append(rc.corrections, *rc.correction)
			rc.correction = nil
		}
	}
	rf.steps, rf.groundTruth = r.Steps, r.GroundTruth
	taskSubjectFailures(r, rf)
	rf.FinalAnswer = finalAnswer(rf, rc.noEntity, r.Question)
	rf.ExpectedCalls = listedCalls(r.GroundTruth)
	rf.Requirements = requirements(task, r.Steps)
	rf.AskedUnits = askedUnits(task)
	rf.AsksExtreme = asksExtreme(task)
	keptRounding(rf.Requirements, rf.FinalAnswer, r.Steps)
	rf.Renames = renames(r.Question, r.Steps, rf)
	readCorrections(r, rf, rc.corrections, rc.noEntity)
	AssignCallers(r, rf)
	readReverts(rf)
	keepRunBlocks(r, rf)
	dropStaleErrors(r, rf)
	quietExits(r, rf)
	readPicks(r, rf)
	readListedPicks(r, rf)
	readBusyClashes(r, rf)
	readOverBudget(r, rf)
	readOtherPrices(r, rf)
	readStale(r, rf)
	readRewrites(r, rf)
	readQuantities(r, rf)
	rf.ShowsReported = showingReported(r.Question, r.Steps, rf)
	rf.TaskFiles = taskFiles(r.Question)
	rf.PatchOrigin = patchOrigin(r.Steps, r.Question, rf)
	rf.Misroute = misroute(r, rf)
	rf.Reversed = reversal(r.Steps)
	readGuards(r, rf)
	return rf, nil
}

// runContext is what reading one step needs to know about the others.
type runContext struct {
	agents   map[string]string // agentKey(name) -> name as the run writes it
	names    []string          // the run's agents, in order of appearance
	keys     []string          // agentKey of each of names
	lowers   []string          // each of names in lower case, as addressed looks for it
	mentions *mentionIndex     // lowers indexed, for a run of many agents; nil for few
	noEntity *agentSet         // entity norms that are agent names
	question string            // the start of the task text, normalised
	task     string            // the task text, in lower case
	// instructions are the run's system instructions kept apart from
	// its steps, until the first task step takes their policies.
	instructions string
	sawTask      bool
	sawPlan      bool
	// toUser is whether the user takes the turn after the step being
	// read: what it says, the user reads.
	toUser bool
	// answersCall is whether the step being read is a user turn right
	// after a step that ran code or called a tool: an environment that
	// answers each action in the user's turn (a shell, a database, a
	// shop) reports there how the action fared.
	answersCall bool
	called      map[string]bool // tools called so far
	// verbs are the verbs of the commands the run's harness shows
	// (harnessVerbs); commanded is whether the step before the one
	// being read gave a text environment a command (envCommand).
	verbs     map[string]bool
	commanded bool
	// answersCommand is whether the step being read is a text
	// environment's answer to the command before it.
	answersCommand bool
	// ledgers are each agent's last ledger (by agentKey) and its step,
	// whose instruction its next message may send to the next speaker.
	ledgers map[string]ledgerAt
	buf     *stepBuffers // each step's texts, made again in place
	details Details      // the step being read's, until it is done
	rare    Rare         // the step being read's rarer details, until it is done
	// correction is the step being read's correction (correctionRe),
	// nil for none; corrections are the run's, read once every step is.
	correction  *correction
	corrections []correction
}

// stepBuffers hold the texts one step is read through: the step's own,
// its asserted reading, and each field of its ledger in turn.
type stepBuffers struct{ text, asserted, field buffers }

// lentBuffers lends each run being read the buffers of a run read before
// it, so that a screen of many runs converts its texts without allocating.
var lentBuffers = sync.Pool{New: func() any { return new(stepBuffers) }}

func newRunContext(r *run.Run) *runContext {
	rc := &runContext{agents: map[string]string{}, called: map[string]bool{}, ledgers: map[string]ledgerAt{}}
	noEntity := map[string]bool{}
	rc.names = r.Agents()
	for _, a := range rc.names {
		key := agentKey(a)
		rc.keys = append(rc.keys, key)
		rc.lowers = append(rc.lowers, strings.ToLower(a))
		rc.agents[key] = a
		noEntity[entityNorm(a)] = true
		noEntity[key] = true
	}
	rc.noEntity = newAgentSet(noEntity)
	if len(rc.names) >= indexedMentions {
		rc.mentions = newMentionIndex(rc.lowers)
	}
	q := strings.ToLower(collapse(r.Question))
	if len(q) > 100 {
		q = q[:100]
	}
	rc.question = q
	rc.task = strings.ToLower(r.Question)
	rc.instructions = r.Instructions
	rc.verbs = harnessVerbs(harnessTexts(r)...)
	return rc
}

// agentKey is run.AgentKey, the one identity of an agent name.
var agentKey = run.AgentKey

// agent returns the run's spelling of name, "" if no agent is called so.
func (rc *runContext) agent(name string) string {
	return rc.agents[agentKey(strings.Trim(name, ".,;:!?'\"`*"))]
}

// kindOrder ranks kinds for Features.Kind: the most specific reading first.
var kindOrder = []StepKind{KindTask, KindFinalAnswer, KindLedger, KindReplan, KindPlan, KindToolResult, KindInstruction, KindToolCall, KindVerification, KindAnswer, KindTermination, KindThought, KindMessage}

// stepKinds is kinds, or KindMessage alone when it is empty, and the most
// specific of them.
func stepKinds(kinds KindSet) (KindSet, StepKind) {
	if kinds == 0 {
		return KindsOf(KindMessage), KindMessage
	}
	i := slices.IndexFunc(kindOrder, kinds.Has) // every kind is in kindOrder
	return kinds, kindOrder[max(i, 0)]
}

func (rc *runContext) step(s run.Step) Features {
	// The step's details are read into rc's, and copied out only when
	// there are some.
	rc.rare = Rare{}
	rc.details = Details{Rare: &rc.rare}
	f := Features{Index: int32(s.Index), Details: &rc.details}
	t := readText(s.Content, &rc.buf.text)
	var set KindSet // the step's kinds so far
	// Whether the step's text is its calls alone, read once: it parses
	// the text.
	onlyCalls := s.OnlyCalls()
	kinds := &set

	switch s.Kind {
	case run.KindUser:
		kinds.add(KindTask)
	case run.KindThought:
		kinds.add(KindThought)
	case run.KindInstruction, run.KindHandoff:
		kinds.add(KindInstruction)
	case run.KindTermination:
		kinds.add(KindTermination)
	case run.KindToolCall:
		kinds.add(KindToolCall)
	case run.KindToolResult:
		kinds.add(KindToolResult)
	}
	taskBefore := rc.sawTask
	if !rc.sawTask && (kinds.Has(KindTask) || rc.question != "" && strings.Contains(strings.ToLower(collapse(s.Content)), rc.question)) {
		kinds.add(KindTask)
	}
	if kinds.Has(KindTask) {
		rc.sawTask = true
	}

	if l, ok := ParseLedger(s.Content); ok {
		f.Ledger = l
		kinds.add(KindLedger)
		rc.ledgers[agentKey(s.Agent)] = ledgerAt{l, int(f.Index)}
	} else if t.has(planRe) {
		if rc.sawPlan || t.has(replanMarkerRe) {
			kinds.add(KindReplan)
		} else {
			kinds.add(KindPlan)
		}
		rc.sawPlan = true
	}

	// Executors and tools announce their output at the top of the message;
	// the same words further down are prose about an output.
	if rc.answersCall || t.sub(0, headEnd(t.s, 600)).has(toolOutputRe) {
		kinds.add(KindToolResult)
	}
	if !kinds.Has(KindToolResult) && s.Kind != run.KindSystem && s.Kind != run.KindUser {
		// A system prompt or a user's turn issues no call: the code or
		// the action it shows (AgentBench's "```bash\n# put your bash
		// code here\n```") is an example of one, or the task's.
		rc.toolCalls(&f, s, t, kinds)
	}

	if rc.answersCommand {
		if m, ok := t.first(envRefusalRe); ok {
			// The environment did not carry the command out.
			f.Errors = append(f.Errors, Signal{Kind: "error", Severity: SeverityMedium, Quote: lineAround(t.s, m.Whole().Start, 160), Offset: m.Whole().Start})
		}
	}
	if kinds.Has(KindToolResult) {
		if v, whole, ok := toolJSON(s.Content); ok && whole {
			f.Errors = append(f.Errors, toolErrors(v, s.Content)...)
		}
		code, sig := exitCode(t)
		f.ExitCode = code
		if sig != nil && *code != 0 {
			f.Errors = append(f.Errors, *sig)
		} else if sig != nil {
			f.Successes = append(f.Successes, *sig)
		}
	}
	if f.Ledger != nil {
		// The ledger's verdicts are the signals; its reasons often retell
		// another agent's failure, which is not this step's.
		errs, oks := ledgerSignals(f.Ledger, s.Content)
		f.Errors = append(f.Errors, errs...)
		f.Successes = append(f.Successes, oks...)
	} else {
		if !onlyCalls || !slices.ContainsFunc(s.ToolCalls(), givenCommand) {
			// A command line or an edit is what the agent acts with
			// (code, an edit's text, a timeout it sets), not a report of
			// how it fared: a step of such calls alone reports nothing,
			// and a step that writes its command line in its text (a
			// SWE-agent reply's fenced action) reports nothing there.
			f.Errors = append(f.Errors, outsideCommands(errorSignals(t), s)...)
		}
		f.Successes = append(f.Successes, signals(t, successRules)...)
	}

	f.Errors = dedupeSignals(f.Errors)
	if len(f.Errors) > 0 || kinds.Has(KindToolResult) {
		// A tool's output reports its error in its own words ("-> Error:
		// TypeError: ...") more often than on a line of its own.
		rc.rare.ErrorNames = exactly(errorNames(t))
		rc.rare.FailedIn = exactly(failedIn(t))
		rc.rare.FailedAt = exactly(failedAt(t, rc.task))
		rc.rare.FailedTests = exactly(failedTests(t))
	}
	rc.rare.Unreachable = kinds.Has(KindToolResult) && len(f.Errors) > 0 && t.has(unreachableRe)
	// The service's failure is told on the line that reports the error,
	// not in a result's prose about one (a page on rate limits).
	rc.rare.ServiceFault = rc.rare.Unreachable || kinds.Has(KindToolResult) && slices.ContainsFunc(f.Errors, func(e Signal) bool {
		_, ok := firstIn(serviceFaultRe, e.Quote)
		return ok
	})
	rc.rare.Image = kinds.Has(KindToolResult) && imagesOnly(s.Content)
	// A system prompt or the task may tell of the limit ("when the maximum
	// turns are reached, ..."); only a later step reports it reached (a
	// later user turn too: a harness asks for an answer in the user's).
	// The notice is the harness's, standing as its own line.
	rc.rare.TurnLimit = s.Kind != run.KindSystem && (taskBefore || !kinds.Has(KindTask)) && turnLimitNotice(t)
	rc.rare.Asserts = exactly(assertions(t))
	f.Successes = dedupeSignals(f.Successes)

	rc.actions(&f, s, t, kinds)
	rc.rare.Defines = exactly(callDefines(defines(t), f.Calls))
	lower, aligned := t.lowered()
	unasserted := ordersOrShoutsIn(s.Content, lower, aligned)
	unasserted = answerBlanks(s.Content, unasserted)
	if !kinds.Has(KindTask) && s.Kind != run.KindSystem {
		// The task and a system prompt show the form an answer takes
		// ("for example <solution>42</solution>"); they give none.
		rc.answers(&f, asserted(t, s.Content, unasserted, &rc.buf.asserted), kinds)
	}
	if t.has(terminateRe) {
		kinds.add(KindTermination)
	}
	for _, sig := range f.Successes {
		if sig.Kind == "confirmed" {
			kinds.add(KindVerification)
		}
	}
	if t.has(thoughtRe) || routes(t) {
		kinds.add(KindThought)
	}
	rc.target(&f, s, t, kinds)
	if at := rc.ledgers[agentKey(s.Agent)]; at.l != nil && f.Ledger == nil && (s.Kind == run.KindMessage || s.Kind == run.KindInstruction) && sends(at.l, s.Content) {
		rc.rare.SendsLedger = &at.step
	}
	f.Critique = spanOf(t.first(critiqueRe))
	if f.Critique != nil {
		rc.rare.Rejected = exactly(rejectedNumbers(t, rc.noEntity))
	} else if m, ok := t.first(correctionRe); ok {
		rc.correction = correctionAt(t, m)
	}
	f.FailureWords = spanOf(t.first(failureWordsRe))

	f.Kinds, f.Kind = stepKinds(set)

	if f.Ledger != nil {
		f.Claims = ledgerClaims(f.Ledger, s.Content, rc.noEntity, &rc.buf.field)
	} else {
		// A count told to a person is a value however it is written
		// ("there are eleven options"), as the closing reply's is
		// (withCounts); agents writing to one another are read in
		// digits only, as that read the labelled systems no worse.
		f.Claims = assertedOnly(readClaims(t, rc.noEntity, true, rc.toUser && s.Kind == run.KindMessage), unasserted)
		if onlyCalls {
			f.Claims = screenClaims(f.Claims, f.Calls)
		}
		f.Claims = withoutLayoutFigures(s.Content, withoutPointerFigures(t, f.Claims))
		if rc.toUser && s.Kind == run.KindMessage || s.Kind == run.KindUser {
			f.Claims = afternoonHours(f.Claims)
		}
	}
	calls := besideCalls(s, onlyCalls, f.Calls)
	if calls != nil && f.Ledger == nil {
		f.Claims = dedupe(append(f.Claims, calls.claims(rc.noEntity, len(s.Content))...))
	}
	f.Claims = exactly(f.Claims)
	if f.Ledger == nil {
		rc.rare.Offered = exactly(offeredClaims(t.s, f.Claims))
		rc.rare.Computes = exactly(computes(t, f.Claims))
	}
	rc.rare.Miscomputes = strings.IndexByte(s.Content, '=') >= 0 && miscomputes(s.Content) || calendarSlip(s.Content)
	if slices.ContainsFunc(f.Claims, func(c Claim) bool { return c.Kind == ClaimNumber }) {
		rc.rare.WordNumbers = exactly(wordNumbers(s.Content))
	}
	rc.rare.Phones = exactly(phones(t))
	rc.rare.Grouped = exactly(grouped(t))
	if !f.Has(KindToolResult) {
		days := monthDays(t)
		for _, d := range calls.monthDays() {
			days = appendNew(days, d)
		}
		rc.rare.MonthDays = exactly(days)
		rc.rare.Codes = exactly(codes(s.Content))
		rc.rare.Files = exactly(namedFiles(t))
		rc.rare.Counts = exactly(counts(s.Content))
		rc.rare.Done = exactly(done(t))
		rc.rare.Asked = exactly(asked(t))
		rc.rare.Refused = exactly(refused(t))
		rc.rare.Guessed = exactly(guessed(s.Content, f.Claims))
		rc.rare.RelativeDay = t.has(relativeDayRe)
		rc.rare.TellsNone = t.has(tellsNoneRe)
		rc.rare.Passes = passes(t)
		if rc.rare.RelativeDay {
			if days, other := weekdays(t); !other {
				rc.rare.Weekdays = exactly(days)
			}
		}
	} else if v, whole, ok := toolJSON(s.Content); ok {
		rc.rare.IDFields = exactly(idFields(v))
		rc.rare.Records = exactly(records(v))
		rc.rare.FoundNothing = whole && foundNothing(v)
		f.Claims = exactly(jsonNumbers(s.Content, f.Claims))
	} else {
		rc.rare.Records = exactly(printedRecords(s.Content))
	}
	f.ContextType = contextType(&f)
	if f.Has(KindToolResult) {
		// Its Action says whether it answers for itself (AssignCallers).
		// Any other step's parts are for readers: Describe makes them.
		f.OTAR = ptr(otar(&f, t, t.prose()))
	}
	switch {
	case f.Details.empty():
		f.Details = noDetails
	case rc.rare.empty():
		rc.details.Rare = noRare
		f.Details = ptr(rc.details)
	default:
		rc.details.Rare = ptr(rc.rare)
		f.Details = ptr(rc.details)
	}
	return f
}

// exactly returns s in an array of its own length, nil when it is empty:
// the features keep every step's claims while the graph and the rules
// read them, and the appends that gathered them leave room unused.
func exactly[T any](s []T) []T {
	switch {
	case len(s) == 0:
		return nil
	case cap(s) == len(s):
		return s
	}
	return slices.Clone(s)
}

// codeLangs are fence languages that hold data or prose, not something to run.
var dataLangs = map[string]bool{"json": true, "text": true, "txt": true, "plaintext": true, "markdown": true, "md": true, "yaml": true, "yml": true, "csv": true, "output": true, "console": false, "html": true, "xml": true, "log": true}

func (rc *runContext) toolCalls(f *Features, s run.Step, t *text, kinds *KindSet) {
	for _, tc := range s.ToolCalls() {
		f.Code = append(f.Code, tc.Name+"("+clip(tc.Arguments, 2000)+")")
	}
	for _, b := range t.codeBlocks(20) {
		if dataLangs[strings.ToLower(t.str(b.lang))] {
			continue
		}
		code := strings.TrimSpace(t.str(b.code))
		if code != "" {
			f.Code = append(f.Code, clip(code, 4000))
			for _, w := range blockWrites(strings.ToLower(t.str(b.lang)), code) {
				rc.rare.CodeWrites = appendNew(rc.rare.CodeWrites, w)
			}
		}
	}
	for _, m := range t.all(actionLineRe, 10) {
		f.Code = append(f.Code, "Action: "+strings.TrimSpace(t.named(m, "a")))
	}
	for _, m := range t.all(functionCallRe, 10) {
		f.Code = append(f.Code, t.named(m, "name")+"(...)")
	}
	for _, m := range t.all(callingToolRe, 10) {
		f.Code = append(f.Code, t.named(m, "name")+"(...)")
	}
	if len(f.Code) > 0 {
		kinds.add(KindToolCall)
	}
}

// answers reads an explicit final answer, or an answer put forward in
// passing; a ledger's answer counts only when it says the request is met.
// A verdict where an answer would stand ("the result is correct", "the
// final answer is well-rounded") or a phrase that only announces one ("the
// answer is as follows:") is not an answer: the next match may be.
func (rc *runContext) answers(f *Features, t *text, kinds *KindSet) {
	if a := firstAnswer(t, finalAnswerRe); a != "" {
		f.Answer = a
		kinds.add(KindFinalAnswer)
		return
	}
	if f.Ledger != nil && !f.Ledger.RequestSatisfied.Answer {
		return
	}
	if _, ok := t.first(nextRequestRe); ok {
		return // its "Solution:" answers the instruction it was given, a part of the task
	}
	src := t
	if f.Ledger != nil {
		src = readText(f.Ledger.InstructionOrQuestion, &rc.buf.field)
	}
	if a := firstAnswer(src, answerRe); a != "" {
		f.Answer = a
		kinds.add(KindAnswer)
	}
}

// maxAnswerMatches bounds how many matches of an answer pattern are read
// in one step for one that is not a verdict.
const maxAnswerMatches = 8

// firstAnswer returns the first answer re reads in t that is neither empty
// nor a verdict, or "".
func firstAnswer(t *text, re *matching.Pattern) string {
	for _, m := range t.all(re, maxAnswerMatches) {
		if a := cleanAnswer(t.named(m, "a")); a != "" && !notAnAnswer(a, afterVerb(t, m)) {
			return a
		}
	}
	return ""
}

// afterVerb reports whether the answer group of m follows a word ("the
// answer is checked"), not a label's colon, a box or a tag ("FINAL
// ANSWER: vetoed", "\boxed{married}"): only after a verb can a
// participle be a passive.
func afterVerb(t *text, m match) bool {
	for i, n := range m.Names {
		if n == "a" && i < len(m.Groups) && m.Groups[i].OK {
			before := strings.TrimRight(t.s[:m.Groups[i].Start], " \t*_`")
			r, _ := utf8.DecodeLastRuneInString(before)
			return unicode.IsLetter(r)
		}
	}
	return false
}

// verdictWords open a judgement of an answer, or a phrase that announces
// one, where the answer would stand.
var verdictWords = toSet(`correct incorrect right wrong verified unverified accurate inaccurate confirmed valid invalid
consistent inconsistent complete completed resolved identified reasonable well-rounded as below above following but`)

// notAnAnswer reports whether a, read where an answer stands, only judges
// or announces one, or says there is none ("N/A": WebArena's stop for a
// task done without a text answer or found impossible); a participle
// judges only after a verb (afterVerb).
func notAnAnswer(a string, afterVerb bool) bool {
	if strings.HasSuffix(a, ":") || strings.EqualFold(strings.Trim(a, "\"' "), "n/a") {
		return true
	}
	first, _, _ := strings.Cut(a, " ")
	first = strings.TrimRight(first, ",.;!")
	return verdictWords[strings.ToLower(first)] || afterVerb && participle(first)
}

// participle reports a word that reads as a past participle: in lower
// case, of six letters or more, ending in "ed" ("checked", "validated",
// "double-checked", "computed"). After "the answer is" it says what was
// done to the answer ("the solution is checked for correctness"), however
// the verdict is worded, not what the answer is; a short word ("red") or a
// name ("Alfred") may be one.
func participle(w string) bool {
	if len(w) < 6 || !strings.HasSuffix(w, "ed") {
		return false
	}
	for _, r := range w {
		if (r < 'a' || r > 'z') && r != '-' {
			return false
		}
	}
	return true
}

func cleanAnswer(a string) string {
	a = strings.TrimSpace(a)
	a = strings.Trim(a, "*_` \t")
	a = strings.TrimSuffix(a, ".")
	return clip(strings.TrimSpace(a), 300)
}

// target finds whom an instruction addresses: the loader's target, then a
// ledger's or a thought's next speaker, then an agent addressed by name.
// A message that addresses an agent by name is an instruction whether or
// not the loader knew whom it went to: a trace gives each agent's message
// the next agent as its target, a chat transcript gives none; so is a
// message whose code it asks the agent it names to run ("Computer_terminal,
// please run this code"). A step whose code calls that agent
// (search_agent(task=...)) hands it the work by the call, and one the
// loader already kinds (a tool call, a handoff) is read as it was.
func (rc *runContext) target(f *Features, s run.Step, t *text, kinds *KindSet) {
	// A message that sends what its agent's last ledger said to ask the
	// next speaker is that instruction, to that speaker, whether the log
	// marks it as one (a chat's role "Orchestrator (-> WebSurfer)") or
	// not (a trace's model output, its target the agent's next message's).
	if l := rc.ledgers[agentKey(s.Agent)].l; l != nil && f.Ledger == nil && s.Kind == run.KindMessage && sends(l, s.Content) {
		kinds.add(KindInstruction)
		if s.Target() == "" {
			f.Target = l.NextSpeaker
			if a := rc.agent(l.NextSpeaker); a != "" {
				f.Target = a
			}
			return
		}
	}
	if s.Target() != "" {
		f.Target = s.Target()
		if a := rc.agent(s.Target()); a != "" {
			f.Target = a
		}
		if a := rc.addressed(t, s.Agent); s.Kind == run.KindMessage && a != "" && !callsAgent(f, a) {
			kinds.add(KindInstruction)
		}
		return
	}
	if f.Ledger != nil && f.Ledger.NextSpeaker != "" {
		f.Target = f.Ledger.NextSpeaker
		if a := rc.agent(f.Target); a != "" {
			f.Target = a
		}
		return
	}
	if m, ok := t.first(nextSpeakerRe); ok {
		if a := rc.agent(t.named(m, "name")); a != "" && agentKey(a) != agentKey(s.Agent) {
			f.Target = a
			return
		}
	}
	if a := rc.addressed(t, s.Agent); a != "" {
		f.Target = a
		kinds.add(KindInstruction)
		return
	}
	if a := rc.calledAgent(f, s.Agent); a != "" {
		f.Target = a
	}
}

// calledAgent is the run's agent, not the speaker, that a step's call
// hands the work to when the log names no addressee: the call's name ends
// with the agent's ("transfer_to_flight_agent"), or an argument is the
// agent's name ({"coworker": "Supplier Researcher"}).
func (rc *runContext) calledAgent(f *Features, speaker string) string {
	self := agentKey(speaker)
	for _, c := range f.Calls {
		name := strings.ToLower(c.Name)
		for k, n := range rc.lowers {
			if rc.keys[k] == self || len(n) < 3 {
				continue
			}
			if at := len(name) - len(n); at > 0 && strings.HasSuffix(name, n) && !asciiAlnum(name[at-1]) {
				return rc.names[k]
			}
		}
		for _, v := range c.Values {
			if a := rc.agent(v); a != "" && agentKey(a) != self {
				return a
			}
		}
	}
	return ""
}

// routes reports whether a text is only a note of who speaks next ("Next
// speaker WebSurfer"): an orchestrator's thought, said to no one.
func routes(t *text) bool {
	m, ok := t.first(nextSpeakerRe)
	return ok && strings.TrimSpace(t.s[:m.Whole().Start]) == "" && strings.Trim(t.s[m.Whole().End:], " \t\n.*\x60'\"") == ""
}

// ledgerAt is a ledger and the step it is in.
type ledgerAt struct {
	l    *Ledger
	step int
}

// sends reports whether a message is, word for word, the instruction or
// question a ledger names for the next speaker.
func sends(l *Ledger, content string) bool {
	ask := collapse(l.InstructionOrQuestion)
	return l.NextSpeaker != "" && ask != "" && strings.EqualFold(ask, collapse(content))
}

// callsAgent reports whether the step's code or calls call the agent by
// its name, as a function (search_agent(task=...)).
func callsAgent(f *Features, agent string) bool {
	key := agentKey(agent)
	return slices.ContainsFunc(f.Calls, func(c Call) bool { return agentKey(c.Name) == key }) ||
		slices.ContainsFunc(f.Code, func(code string) bool {
			return slices.ContainsFunc(calledIn(code), func(name string) bool { return agentKey(name) == key })
		})
}

// ledgerClaims reads the claims of a ledger's texts after JSON decoding (the
// raw step holds "Taish\u014d" where the reasons say "Taishō"). Offsets are
// those of each field's key in the step. Each field is read in b.
func ledgerClaims(l *Ledger, content string, agents *agentSet, b *buffers) []Claim {
	fields := []struct{ key, text string }{
		{"is_request_satisfied", l.RequestSatisfied.Reason},
		{"is_in_loop", l.InLoop.Reason},
		{"is_progress_being_made", l.ProgressBeingMade.Reason},
		{"next_speaker", l.NextSpeakerReason},
		{"instruction_or_question", l.InstructionOrQuestion},
	}
	var out []Claim
	for _, fl := range fields {
		at := max(0, strings.Index(content, `"`+fl.key+`"`))
		for _, c := range claimsOf(readText(fl.text, b), agents, true) {
			c.Offset = int32(at)
			out = append(out, c)
		}
	}
	return dedupe(out)
}

// addressed returns the run's agent that the text addresses by name ("@Coder",
// "pass this to the Coder", "Coder, please"), the earliest if several; never
// the speaker. Looking up the known names and reading a window around
// each is both cheaper and more precise than a pattern for any name.
func (rc *runContext) addressed(t *text, speaker string) string {
	lower, aligned := t.lowered()
	if !aligned {
		if lower = strings.ToLower(t.s); len(lower) != len(t.s) {
			return "" // a case change altered byte lengths; offsets would not line up
		}
	}
	self := agentKey(speaker)
	if rc.mentions != nil {
		return rc.addressedIndexed(t, lower, self)
	}
	best, bestAt := "", len(t.s)+1
	for k, name := range rc.names {
		if rc.keys[k] == self {
			continue
		}
		n := rc.lowers[k]
		for from := 0; from < bestAt; {
			i := strings.Index(lower[from:], n)
			if i < 0 {
				break
			}
			i += from
			from = i + 1
			if i >= bestAt || !wordEdge(t.s, i, i+len(n)) {
				continue
			}
			if rc.addresses(t, i, i+len(n)) {
				best, bestAt = name, i
				break
			}
		}
	}
	return best
}

// addressedIndexed is addressed for a run of many agents: it reads the
// text once and looks each word up among the names, where a search for
// each name would cost a pass over the text per agent. It returns what
// the search would: the earliest mention that addresses, and of names
// mentioned at one place, the first in the run.
func (rc *runContext) addressedIndexed(t *text, lower, self string) string {
	var found []int
	for i := 0; i < len(lower); {
		end := i + 1
		if wordByte(lower[i]) {
			for end < len(lower) && wordByte(lower[end]) {
				end++
			}
		}
		// Inside a word no name starts at a word edge: go to its end.
		if i == 0 || !wordByte(t.s[i-1]) {
			found = found[:0]
			for _, n := range rc.mentions.lengths[lower[i:end]] {
				if i+n > len(lower) {
					break
				}
				if ks := rc.mentions.names[lower[i:i+n]]; len(ks) > 0 && wordEdge(t.s, i, i+n) {
					found = append(found, ks...)
				}
			}
			slices.Sort(found)
			for _, k := range found {
				if rc.keys[k] != self && rc.addresses(t, i, i+len(rc.lowers[k])) {
					return rc.names[k]
				}
			}
		}
		i = end
	}
	return ""
}

// addresses reports whether the name at t.s[i:j] is addressed: by the
// words around it, or as the message's first word with a colon or a
// comma after it ("venue_agent: reserve…").
func (rc *runContext) addresses(t *text, i, j int) bool {
	if j < len(t.s) && (t.s[j] == ':' || t.s[j] == ',') && strings.TrimLeft(t.s[:i], " \t\n*@\"'\x60") == "" {
		return true
	}
	if !mayAddress(t.s, i, j) {
		return false
	}
	before := t.sub(max(0, i-80), i)
	after := t.sub(j, min(len(t.s), j+40))
	return before.has(addressBeforeRe) || after.has(addressAfterRe)
}

// mentionIndex finds the run's agents in a text by the word each begins
// with: a name begins at a word edge, so the text's word there (or its
// byte, for a name that begins with no letter or digit) is the name's.
type mentionIndex struct {
	// lengths are the byte lengths of the names (lower case) that begin
	// with a word, shortest first.
	lengths map[string][]int
	// names are the indexes in runContext.names of each name in lower case.
	names map[string][]int
}

// indexedMentions is the number of agents from which addressed reads the
// text once through a mentionIndex rather than once per name.
const indexedMentions = 32

func newMentionIndex(lowers []string) *mentionIndex {
	x := &mentionIndex{lengths: map[string][]int{}, names: map[string][]int{}}
	for k, n := range lowers {
		if n == "" {
			continue
		}
		end := 1
		if wordByte(n[0]) {
			for end < len(n) && wordByte(n[end]) {
				end++
			}
		}
		first := n[:end]
		if ls := x.lengths[first]; !slices.Contains(ls, len(n)) {
			ls = append(ls, len(n))
			slices.Sort(ls)
			x.lengths[first] = ls
		}
		x.names[n] = append(x.names[n], k)
	}
	return x
}

// mayAddress reports whether a name at s[i:j] may be addressed: one look
// at the words around it that either address pattern needs. Before it,
// past up to two quotes, addressBeforeRe ends with "@", or with one of
// addressWords, one or two spaces, and perhaps "the" and one or two spaces
// more ("pass this to ", "hey "); after it, past up to two quotes and two
// spaces, addressAfterRe needs "," or ":". A run names its agents
// everywhere ("the user"), and reading the words around each mention as
// texts of their own was most of what finding a step's target cost.
func mayAddress(s string, i, j int) bool {
	k := i
	for n := 0; n < 2 && k > 0 && addressQuotes.has(rune(s[k-1])); n++ {
		k--
	}
	if k > 0 && s[k-1] == '@' {
		return true
	}
	if word, at, ok := wordBeforeSpaces(s, k); ok {
		if word == "the" {
			word, _, ok = wordBeforeSpaces(s, at)
		}
		if ok && addressWords[word] {
			return true
		}
	}
	k = j
	for n := 0; n < 2 && k < len(s) && addressQuotes.has(rune(s[k])); n++ {
		k++
	}
	for n := 0; n < 2 && k < len(s); n++ {
		r, size := utf8.DecodeRuneInString(s[k:])
		if !unicode.IsSpace(r) {
			break
		}
		k += size
	}
	return k < len(s) && (s[k] == ',' || s[k] == ':')
}

// addressWords are the words addressBeforeRe can end with, before its
// spaces and optional "the": "to" closes every phrase that passes work on.
var addressWords = map[string]bool{"to": true, "ask": true, "asking": true, "request": true, "requesting": true,
	"instruct": true, "instructing": true, "let": true, "dear": true, "hey": true}

// addressQuotes are the marks either address pattern allows around a name.
var addressQuotes = asciiOf("`'\"*")

// wordBeforeSpaces reads s back from k over one or two spaces (\s: Go's
// unicode.IsSpace is the same set) and the word before them (\w: letters,
// digits, '_'), and returns the word lower-cased rune by rune, as
// IgnoreCase compares it, and where it starts. Where a pattern's \b
// stands before the word, the rune before it is no word rune, so the word
// read is the pattern's.
func wordBeforeSpaces(s string, k int) (word string, start int, ok bool) {
	spaces := 0
	for ; spaces <= 2 && k > 0; spaces++ {
		r, size := utf8.DecodeLastRuneInString(s[:k])
		if !unicode.IsSpace(r) {
			break
		}
		k -= size
	}
	if spaces == 0 || spaces > 2 {
		return "", k, false
	}
	end := k
	for k > 0 {
		r, size := utf8.DecodeLastRuneInString(s[:k])
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' {
			break
		}
		k -= size
	}
	if end-k > len("instructing")*utf8.UTFMax {
		return "", k, true // longer than any address word
	}
	return strings.Map(unicode.ToLower, s[k:end]), k, true
}

// wordEdge: s[i:j] is not part of a longer word or identifier.
func wordEdge(s string, i, j int) bool {
	return (i == 0 || !wordByte(s[i-1])) && (j == len(s) || !wordByte(s[j]))
}

// headEnd is the byte length of the first n bytes of s, cut at a rune
// start. It looks back no further than a rune can reach: in a run of
// bytes that start no rune (text that is not UTF-8) it cuts within them,
// never back into the words before.
func headEnd(s string, n int) int {
	if len(s) <= n {
		return len(s)
	}
	for k := 1; k < utf8.UTFMax && n > 0 && !utf8.RuneStart(s[n]); k++ {
		n--
	}
	return n
}

// outsideCommands are the signals of a step's text that are not within a
// command line one of its calls is given to run, where the text writes it
// out (a SWE-agent reply's action, fenced after its thought).
func outsideCommands(sigs []Signal, s run.Step) []Signal {
	var spans [][2]int
	for _, c := range s.ToolCalls() {
		line, _ := commandOf(c.Arguments)
		if line = strings.TrimSpace(line); len(line) < 2 {
			continue
		}
		for at := 0; ; {
			i := strings.Index(s.Content[at:], line)
			if i < 0 {
				break
			}
			spans = append(spans, [2]int{at + i, at + i + len(line)})
			at += i + len(line)
		}
	}
	if len(spans) == 0 {
		return sigs
	}
	return slices.DeleteFunc(sigs, func(g Signal) bool {
		return slices.ContainsFunc(spans, func(sp [2]int) bool { return g.Offset >= sp[0] && g.Offset < sp[1] })
	})
}

// givenCommand reports whether a call's arguments give it a command line
// or an editor's command to run (commandOf): a shell's or a file
// editor's call.
func givenCommand(c run.ToolCall) bool {
	line, _ := commandOf(c.Arguments)
	return line != ""
}

// turnLimitNotice reports whether t holds a harness's notice that the run
// reached its limit: the notice heads its line, after at most a label
// that ends in a colon or bracket or has no letters ("Terminated: Reached
// max steps (20)", ">>>>>>>> TERMINATING RUN (5f2c): Maximum turns (10)
// reached"). An agent that writes mid-sentence that it reached the limit
// ("I have reached the maximum number of steps, so my answer is 42") is
// giving its own reply, which stays its own.
func turnLimitNotice(t *text) bool {
	for _, m := range t.all(turnLimitRe, 0) {
		start := m.Whole().Start
		head := strings.TrimSpace(t.s[strings.LastIndexByte(t.s[:start], '\n')+1 : start])
		if head == "" || strings.HasSuffix(head, ":") || strings.HasSuffix(head, "]") || !strings.ContainsFunc(head, unicode.IsLetter) {
			return true
		}
	}
	return false
}
