package rules

import (
	"cmp"
	"fmt"
	"iter"
	"math"
	"net/url"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
	"unicode"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// The analyzers here read tool-using, policy-following systems: there the
// fault is often an action, not a claim.

// support tells, for every step, what came before it: a value is
// supported at step i when the task or some step before i holds it.
type support struct {
	steps   []run.Step
	results []bool // whether each step is a tool result
	// text is what the task and the steps write (extract.Writing).
	text *extract.Writing
	// agent numbers each step's agent key in keys, made when first asked
	// for: a key a step would be as many strings as steps.
	agent []int32
	keys  []string
	// holders are, for each value looked up past scanned, where it is
	// held (firstHolding), made when first asked for.
	holders map[string]holders
	// features and numbers: the run's claims, and where each number's
	// value is stated, made when first asked for.
	features *extract.RunFeatures
	numbers  map[string][]numberAt
	rounded  map[string][]numberAt // numbers stated with more decimals, under their values rounded (roundNumbers)
	// definitions are, for a function and its definition (squashed, as
	// extract.Writing.Definition reads it), the first step not given with
	// the task that writes it (firstWriter), made when first asked for.
	definitions map[[2]string]int
	// listings are, for an id a tool's output prints under a field, the
	// steps that print it so (listing); counted are the counts above one
	// the run states, each with the step that first does (countsUpTo).
	// Both are made when first asked for: asked at every step, a scan of
	// the steps before it costs the square of a long run's length.
	listings map[string][]int32
	counted  []countAt
	// given are the counts the steps given with the task (given) state,
	// by the thing counted, made when first asked for (givenCounts).
	given map[string][]countAt
	// writers are the agent steps that write code defining functions,
	// and definers the steps that define each function, in order, made
	// when first asked for (codeWriters).
	writers  []int
	definers map[string][]int
	// replaced holds replacedFound's reading of each plan asked about;
	// wordSteps, for words, the steps that write them (stepsWriting);
	// entities, each step's names as NormWords writes them. Each is made
	// when first asked for: replacedUnder asks of every step before each
	// origin, and a plan's names are weighed against every earlier
	// result's. naming lists, for a name's words, the steps that name it.
	replaced  map[int]replacement
	wordSteps map[string][]int32
	entities  [][]string
	naming    map[string][]int32
	// defined are the names of the functions and classes the run's code
	// defines (extract's Defines), lowered, made when first asked for.
	defined map[string]bool
}

// countAt is a count the run states and the step that first states it.
type countAt struct{ value, step int }

// listing returns, in order, the steps whose tool output prints id v
// under a field (extract.StepFeatures.IDFields).
func (s *support) listing(in *Input, v string) []int32 {
	if s.listings == nil {
		s.listings = map[string][]int32{}
		for j := range in.Features.Steps {
			for _, f := range in.Features.Steps[j].IDFields {
				if l := s.listings[f.Value]; len(l) == 0 || l[len(l)-1] != int32(j) {
					s.listings[f.Value] = append(l, int32(j))
				}
			}
		}
	}
	return s.listings[v]
}

// countsUpTo returns the counts above one that the steps up to i state,
// each once, in the order they are first stated.
func (s *support) countsUpTo(in *Input, i int) []countAt {
	if s.counted == nil {
		s.counted = []countAt{}
		seen := map[int]bool{}
		for j := range in.Features.Steps {
			for _, n := range in.Features.Steps[j].Counts {
				if n.Value > 1 && !seen[n.Value] {
					seen[n.Value] = true
					s.counted = append(s.counted, countAt{n.Value, j})
				}
			}
		}
	}
	k, _ := slices.BinarySearchFunc(s.counted, i+1, func(c countAt, t int) int { return cmp.Compare(c.step, t) })
	return s.counted[:k]
}

// givenCounts returns the values the steps given with the task (the
// task, a user's turns: given) before step i count noun with, in order.
func (s *support) givenCounts(in *Input, noun string, i int) []int {
	if s.given == nil {
		s.given = map[string][]countAt{}
		for k := range in.Features.Steps {
			if given(in, k) {
				for _, c := range in.Features.Steps[k].Counts {
					s.given[c.Noun] = append(s.given[c.Noun], countAt{c.Value, k})
				}
			}
		}
	}
	var out []int
	for _, c := range s.given[noun] {
		if c.step >= i {
			break
		}
		out = append(out, c.value)
	}
	return out
}

// codeWriters returns, in order, the agent decisions other than tool
// results whose code defines a function, and for each function the steps
// that define it.
func (s *support) codeWriters(in *Input) ([]int, map[string][]int) {
	if s.definers == nil {
		s.definers = map[string][]int{}
		for k := range in.Features.Steps {
			f := &in.Features.Steps[k]
			if len(f.Defines) == 0 {
				continue
			}
			for _, fn := range f.Defines {
				if ds := s.definers[fn]; len(ds) == 0 || ds[len(ds)-1] != k {
					s.definers[fn] = append(ds, k)
				}
			}
			if isAgentDecision(in, k) && !f.Has(extract.KindToolResult) {
				s.writers = append(s.writers, k)
			}
		}
	}
	return s.writers, s.definers
}

// definedName reports whether a step's code defines a function or a
// class of the name norm (lower case): a name the team gave a piece of
// its own code, not a value that could be wrong.
func (s *support) definedName(norm string) bool {
	if s.defined == nil {
		s.defined = map[string]bool{}
		for j := range s.features.Steps {
			for _, fn := range s.features.Steps[j].Defines {
				s.defined[strings.ToLower(fn)] = true
			}
		}
	}
	return s.defined[norm]
}

// supportIndex returns the run's support, made on first use and shared by
// every analyzer that looks for values in earlier steps until Apply is
// done: on a long run its index of tokens is as large as a stage, and
// building it once for each such analyzer cost its time again. The
// analyzers of one Apply run one after another; the support they share
// is not for concurrent use.
func (in *Input) supportIndex() *support {
	in.supportMu.Lock()
	defer in.supportMu.Unlock()
	if in.shared == nil {
		in.shared = newSupport(in)
	}
	return in.shared
}

// releaseSupport lets the shared support go: the rules are done with it,
// and the stages after them hold the Input still.
func (in *Input) releaseSupport() {
	in.supportMu.Lock()
	defer in.supportMu.Unlock()
	in.shared = nil
}

func newSupport(in *Input) *support {
	results := make([]bool, len(in.Features.Steps))
	for j := range results {
		results[j] = in.Features.Steps[j].Has(extract.KindToolResult)
	}
	return &support{steps: in.Run.Steps, results: results, text: extract.NewWriting(in.Run), holders: map[string]holders{}, features: in.Features}
}

// key returns the agent key of step j.
func (s *support) key(j int) string {
	if s.agent == nil {
		s.agent = make([]int32, len(s.steps))
		named := map[string]int32{} // agent name as written → its key's number
		numbered := map[string]int32{}
		for k := range s.steps {
			a, ok := named[s.steps[k].Agent]
			if !ok {
				key := run.AgentKey(s.steps[k].Agent)
				if a, ok = numbered[key]; !ok {
					a = int32(len(s.keys))
					numbered[key] = a
					s.keys = append(s.keys, key)
				}
				named[s.steps[k].Agent] = a
			}
			s.agent[k] = a
		}
	}
	return s.keys[s.agent[j]]
}

// from says whose steps count as support: anyone's, or (when others) only
// tool results and the steps of agents other than self, since an agent's
// own earlier words are no source.
type from struct {
	others bool
	self   string
}

func (s *support) counts(j int, f from) bool {
	return !f.others || s.results[j] || s.key(j) != f.self
}

// scanned is how many earlier steps before reads one by one; past it, a
// value is looked up in the token index of the whole run
// (extract.Writing.Candidates), so that asking about every step costs
// what reading the run once does.
const scanned = 256

// before reports whether v is written, as a whole token, in the task or
// in a step before i that f counts, or is one of the values the schema of
// a tool the run's model was offered offers: given, as the task's are.
func (s *support) before(v string, i int, f from) bool {
	v = strings.ToLower(v)
	if s.text.Holds(-1, v) || s.text.Offered(v) {
		return true
	}
	if i > scanned {
		return s.firstHolding(v, f) < i
	}
	for j := range i {
		if s.counts(j, f) && s.text.Holds(j, v) {
			return true
		}
	}
	return false
}

// codeBefore reports whether a reference code ("AES-256", "INC-48213")
// is written in the task or in a step before i that f counts, with its
// letters and digits joined by a hyphen, a space, an underscore or
// nothing: a tool's record that prints "AES 256" or "INC48213" printed
// the code the agent tells with a hyphen.
func (s *support) codeBefore(code string, i int, f from) bool {
	head, tail, ok := strings.Cut(code, "-")
	if !ok {
		return s.before(code, i, f)
	}
	for _, sep := range []string{"-", " ", "_", ""} {
		if s.before(head+sep+tail, i, f) {
			return true
		}
	}
	return false
}

// mayHold yields the steps before i that may hold v (lower case) as a
// whole token, in order: each of them in a short run; past scanned, only
// those where the token index finds v's rarest run of word bytes, so that
// asking about every step of a long run costs what reading it once does.
func (s *support) mayHold(v string, i int) iter.Seq[int] {
	return func(yield func(int) bool) {
		if i > scanned {
			if cs, _ := s.text.Candidates(v); cs != nil {
				for _, k := range cs {
					if int(k) >= i || !yield(int(k)) {
						return
					}
				}
				return
			}
		}
		for k := range i {
			if !yield(k) {
				return
			}
		}
	}
}

// numberBefore reports whether a number claim's value is stated in the
// task or in a step before i that f counts, with its unit or without one
// on either side, as claims match ("12.30 EUR" and a JSON result's 12.3):
// a value written another way, which a token does not find.
func (s *support) numberBefore(c extract.Claim, i int, f from) bool {
	if c.Kind != extract.ClaimNumber {
		return false
	}
	v, u := c.Value()
	for _, h := range s.numberIndex()[v] {
		if h.step >= i {
			break
		}
		if (h.unit == "" || u == "" || h.unit == u) && (h.step < 0 || s.counts(h.step, f)) {
			return true
		}
	}
	return false
}

// idTailBefore reports whether a number claim written as bare digits is
// the end of an id that the task or a step before i that f counts
// writes, joined to it by an underscore ("credit_card_7720" for "your
// card ending 7720"): a payment method's or an account's id ends in the
// digits a person knows it by, and telling them is no made-up value.
func (s *support) idTailBefore(c extract.Claim, i int, f from) bool {
	if c.Kind != extract.ClaimNumber || c.Text == "" || strings.Trim(c.Text, "0123456789") != "" {
		return false
	}
	ends := s.text.EndsID(c.Text)
	if ends(-1) {
		return true
	}
	for _, j := range s.text.IDTailSteps(c.Text) {
		if int(j) >= i {
			break
		}
		if s.counts(int(j), f) && ends(int(j)) {
			return true
		}
	}
	return false
}

// roundedBefore reports whether a number claim is a number the task or a
// step before i that f counts states with more decimals, rounded or cut
// to the claim's, whole or to one decimal ("about 19,636 feet" for a
// converter's 19636.48, "$1,240" for 1240.5): a figure told as people
// tell one, not made up. Both numbers are in one unit, or one of them
// has none.
func (s *support) roundedBefore(c extract.Claim, i int, f from) bool {
	if c.Kind != extract.ClaimNumber {
		return false
	}
	v, u := c.Value()
	if s.rounded == nil {
		s.rounded = roundNumbers(s.numberIndex())
	}
	for _, h := range s.rounded[v] {
		if h.step >= i {
			break
		}
		if (h.unit == "" || u == "" || h.unit == u) && (h.step < 0 || s.counts(h.step, f)) {
			return true
		}
	}
	return false
}

// roundNumbers indexes, under each number's value rounded and cut to
// fewer decimals (none, or one), where numbers stated with more decimals
// are stated, in order.
func roundNumbers(numbers map[string][]numberAt) map[string][]numberAt {
	out := map[string][]numberAt{}
	for value, at := range numbers {
		k := strings.IndexByte(value, '.')
		y, err := strconv.ParseFloat(value, 64)
		if k < 0 || err != nil {
			continue
		}
		var keys []string
		for places := 0; places < min(2, len(value)-k-1); places++ {
			scale := math.Pow(10, float64(places))
			for _, r := range []float64{math.Round(y*scale) / scale, math.Trunc(y*scale) / scale} {
				if key := strconv.FormatFloat(r, 'f', -1, 64); !slices.Contains(keys, key) {
					keys = append(keys, key)
				}
			}
		}
		for _, key := range keys {
			out[key] = append(out[key], at...)
		}
	}
	for key := range out {
		slices.SortStableFunc(out[key], func(a, b numberAt) int { return cmp.Compare(a.step, b.step) })
	}
	return out
}

// numberIndex returns where each number's value is stated
// (indexNumbers), made on first use.
func (s *support) numberIndex() map[string][]numberAt {
	if s.numbers == nil {
		s.numbers = indexNumbers(s.features)
	}
	return s.numbers
}

// numberClaim reads a value that is a number alone (a call's argument) as
// the number claim prose would state; false when it is no number.
func numberClaim(v string) (extract.Claim, bool) {
	if _, err := strconv.ParseFloat(v, 64); err != nil {
		return extract.Claim{}, false
	}
	n := extract.Claim{Kind: extract.ClaimNumber, Norm: extract.NormalizeClaim(extract.ClaimNumber, v)}
	return n, n.Norm != ""
}

// numberAt is where a number is stated: a step (-1 for the task) and the
// unit it is stated in.
type numberAt struct {
	step int
	unit string
}

// indexNumbers lists, for each number's value, where the task and the
// steps state it, in order.
func indexNumbers(rf *extract.RunFeatures) map[string][]numberAt {
	out := map[string][]numberAt{}
	add := func(step int, cs []extract.Claim) {
		for _, c := range cs {
			if c.Kind == extract.ClaimNumber {
				v, u := c.Value()
				out[v] = append(out[v], numberAt{step, u})
			}
		}
	}
	add(-1, rf.Question)
	for j := range rf.Steps {
		add(j, rf.Steps[j].Claims)
	}
	return out
}

// holders are the first step holding a value and the first after it that
// another agent wrote or a tool returned; len(steps) where there is none.
type holders struct{ first, other int }

// firstHolding returns the first step that holds v (lower case) as a token
// and that f counts, or len(steps).
func (s *support) firstHolding(v string, f from) int {
	h, ok := s.holders[v]
	if !ok {
		h = s.find(v)
		s.holders[v] = h
	}
	if h.first == len(s.steps) || s.counts(h.first, f) {
		return h.first
	}
	// The first holder is self's own step: the first that counts is the
	// first holder another agent wrote or a tool returned.
	return h.other
}

func (s *support) find(v string) holders {
	n := len(s.steps)
	candidates, whole := s.text.Candidates(v)
	h := holders{first: n, other: n}
	each := func(j int) bool {
		if !whole && !s.text.Holds(j, v) {
			return true
		}
		if h.first == n {
			h.first = j
			return true
		}
		if s.results[j] || s.key(j) != s.key(h.first) {
			h.other = j
			return false
		}
		return true
	}
	if candidates == nil {
		for j := range n {
			if !each(j) {
				break
			}
		}
		return h
	}
	for _, j := range candidates {
		if !each(int(j)) {
			break
		}
	}
	return h
}

// taskGiver is, in a run where an agent serves the task with tool calls,
// the agent that stated the task and never calls a tool itself: a
// conversation's user. What it says about itself (an e-mail, an order
// number) is a given, not a claim to check. In a team that works the task
// out among itself (experts running code), whoever restated the task is a
// member like the others, and "" is returned.
func taskGiver(in *Input) string {
	served := false
	for i := range in.Features.Steps {
		served = served || len(in.Features.Steps[i].Calls) > 0
	}
	if !served {
		return ""
	}
	giver := ""
	for i, st := range in.Run.Steps {
		if in.Features.Steps[i].Has(extract.KindTask) && st.Kind != run.KindSystem {
			giver = run.AgentKey(st.Agent)
			break
		}
	}
	if giver == "" {
		return ""
	}
	for i, st := range in.Run.Steps {
		if run.AgentKey(st.Agent) == giver && in.Features.Steps[i].IssuesCall() {
			return ""
		}
	}
	return giver
}

// meaningful reports whether a value is specific enough that its absence
// earlier says something: not a flag, not a small count, not one letter.
func meaningful(v string) bool {
	if len(v) < 3 {
		return false
	}
	switch strings.ToLower(v) {
	case "true", "false", "null", "none", "yes", "no":
		return false
	}
	return true
}

func unsupportedArguments(in *Input) []Finding {
	sup := in.supportIndex()
	failedAt := failedResults(in)
	scripts := writesOwnScripts(in)
	team := teamNames(in)
	var out []Finding
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		if j := failedAt[i]; j >= 0 && corrected(in, j) >= 0 {
			continue // a made-up value whose call failed and was put right is a detour
		}
		if scripts[i] {
			continue // a script the agent runs by itself: its path and its code are its own check's
		}
		var missing []string
		for _, c := range f.Calls {
			for _, v := range c.Values {
				if c.Command() != "" && (c.InCommand(v) || !c.Consequential() && strings.ContainsAny(v, " \t\n")) {
					// A command, and the words it was given as (["bash",
					// "-lc", "..."]), say what the call does, and the
					// words beside a command that only reads describe it; the
					// text a command that changes something puts in (an
					// edit's code) is still read.
					continue
				}
				if meaningful(v) && !prose(v) && !slices.Contains(missing, v) && !sup.before(v, i, from{}) && !composed(sup, v, i) && !pathHeld(sup, v, i) && !siteHeld(sup, v) && !numberHeld(sup, v, i) && !expressionHeld(in, sup, v, i) && !dateHeld(in, sup, v, i) && !timeHeld(in, v, i) && !phoneHeld(in, v, i) && !airportHeld(sup, v, i) && !groupedHeld(in, v, i) && !currencyHeld(sup, v, i) && !taggedYearHeld(sup, v, i) && !relativeDateHeld(in, v, i) && !spelledApart(sup, v, i) && !idSpelledOtherwise(sup, v, i) && !saidInOtherWords(sup, v, i) && !pathRead(in, c, v, i, failedAt) && !echoed(in, sup, c, v, i, failedAt) && !asked(sup, c, v, i) && !team[run.AgentKey(v)] {
					missing = append(missing, v)
				}
			}
		}
		if used, named, j := takesOtherRecord(in, i); used != "" {
			out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, used),
				Reason: fmt.Sprintf("its call acts on %q, where the other party named %q at step %d, another record of the same listing", used, named, j)})
		}
		if c := f.PassedOver; c != nil && !passedBefore(in, i) {
			out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, c.Picked[0]),
				Reason: fmt.Sprintf("it picks %s of the choices step %d offered, where the task asks for %s, which its agent never picks", quoteList(c.Picked), c.Offer, quoteList(c.Passed))})
		}
		if c, w := rewrites(sup, f, i); c != nil {
			out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, w),
				Reason: fmt.Sprintf("its call gives the task's %q with %q, which no earlier step writes, for one of its words", c.Rewrites.Name, c.Rewrites.Word)})
		}
		if c := requantity(f); c != nil {
			out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, c.Args),
				Reason: fmt.Sprintf("its call enters another number into the page's quantity field than the task's %d %s", c.Requantity.Value, c.Requantity.Noun)})
		}
		if c := f.OverCap; c != nil {
			out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, c.Picked),
				Reason: fmt.Sprintf("it picks %q, which step %d offered at %s, over the task's %q", c.Picked, c.Offer, c.Price, c.Cap)})
		}
		if key, n, j, said := uncountedArgument(in, sup, i); key != "" {
			out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, key),
				Reason: fmt.Sprintf("its call gives %s %s, which no earlier step or the task states, where step %d counted %d %s", key, n, j, said.Value, said.Noun)})
		}
		if len(missing) == 0 {
			continue
		}
		out = append(out, Finding{Step: i, Strength: min(1, 0.4+0.2*float64(len(missing))), Quote: quoteClaim(in, i, missing[0]),
			Reason: fmt.Sprintf("its call uses %s, which no earlier step or the task holds", quoteList(missing))})
	}
	return out
}

// rewrites returns the first call of step i given a name the task
// writes in quotes with one of its words put otherwise (extract's
// Rewrites) by a word that neither the task nor a step before i writes,
// and that word: the call acts on another thing than the task's, of a
// name alike.
func rewrites(sup *support, f *extract.Features, i int) (*extract.Call, string) {
	for k := range f.Calls {
		if r := f.Calls[k].Rewrites; r != nil && !sup.before(r.Word, i, from{}) {
			return &f.Calls[k], r.Word
		}
	}
	return nil, ""
}

// requantity returns the first call of a step that enters another
// number into a page's quantity field than the one count the task
// states (extract's Requantity), nil when none does.
func requantity(f *extract.Features) *extract.Call {
	for k := range f.Calls {
		if f.Calls[k].Requantity != nil {
			return &f.Calls[k]
		}
	}
	return nil
}

// passedBefore reports whether a step before i picked past a choice the
// task names (extract's PassedOver): the later picks only go on from the
// first.
func passedBefore(in *Input, i int) bool {
	return slices.ContainsFunc(in.Features.Steps[:i], func(f extract.Features) bool { return f.PassedOver != nil })
}

// teamNames are the keys of the agents that take decisions in the run. A
// call given one of them (a handoff's target, transfer_to_agent's
// agent_name) names a member of the team, whom the roster in the
// caller's instructions lists though no step of the run shows it: the
// agent then takes its turn under that name.
func teamNames(in *Input) map[string]bool {
	team := map[string]bool{}
	for i, st := range in.Run.Steps {
		if isAgentDecision(in, i) && !in.Features.Steps[i].Has(extract.KindToolResult) {
			if k := run.AgentKey(st.Agent); k != "" {
				team[k] = true
			}
		}
	}
	return team
}

// notNamed returns an id a call of step i is given that no other party
// named, where another party's step j named another id that a tool's
// output before i lists beside it under one field (two policies of a
// customer, two of their orders): the call took up another record than
// the one asked about. used is "" when there is none; a call given the
// id named too is not one.
func notNamed(in *Input, i int) (used, named string, j int) {
	var values []string
	for _, c := range in.Features.Steps[i].Calls {
		values = append(values, c.Values...)
	}
	// Only an id that a listing before i prints beside one of values can
	// be another record of it (listedAlike); with none, no step need be
	// read, and a long run's steps are not each read again for every call.
	beside := listedBeside(in, in.supportIndex(), i, values)
	if len(beside) == 0 {
		return "", "", -1
	}
	me := run.AgentKey(in.Run.Steps[i].Agent)
	sup := in.supportIndex()
	// The ids listed beside each of values before i, made once for the
	// call rather than for each earlier step read (listedAlike).
	alike := map[string][]string{}
	listedWith := func(v, o string) bool {
		l, ok := alike[v]
		if !ok {
			l = listedBeside(in, sup, i, []string{v})
			alike[v] = l
		}
		return slices.Contains(l, o)
	}
	for j := i - 1; j >= 0; j-- {
		f := &in.Features.Steps[j]
		if f.Has(extract.KindToolResult) || len(f.Calls) > 0 || sup.key(j) == me || in.Run.Steps[j].Kind == run.KindSystem {
			continue
		}
		ids := slices.Clone(f.Codes)
		for _, c := range f.Claims {
			if c.Kind == extract.ClaimNumber && extract.IsID(c.Text) {
				ids = append(ids, c.Text)
			}
		}
		// An id that is no code of the step's ("LH 1792", "HKEG34",
		// "#W2041") names the call's own record, or one of the records a
		// listing gave beside it, when the step writes it in any of its
		// spellings ("#W-2041").
		for _, o := range slices.Concat(values, beside) {
			if extract.IsID(o) && !slices.Contains(ids, o) && slices.ContainsFunc(extract.IDSpellings(o), func(s string) bool { return sup.text.Holds(j, s) }) {
				ids = append(ids, o)
			}
		}
		for _, o := range ids {
			if slices.Contains(values, o) {
				return "", "", -1
			}
			for _, v := range values {
				if extract.IsID(v) && v != o && !slices.Contains(ids, v) && listedWith(v, o) {
					return v, o, j
				}
			}
		}
	}
	return "", "", -1
}

// takesOtherRecord returns an id a call of step i acts on that is
// another record of a listing than the one another party's step j named
// (notNamed, recordOfOtherNamed); used is "" when there is none.
func takesOtherRecord(in *Input, i int) (used, named string, j int) {
	if used, named, j = notNamed(in, i); used != "" {
		return used, named, j
	}
	return recordOfOtherNamed(in, i)
}

// recordOfOtherNamed returns an id a consequential call of step i acts
// on, where the one record of a tool's listing before i that holds it
// holds none of the ids another party's step j before i names, and
// another record of the listing holds one of them (named): the listing
// tells its records apart by more than one id (a charge's own and its
// order's), and the party named the other record by another of them. used
// is "" when there is none.
func recordOfOtherNamed(in *Input, i int) (used, named string, j int) {
	values := actedValues(in, i)
	if len(values) == 0 {
		return "", "", -1
	}
	sup := in.supportIndex()
	me := sup.key(i)
	for l := range i {
		recs := in.Features.Steps[l].Records
		for _, v := range values {
			at := onlyRecord(recs, func(r extract.Record) bool { return slices.Contains(r.IDs, v) })
			if at < 0 {
				continue
			}
			for k := range i {
				if k == l || sup.key(k) == me || in.Features.Steps[k].Has(extract.KindToolResult) || in.Run.Steps[k].Kind == run.KindSystem {
					continue
				}
				// A party writes an id as it pleases ("UA 2275" for the
				// listing's "UA2275"): any of its spellings names it.
				names := func(id string) bool {
					return slices.ContainsFunc(extract.IDSpellings(id), func(s string) bool { return sup.text.Holds(k, s) })
				}
				if slices.ContainsFunc(recs[at].IDs, names) {
					continue
				}
				for m, o := range recs {
					if m == at {
						continue
					}
					if id := slices.IndexFunc(o.IDs, func(id string) bool { return !slices.Contains(recs[at].IDs, id) && names(id) }); id >= 0 {
						return v, o.IDs[id], k
					}
				}
			}
		}
	}
	return "", "", -1
}

// listedBeside returns the ids a tool's output before step i lists
// under the field of one of values, other than values: the other
// records of the listing a call's id was taken from.
func listedBeside(in *Input, sup *support, i int, values []string) []string {
	var listed []int32
	for _, v := range values {
		for _, j := range sup.listing(in, v) {
			if int(j) < i {
				listed = append(listed, j)
			}
		}
	}
	slices.Sort(listed)
	var out []string
	for _, j := range slices.Compact(listed) {
		fields := in.Features.Steps[j].IDFields
		for _, f := range fields {
			if !slices.Contains(values, f.Value) {
				continue
			}
			for _, g := range fields {
				if g.Key == f.Key && !slices.Contains(values, g.Value) && !slices.Contains(out, g.Value) {
					out = append(out, g.Value)
				}
			}
		}
	}
	return out
}

// uncountedArgument returns a count a consequential call at step i gives
// under a key ("total_baggages": 4) that the task and every earlier step
// leave unstated, where an earlier step counted the thing the key names
// ("2 checked bags"): the number asked for or offered was another. It
// returns the key, the count, and the step and count that said otherwise;
// key is "" when there is none. A zero is left out: it is what a call
// writes for what no one asked for.
func uncountedArgument(in *Input, sup *support, i int) (key, n string, j int, said extract.Count) {
	for _, c := range in.Features.Steps[i].Calls {
		if !c.Consequential() {
			continue
		}
		for _, cf := range c.Counts {
			words := extract.NameWords(cf.Key)
			if cf.Value == "0" || heldAsCount(in, sup, cf.Value, i, words) || countedBefore(in, cf.Value, i, words) {
				continue
			}
			for j := i - 1; j >= 0; j-- {
				for _, cnt := range in.Features.Steps[j].Counts {
					if slices.ContainsFunc(words, func(w string) bool { return countedAs(w, cnt.Noun) }) {
						return cf.Key, cf.Value, j, cnt
					}
				}
			}
		}
	}
	return "", "", -1, extract.Count{}
}

// countedBefore reports whether a step before i counts the thing one of
// words names with v, however it writes the number ("one night" for a
// call's 1): the count a call is given is then the one stated.
func countedBefore(in *Input, v string, i int, words []string) bool {
	n, err := strconv.Atoi(v)
	if err != nil {
		return false
	}
	for j := range i {
		for _, c := range in.Features.Steps[j].Counts {
			if c.Value == n && slices.ContainsFunc(words, func(w string) bool { return countedAs(w, c.Noun) }) {
				return true
			}
		}
	}
	return false
}

// heldAsCount reports whether count v, given under a key of words, is
// written in the task or a step before i other than as a count of
// another thing: a step that states v only of something else ("we're 2
// travellers" beside "total_baggages": 2) does not hold the count of the
// thing the key names. The task is read as the first step that writes it
// whole reads; where no step does, as holding v wherever it writes it.
func heldAsCount(in *Input, sup *support, v string, i int, words []string) bool {
	n, err := strconv.Atoi(v)
	if err != nil {
		return sup.before(v, i, from{})
	}
	apart := func(j int) bool { // step j states v of another thing only
		other := false
		for _, c := range in.Features.Steps[j].Counts {
			if c.Value != n {
				continue
			}
			if slices.ContainsFunc(words, func(w string) bool { return countedAs(w, c.Noun) }) {
				return false
			}
			other = true
		}
		return other
	}
	if sup.text.Holds(-1, v) {
		k := -1 // the step that writes the task, where one does
		for j := range in.Run.Steps {
			if from, _ := sup.text.Restates(j); from >= 0 {
				k = j
				break
			}
		}
		if k < 0 || !apart(k) {
			return true
		}
	}
	for j := range sup.mayHold(strings.ToLower(v), i) {
		if sup.text.Holds(j, v) && !apart(j) {
			return true
		}
	}
	return false
}

// countedAs reports whether a word of a key and a noun a step counts are
// one thing's names: they begin alike, but for the last letter of the
// shorter ("bag" and "baggages", "night" and "nights").
func countedAs(word, noun string) bool {
	n := 0
	for n < len(word) && n < len(noun) && word[n] == noun[n] {
		n++
	}
	return n >= 3 && n >= min(len(word), len(noun))-1
}

// UnsupportedArguments is the unsupported_arguments analyzer.
var UnsupportedArguments = &Analyzer{Name: "unsupported_arguments", Run: unsupportedArguments, Requires: []Fact{FactToolCalls, FactKinds, FactSignals, FactTrials, FactClaims},
	Doc: "a tool call whose argument values appear nowhere earlier in the run: an id, amount or name the caller made up; or, of the choices a tool offered, a pick past the one the task names, or at a price over the task's most"}

// spelledApart reports whether v is a value of words joined by
// underscores (one_way, round_trip, business_class: a tool's enum) that
// the task or a step before i writes with hyphens or spaces ("a one-way
// flight"): the choice a person said, in the tool's spelling. A value
// with digits (credit_card_7720) is an id, and is looked for whole.
func spelledApart(sup *support, v string, i int) bool {
	if !strings.Contains(v, "_") || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsLetter(r) && r != '_' }) {
		return false
	}
	return sup.before(strings.ReplaceAll(v, "_", "-"), i, from{}) || sup.before(strings.ReplaceAll(v, "_", " "), i, from{})
}

// idSpelledOtherwise reports whether v is an id that the task or a step
// before i writes in another of its spellings (extract.IDSpellings: "LH
// 401" of "LH401", "#W-2041" of "#W2041"): the id a person gave, as the
// tool writes it.
func idSpelledOtherwise(sup *support, v string, i int) bool {
	spellings := extract.IDSpellings(v)
	return len(spellings) > 1 && slices.ContainsFunc(spellings, func(s string) bool { return sup.before(s, i, from{}) })
}

// saidInOtherWords reports whether v is a tool's choice of a few lower
// case words ("no longer needed", "ordered_by_mistake") each of whose
// content words the task or a step before i writes in some inflected
// form ("I won't be needing it"): the choice a person made, in the
// tool's words. The words that only negate or grade ("no", "longer",
// "anymore") are left out, as a person says them in other ways.
func saidInOtherWords(sup *support, v string, i int) bool {
	words := strings.Fields(strings.ReplaceAll(v, "_", " "))
	if len(words) < 2 || len(words) > 4 || strings.ContainsFunc(v, func(r rune) bool { return !unicode.IsLower(r) && r != ' ' && r != '_' }) {
		return false
	}
	content := 0
	for _, w := range words {
		if len(w) < 3 || gradeWords[w] {
			continue
		}
		content++
		if !slices.ContainsFunc(inflections(w), func(f string) bool { return sup.before(f, i, from{}) }) {
			return false
		}
	}
	return content > 0
}

// gradeWords are the words of a choice that negate, grade or join its
// content words.
var gradeWords = map[string]bool{"not": true, "longer": true, "anymore": true, "more": true, "any": true, "the": true, "and": true, "for": true, "with": true, "from": true}

// inflections returns the forms of word w that inflect its stem
// ("needed": need, needs, needed, needing): the stem's grammatical
// numbers (numberForms) and its past and -ing forms.
func inflections(w string) []string {
	stem := w
	for _, end := range []string{"ing", "ed", "es", "s"} {
		if len(w) > len(end)+3 && strings.HasSuffix(w, end) {
			stem = w[:len(w)-len(end)]
			break
		}
	}
	out := append(numberForms(stem), w, stem+"ed", stem+"ing")
	if strings.HasSuffix(stem, "e") {
		out = append(out, stem+"d", stem[:len(stem)-1]+"ing")
	}
	return out
}

// dateHeld reports whether v is a month and its year the task or a step
// before i names in any form ("2026-06" for "June 2026"), or a date
// written in full (2024-05-14) whose
// month and day a step before i names without a year ("May 14", extract's
// MonthDays) and whose year, or the year before it, the task, the
// system instructions (which often give today's date) or a step before i
// writes, or that the task or a step before i writes otherwise with its
// year ("12 April 1986"): the date a person gave, written out as a call
// takes it, not one made up. With no year in view (yearInView), the
// month and day alone hold it.
func dateHeld(in *Input, sup *support, v string, i int) bool {
	if month, ok := extract.OnlyDate(v); ok && len(month) == len("2006-01") {
		// A month and its year ("2026-06"), held when the task or a
		// step before i names it in any of the ways a month is written
		// ("June 2026", "06/2026").
		return normHeld(in, extract.ClaimDate, month, i)
	}
	if len(v) != len("2006-01-02") || v[4] != '-' || v[7] != '-' || strings.Trim(v[:4]+v[5:7]+v[8:], "0123456789") != "" {
		return false
	}
	// A day given without a year is the next one to come: in a run
	// whose date is late in one year, a day early in the year is in the
	// next ("January 3" on 2026-11-28 is 2027-01-03).
	y, err := strconv.Atoi(v[:4])
	if err != nil {
		return false
	}
	years := []string{v[:4], strconv.Itoa(y - 1)}
	// The date written in words with its year ("12 April 1986"), in the
	// task or a step before i, is v as a date claim reads it.
	same := func(c extract.Claim) bool { return c.Kind == extract.ClaimDate && c.Norm == v }
	if slices.ContainsFunc(in.Features.Question, same) {
		return true
	}
	for j := range i {
		if slices.ContainsFunc(in.Features.Steps[j].Claims, same) {
			return true
		}
		if slices.Contains(in.Features.Steps[j].MonthDays, v[5:]) {
			// With no year in view at all, the call's year is the one
			// the person meant: nothing says otherwise.
			return slices.ContainsFunc(years, func(y string) bool {
				return sup.before(y, i, from{}) || sup.text.InstructionsHold(y)
			}) || !yearInView(in, i)
		}
	}
	return false
}

// yearInView reports whether the task, the system instructions or a step
// before i states a year: a date with its year, or a number of a year's
// shape (1900 to 2099).
func yearInView(in *Input, i int) bool {
	states := func(c extract.Claim) bool {
		switch c.Kind {
		case extract.ClaimDate:
			return len(c.Norm) >= 4 && strings.Trim(c.Norm[:4], "0123456789") == ""
		case extract.ClaimNumber:
			return len(c.Norm) == 4 && (strings.HasPrefix(c.Norm, "19") || strings.HasPrefix(c.Norm, "20")) && strings.Trim(c.Norm, "0123456789") == ""
		}
		return false
	}
	if slices.ContainsFunc(in.Features.Question, states) || slices.ContainsFunc(in.Features.Instructions, states) {
		return true
	}
	for j := range i {
		if slices.ContainsFunc(in.Features.Steps[j].Claims, states) {
			return true
		}
	}
	return false
}

// normHeld reports whether the task or a step before i writes a claim of
// kind k whose normal form is norm, in whatever way it writes it.
func normHeld(in *Input, k extract.ClaimKind, norm string, i int) bool {
	same := func(c extract.Claim) bool { return c.Kind == k && c.Norm == norm }
	if slices.ContainsFunc(in.Features.Question, same) {
		return true
	}
	for j := range i {
		if slices.ContainsFunc(in.Features.Steps[j].Claims, same) {
			return true
		}
	}
	return false
}

// timeHeld reports whether v is a time of day and nothing else ("19:30",
// "7:30 PM") that the task or a step before i writes otherwise ("7:30 in
// the evening", "half past seven pm"): the time a person gave, written as
// a call takes it, not one made up. The times are compared by their
// normal forms, so 07:30 is not 19:30's.
func timeHeld(in *Input, v string, i int) bool {
	t, ok := extract.OnlyTime(v)
	return ok && normHeld(in, extract.ClaimTime, t, i)
}

// airportHeld reports whether v is an airport's IATA code (extract's
// AirportCities) of a city the task or a step before i names: the
// call names the city's airport, as a booking tool asks it to.
func airportHeld(sup *support, v string, i int) bool {
	for _, c := range extract.AirportCities(v) {
		if sup.before(c, i, from{}) {
			return true
		}
	}
	return false
}

// phoneHeld reports whether v is a number to dial that a step before i
// writes with other punctuation, or none ("(415) 555-0132" for
// "4155550132"; extract's Phones), or with its country's code before
// it, or the trunk 0 its country dials it with (extract.SamePhone): the
// number a person or a page gave, as the call takes it.
func phoneHeld(in *Input, v string, i int) bool {
	d := extract.PhoneDigits(v)
	if d == "" {
		return false
	}
	same := func(p string) bool { return extract.SamePhone(d, p) }
	for j := range i {
		if slices.ContainsFunc(in.Features.Steps[j].Phones, same) {
			return true
		}
	}
	return false
}

// groupedHeld reports whether v is an id that a step before i writes in
// groups spaced or hyphenated apart ("W 123 4567" for "W1234567";
// extract's Grouped): the id a person read out, as the call writes it.
func groupedHeld(in *Input, v string, i int) bool {
	w := strings.ToLower(v)
	for j := range i {
		if slices.Contains(in.Features.Steps[j].Grouped, w) {
			return true
		}
	}
	return false
}

// currencyHeld reports whether v is a currency's code ("EUR") whose
// sign or name ("€", "euros"; extract.CurrencyWords) the task or a step
// before i writes: the currency a person asked in or a page priced in,
// as a tool takes it.
func currencyHeld(sup *support, v string, i int) bool {
	return slices.ContainsFunc(extract.CurrencyWords(v), func(w string) bool {
		if !extract.CurrencySign(w) {
			return sup.before(w, i, from{})
		}
		for j := -1; j < min(i, len(sup.steps)); j++ {
			if sup.text.HoldsSign(j, w) {
				return true
			}
		}
		return false
	})
}

// taggedYearHeld reports whether v is a year that the task or a step
// before i writes tagged by a few letters ("FY2024" for 2024, Writing's
// TagsYear): a fiscal or academic year a person named, which a call's
// field or a statement writes alone, not a value made up.
func taggedYearHeld(sup *support, v string, i int) bool {
	if !isYear(v) {
		return false
	}
	if sup.text.TagsYear(-1, v) {
		return true
	}
	for _, j := range sup.text.TaggedYearSteps(v) {
		if int(j) >= min(i, len(sup.steps)) {
			break
		}
		if sup.counts(int(j), from{}) && sup.text.TagsYear(int(j), v) {
			return true
		}
	}
	return false
}

// relativeDateHeld reports whether v is a date written in full that
// falls within two weeks of a date a step before i or the system
// instructions state (today's, as a system prompt gives it, whether a
// step or kept apart from the steps), where a step before i names a day
// by where it falls from today ("next Monday", "tomorrow", "yesterday",
// "last Friday"): the date worked out from what a person said, not one
// made up; so is any date the call gives such a day when no date at all
// is stated before it.
func relativeDateHeld(in *Input, v string, i int) bool {
	d, err := time.Parse(time.DateOnly, v)
	if err != nil {
		return false
	}
	named := false // a person named a day from today (a system prompt's "Today is" names none)
	pinned := true // every such day is a day of the week
	var days []extract.Weekday
	for j := range i {
		if in.Features.Steps[j].RelativeDay && in.Run.Steps[j].Kind != run.KindSystem {
			named = true
			pinned = pinned && len(in.Features.Steps[j].Weekdays) > 0
			days = append(days, in.Features.Steps[j].Weekdays...)
		}
	}
	if !named {
		return false
	}
	if pinned {
		if held, known := weekdayHeld(in, d, days, i); known {
			return held
		}
	}
	soon := func(c extract.Claim) bool {
		today, err := time.Parse(time.DateOnly, c.Norm)
		return c.Kind == extract.ClaimDate && err == nil && d.Sub(today).Abs() <= 14*24*time.Hour
	}
	if slices.ContainsFunc(in.Features.Instructions, soon) {
		return true
	}
	// With no date stated before the call, the caller worked the day out
	// from its own clock: its date is the only one the run has.
	isDate := func(c extract.Claim) bool { return c.Kind == extract.ClaimDate }
	stated := slices.ContainsFunc(in.Features.Instructions, isDate)
	for j := range i {
		if slices.ContainsFunc(in.Features.Steps[j].Claims, soon) {
			return true
		}
		stated = stated || slices.ContainsFunc(in.Features.Steps[j].Claims, isDate)
	}
	return !stated
}

// weekdayHeld reports whether d is a date that one of the days of the
// week a person named (days) pins from a today the system instructions
// state, and whether any today is stated there at all (known). From a
// today, "on Friday" or "this Friday" is the coming Friday (today, or a
// week on, when today is a Friday), "next Friday" the coming one or the
// one a week after it, as people read it either way, and "last Friday"
// the one before today or a week before that. Another date is not the
// day the person named, however near it falls.
func weekdayHeld(in *Input, d time.Time, days []extract.Weekday, i int) (held, known bool) {
	var todays []time.Time
	add := func(c extract.Claim) {
		if t, err := time.Parse(time.DateOnly, c.Norm); c.Kind == extract.ClaimDate && err == nil {
			todays = append(todays, t)
		}
	}
	for _, c := range in.Features.Instructions {
		add(c)
	}
	for j := range min(i, len(in.Run.Steps)) {
		if in.Run.Steps[j].Kind == run.KindSystem {
			for _, c := range in.Features.Steps[j].Claims {
				add(c)
			}
		}
	}
	for _, today := range todays {
		for _, w := range days {
			for _, off := range weekdayOffsets(int(today.Weekday()), w) {
				if today.AddDate(0, 0, off).Equal(d) {
					return true, true
				}
			}
		}
	}
	return false, len(todays) > 0
}

// weekdayOffsets are the days from a today that falls on weekday today to
// the dates a named day of the week may be (weekdayHeld).
func weekdayOffsets(today int, w extract.Weekday) []int {
	ahead := (w.Day - today + 7) % 7
	back := (today - w.Day + 7) % 7
	if back == 0 {
		back = 7
	}
	switch w.Shift {
	case "next":
		if ahead == 0 {
			return []int{7, 14}
		}
		return []int{ahead, ahead + 7}
	case "last":
		return []int{-back, -back - 7}
	}
	if ahead == 0 {
		return []int{0, 7}
	}
	return []int{ahead}
}

// composed reports whether a value of a few words takes at least half of
// them from the task or the steps before i: a search query or a
// description the caller put together from what it read ("WTO
// Director-General" for a task about the World Trade Organization's
// Director-General), not an id or a name it made up, whose words would
// all be new. The comma that ends a word before the next ("Tokyo, Japan":
// a place and the country it is in) is no part of it, and a word may be
// written in the other grammatical number than the text it was taken
// from (numberForms).
func composed(sup *support, v string, i int) bool {
	words := strings.Fields(v)
	for k, w := range words {
		if t := strings.TrimRight(w, ",;"); t != "" {
			words[k] = t
		}
	}
	if len(words) < 2 {
		return false
	}
	held := 0
	heldAt := make([]bool, len(words))
	for k, w := range words {
		if meaningful(w) && slices.ContainsFunc(numberForms(w), func(f string) bool { return sup.before(f, i, from{}) }) {
			held++
			heldAt[k] = true
		}
	}
	if 2*held < len(words) {
		return false
	}
	for k, w := range words {
		if !heldAt[k] && (k > 0 && heldAt[k-1] && misspelt(sup, words[k-1], w, 1, i) || k+1 < len(words) && heldAt[k+1] && misspelt(sup, words[k+1], w, -1, i)) {
			return false
		}
	}
	return true
}

// numberForms returns word w and its other grammatical number: a noun
// or a unit written in the singular where the task writes the plural
// ("2.8 cup" for its "cups", "1 mile" for "miles") is the same word.
func numberForms(w string) []string {
	out := []string{w}
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "es"):
		out = append(out, w[:len(w)-1], w[:len(w)-2])
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		out = append(out, w[:len(w)-1])
	default:
		out = append(out, w+"s", w+"es")
	}
	return out
}

// misspelt reports whether word w, written next to the held word beside
// (after it for side 1, before it for -1), is one edit away from a word
// the task or a step before i writes there: a copy with a letter
// dropped, added or changed ("Yusuf Rosi" for "Yusuf Rossi"). A common
// noun written in lower case in the singular or the plural of the word
// there ("Ostra tunnel length" for "the Ostra tunnels") is the same word
// inflected, as a query writes it, not a copy gone wrong.
func misspelt(sup *support, beside, w string, side, i int) bool {
	if len(w) < 4 {
		return false
	}
	common := unicode.IsLower([]rune(w)[0])
	w = strings.ToLower(w)
	for x, at := range sup.text.NextTo(strings.ToLower(beside), side) {
		if at < i && oneEdit(x, w) && !(common && (slices.Contains(numberForms(w), x) || slices.Contains(numberForms(x), w))) {
			return true
		}
	}
	return false
}

// oneEdit reports whether a and b differ by exactly one letter dropped,
// added or changed.
func oneEdit(a, b string) bool {
	if a == b || len(a)-len(b) > 1 || len(b)-len(a) > 1 {
		return false
	}
	if len(a) < len(b) {
		a, b = b, a
	}
	k := 0
	for k < len(b) && a[k] == b[k] {
		k++
	}
	if len(a) == len(b) {
		return a[k+1:] == b[k+1:]
	}
	return a[k+1:] == b[k:]
}

// numberHeld reports whether a value that is a number alone is one the
// task or a step before i states, written another way: a call's JSON
// writes 42.5 and 69004 where the prose it was read from says "42.50 EUR"
// and "69,004".
//
// So too a number written without the scale a step before i states it
// in: code computes with 2310 and 543 where the report says "$2,310
// million" and "$543 million".
func numberHeld(sup *support, v string, i int) bool {
	n, ok := numberClaim(v)
	if !ok {
		return false
	}
	if sup.numberBefore(n, i, from{}) {
		return true
	}
	x, err := strconv.ParseFloat(v, 64)
	if err != nil || x == 0 {
		return false
	}
	for _, scale := range []float64{1e3, 1e6, 1e9} {
		if m, ok := numberClaim(strconv.FormatFloat(x*scale, 'f', -1, 64)); ok && sup.numberBefore(m, i, from{}) {
			return true
		}
	}
	return false
}

// expressionHeld reports whether v is arithmetic of numbers alone
// ("240 * 1.08875", "200 - 150.5") each of which the task or a step
// before i states (as a number, or as a date's year), a rate stated in percent counting as its fraction or
// as one plus or minus it (8.875% as 0.08875, or 1.08875 to add it): a
// calculation the caller made from what it read, as a calculator's
// expression or a tool's amount writes it, not a value it made up. So too
// the same arithmetic inside calls of a language's functions, as a code
// tool is given it ("print(1889 - 1884)", "round((4820-4221)/4221*100,
// 1)"), where a digit or a power of ten (the places a rounding keeps, a
// percentage's hundred) is the code's own constant.
func expressionHeld(in *Input, sup *support, v string, i int) bool {
	e, code := withoutFuncNames(v)
	if strings.Trim(e, "0123456789.,+-*/×() ") != "" || !strings.ContainsAny(strings.TrimLeft(e, " -"), "+-*/×") {
		return false
	}
	terms := strings.FieldsFunc(e, func(r rune) bool { return strings.ContainsRune("+-*/×() ", r) })
	return len(terms) > 1 && !slices.ContainsFunc(terms, func(t string) bool {
		t = strings.ReplaceAll(t, ",", "")
		return !numberHeld(sup, t, i) && !sup.before(t, i, from{}) && !rateHeld(in, t, i) && !(code && constant(t))
	})
}

// withoutFuncNames returns v with the name of every function it calls
// left out ("print(1889 - 1884)" gives "(1889 - 1884)"), and whether it
// called one: a name is a letter or an underscore, then letters, digits,
// underscores and dots, right before "(". A name not before "(" is left in.
func withoutFuncNames(v string) (string, bool) {
	var b strings.Builder
	called := false
	for k := 0; k < len(v); {
		c := v[k]
		if c != '_' && !('a' <= c|0x20 && c|0x20 <= 'z') || k > 0 && isNameByte(v[k-1]) {
			b.WriteByte(c)
			k++
			continue
		}
		end := k
		for end < len(v) && isNameByte(v[end]) {
			end++
		}
		if end < len(v) && v[end] == '(' {
			called = true
		} else {
			b.WriteString(v[k:end])
		}
		k = end
	}
	return b.String(), called
}

// isNameByte reports whether c may stand in a called name after its
// first letter (withoutFuncNames): a letter, a digit, '_' or '.'.
func isNameByte(c byte) bool {
	return c == '_' || c == '.' || '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'z'
}

// constant reports whether a number written in code is a digit or a power
// of ten: a rounding's places, a percentage's hundred, not a figure read.
func constant(t string) bool {
	if len(t) == 1 {
		return '0' <= t[0] && t[0] <= '9'
	}
	return t[0] == '1' && strings.Trim(t[1:], "0") == ""
}

// rateHeld reports whether the number n is the fraction of a
// percentage the task or a step before i states, or one plus or minus
// it: the factor that takes the rate, adds it or takes it off.
func rateHeld(in *Input, n string, i int) bool {
	x, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return false
	}
	is := func(c extract.Claim) bool {
		f, ok := c.Fraction()
		if !ok {
			return false
		}
		r, err := strconv.ParseFloat(f.Norm, 64)
		return err == nil && slices.ContainsFunc([]float64{r, 1 + r, 1 - r}, func(y float64) bool { return math.Abs(x-y) < 1e-9 })
	}
	if slices.ContainsFunc(in.Features.Question, is) {
		return true
	}
	for j := range min(i, len(in.Features.Steps)) {
		if slices.ContainsFunc(in.Features.Steps[j].Claims, is) {
			return true
		}
	}
	return false
}

// pathHeld reports whether a value is a file's path that the task or a
// step before i names from another directory ("/repo/src/app.py" for the
// "./src/app.py" a listing printed).
func pathHeld(sup *support, v string, i int) bool {
	if !strings.Contains(v, "/") || strings.Contains(v, "://") {
		return false
	}
	n := extract.PathNorm(v)
	return n != v && strings.Contains(n, "/") && sup.before(n, i, from{})
}

// siteHeld reports whether v is a link to a page of a site the task
// names (its host), whose path and query write no word with a figure the
// task does not write too: an agent acting on a site finds its pages by
// their paths (an admin's grid of orders, a search's results for the
// task's words). A page of a record (an order's number, a paper's id) is
// found so only when the task names it.
func siteHeld(sup *support, v string) bool {
	u, err := url.Parse(v)
	if err != nil || u.Host == "" || !strings.Contains(v, "://") || !sup.text.Holds(-1, strings.ToLower(u.Host)) {
		return false
	}
	words := strings.FieldsFunc(u.Path+" "+u.RawQuery, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	return !slices.ContainsFunc(words, func(w string) bool {
		return strings.ContainsFunc(w, unicode.IsDigit) && !sup.text.Holds(-1, strings.ToLower(w))
	})
}

// pathRead reports whether v is a file's path that call c of step i only
// reads, and the call's result came back without failing: the reader
// found the file, so the path was not made up whoever named it first (a
// coding agent opens the module an issue's traceback implies). A path
// that does not exist fails the read.
func pathRead(in *Input, c extract.Call, v string, i int, failedAt []int) bool {
	if c.Consequential() || failedAt[i] >= 0 || !filePath(v) {
		return false
	}
	for j := i + 1; j < len(in.Features.Steps); j++ {
		if in.Features.Steps[j].Has(extract.KindToolResult) && callerOf(in, j) == i {
			return true
		}
	}
	return false
}

// echoed reports whether v is a record's key (recordKey) that a call c
// of step i that only reads was given, and the call's own result, which
// came back without failing, writes it again: the tool found a record
// under it (a stock-keeping code the caller built from a product's name
// and size), so it was not made up. A lookup of a made-up key fails or
// finds nothing, though it may write the key back as it says so
// (extract's FoundNothing: {"query": {"sku": …}, "total": 0}). A call that changes something may echo whatever it was
// given, and a search echoes the date or the figure it was asked for
// whether or not anyone gave it.
func echoed(in *Input, sup *support, c extract.Call, v string, i int, failedAt []int) bool {
	if c.Consequential() || failedAt[i] >= 0 || len(in.Features.Steps[i].Calls) != 1 || !recordKey(v) {
		return false
	}
	for j := i + 1; j < len(in.Features.Steps); j++ {
		if in.Features.Steps[j].Has(extract.KindToolResult) && callerOf(in, j) == i {
			return !in.Features.Steps[j].FoundNothing && sup.text.Holds(j, strings.ToLower(v))
		}
	}
	return false
}

// recordKey reports whether v is written as a record's key: letters and
// digits, both, with hyphens or underscores between ("TR2-43",
// "ORD_2291"); not a date, a figure, a path or a web address.
func recordKey(v string) bool {
	letter, digit := false, false
	for _, r := range v {
		switch {
		case unicode.IsLetter(r):
			letter = true
		case unicode.IsDigit(r):
			digit = true
		case r != '-' && r != '_':
			return false
		}
	}
	return letter && digit
}

// asked reports whether v is a query of three or more words that a call
// which only reads was given, holding a word of the task or of a step
// before i: a search for what the task asks, in the caller's words
// ("Danube length km" for "How long is the Danube in kilometres?"). A
// made-up id or name holds none; a name copied with a word misspelt, or
// an id no step gave written beside the task's words, is still found
// out.
func asked(sup *support, c extract.Call, v string, i int) bool {
	words := strings.Fields(v)
	if c.Consequential() || len(words) < 3 {
		return false
	}
	held := false
	for k, w := range words {
		if !meaningful(w) {
			continue
		}
		if !sup.before(w, i, from{}) {
			if coded(w) {
				return false // an id or a code no step gave, put beside the task's words
			}
			continue
		}
		held = true
		if k+1 < len(words) && !sup.before(words[k+1], i, from{}) && misspelt(sup, w, words[k+1], 1, i) ||
			k > 0 && !sup.before(words[k-1], i, from{}) && misspelt(sup, w, words[k-1], -1, i) {
			return false
		}
	}
	return held
}

// coded reports whether a word is written as an id is: four digits or
// more after a letter ("W4817420", "user_4821", "ORD-2024-0042"), or six
// digits or more ("4817420"). A year, a decade ("1990s") or a figure with
// its unit is not.
func coded(w string) bool {
	digits, lettered := 0, false
	for _, r := range w {
		switch {
		case unicode.IsLetter(r) && digits == 0:
			lettered = true
		case unicode.IsDigit(r):
			digits++
		}
	}
	return lettered && digits >= 4 || digits >= 6
}

// filePath reports whether v is written as a file's path: directories and
// a file name with an extension ("/repo/pager/bounds.py"), not a URL or a
// pattern searched for ("/title/").
func filePath(v string) bool {
	slash := strings.LastIndexByte(v, '/')
	if slash < 0 || strings.Contains(v, "://") || strings.ContainsAny(v, " \t\n") {
		return false
	}
	name := v[slash+1:]
	dot := strings.LastIndexByte(name, '.')
	return dot > 0 && dot < len(name)-1
}

func quoteList(vs []string) string {
	if len(vs) > 3 {
		vs = append(vs[:3:3], "…")
	}
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(q, ", ")
}

// failedResults returns, for each step, the first later tool result that
// answers for its call and shows it failed, or -1. Step i's call was put
// right (CHIEF deviation-aware) when that result was corrected. One pass
// over the run: looking forward from every step would cost a pass per
// step.
func failedResults(in *Input) []int {
	steps := in.Features.Steps
	out := make([]int, len(steps))
	for i := range out {
		out[i] = -1
	}
	for j := range steps {
		f := &steps[j]
		if !f.Has(extract.KindToolResult) {
			continue
		}
		i := callerOf(in, j)
		if i < 0 || i >= j || out[i] >= 0 {
			continue
		}
		if failedOutput(f) {
			out[i] = j
		}
	}
	return out
}

// prose reports whether an argument is running text (a request handed to
// another agent, a query in words) rather than a value: text is
// rephrased, so its absence earlier says nothing.
func prose(v string) bool { return len(strings.Fields(v)) > 3 }

// answerClaim reports whether a claim is a value an answer can get wrong:
// a number, a date or time, or an identifier-like quoted string.
func answerClaim(c extract.Claim) bool {
	switch c.Kind {
	case extract.ClaimNumber, extract.ClaimDate, extract.ClaimTime:
		return true
	case extract.ClaimQuoted:
		return strings.ContainsAny(c.Text, "0123456789")
	}
	return false
}

func unsupportedAnswer(in *Input) []Finding {
	sup := in.supportIndex()
	var listings []int // the tool results that list records
	for j := range in.Features.Steps {
		if len(in.Features.Steps[j].Records) > 0 {
			listings = append(listings, j)
		}
	}
	caller := map[string]bool{} // agents that have called a tool so far
	sawResult := false
	var failedAt []int // read on first need
	var out []Finding
	for i, st := range in.Run.Steps {
		f := &in.Features.Steps[i]
		key := run.AgentKey(st.Agent)
		switch {
		case f.Has(extract.KindToolResult):
			sawResult = true
			continue
		case len(f.Calls) > 0 || f.IssuesCall():
			caller[key] = true
			if !handsInAnswer(in, i) {
				// A step that says the checks passed as it makes its next
				// call (a coding agent's "the suite passes, submitting")
				// reports them as a reply would.
				if j := passedOverFailure(in, i); j >= 0 && isAgentDecision(in, i) {
					out = append(out, passedOverFinding(in, i, j))
				}
				continue
			}
		}
		if !isAgentDecision(in, i) {
			continue
		}
		if j := passedOverFailure(in, i); j >= 0 {
			out = append(out, passedOverFinding(in, i, j))
			continue
		}
		if !sawResult {
			continue
		}
		if j, k := toldFailedChange(in, i); j >= 0 {
			out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteAt(in, i, 0, 0),
				Reason: fmt.Sprintf("it tells of the change its call at step %d would have made as made, though the output at step %d reports that call failed and no call since made it", j, k)})
			continue
		}
		if !caller[key] {
			// An agent of a team that calls no tool itself (a writer)
			// and tells a figure another agent gave it with its digits
			// slipped tells a value no one gave.
			if slip, given, j := slippedFigure(in, sup, i, key); slip != "" {
				out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, slip),
					Reason: fmt.Sprintf("it tells %s, which no tool result or earlier message holds, where step %d gave %s", slip, j, given)})
			}
			continue
		}
		// Support is what others said and what tools returned: an agent's
		// own earlier words are not a source. The system instructions are
		// another's words wherever the log keeps them: a transcript's
		// system step, or a trace's instructions apart from its steps.
		others := from{others: true, self: key}
		var missing []string
		for _, c := range f.Claims {
			if answerClaim(c) && meaningfulClaim(c) && !slices.Contains(missing, c.Text) && !sup.before(c.Text, i, others) && !sup.before(c.Norm, i, others) && !sup.text.InstructionsHold(c.Text) && !sup.numberBefore(c, i, others) && !sup.idTailBefore(c, i, others) && !sup.roundedBefore(c, i, others) && !sup.convertedBefore(c, i, others) && !countedOut(in, sup, c, i, others) {
				missing = append(missing, c.Text)
			}
		}
		// A reference code (a ticket's, an asset's) is the system's that
		// made it: one that no tool printed and no one else wrote was made
		// up.
		for _, code := range f.Codes {
			if !slices.Contains(missing, code) && !sup.codeBefore(code, i, others) {
				missing = append(missing, code)
			}
		}
		if verb, r := undoneAction(in, sup, i, key); verb != "" {
			out = append(out, Finding{Step: i, Strength: 0.7, Quote: quoteClaim(in, i, verb),
				Reason: fmt.Sprintf("it tells the other party it is %s, which the request at step %d asked for and no call since carried out", verb, r)})
			continue
		}
		if failedAt == nil {
			failedAt = failedResults(in)
		}
		if j := hiddenFailure(in, failedAt, i); j >= 0 {
			out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteAt(in, i, 0, 0),
				Reason: fmt.Sprintf("it tells the other party a result, though the output of its last call, at step %d, failed, and says nothing of the failure", j)})
			continue
		}
		if len(missing) == 0 {
			if st := f.Stale; len(st) > 0 {
				out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, st[0].Old),
					Reason: fmt.Sprintf("it tells %q as the %s, which the output at step %d, after a change, gives as %q", st[0].Old, st[0].Key, st[0].At, st[0].New)})
				continue
			}
			if figure, of, named, j := otherRow(in, sup, listings, i); figure != "" {
				out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, figure),
					Reason: fmt.Sprintf("it tells %s, which the listing at step %d gives of %q alone, where it names %q of the same listing", figure, j, of, named)})
				continue
			}
			if taken, back, j := tookBack(in, sup, i, key); taken != "" {
				out = append(out, Finding{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, taken),
					Reason: fmt.Sprintf("it tells the other party %q, which only their own message after its reply at step %d offered, in place of %q, which a tool's output held", taken, j, back)})
			}
			continue
		}
		reason := fmt.Sprintf("it tells the other party %s, which no tool result or earlier message holds", quoteList(missing))
		strength := min(0.9, 0.3+0.2*float64(len(missing)))
		if c, j := failedAsking(in, failedAt, i); c >= 0 {
			// The call that asked for what the step tells failed, and no
			// call of that tool gave it since: the value stands in for a
			// result the agent never got.
			reason += fmt.Sprintf(", where the call at step %d that asked about it failed (step %d) and no call of that tool gave it since", c, j)
			strength = 0.9
		}
		out = append(out, Finding{Step: i, Strength: strength, Quote: quoteClaim(in, i, missing[0]), Reason: reason})
	}
	return out
}

// failedAsking returns an earlier call step c of step i's agent whose
// output j failed (failedAt), when step i names a value that call was
// given (what it asked about; for a step that hands in the answer by a
// call, what the answer states) and no later call by the same name returned
// an output that did not fail before i: the only call that could have
// given step i what it tells did not. c and j are -1 when there is none.
func failedAsking(in *Input, failedAt []int, i int) (c, j int) {
	text := in.supportIndex().text
	claims := in.Features.Steps[i].Claims
	if handsInAnswer(in, i) {
		claims = in.Features.FinalAnswer.Claims
	}
	names := func(v string) bool {
		v = strings.ToLower(v)
		return text.Holds(i, v) || slices.ContainsFunc(claims, func(c extract.Claim) bool { return c.Norm == v })
	}
	for c = i - 1; c >= 0; c-- {
		j = failedAt[c]
		if j < 0 || j >= i || !run.SameAgent(in.Run.Steps[c].Agent, in.Run.Steps[i].Agent) {
			continue
		}
		for _, call := range in.Features.Steps[c].Calls {
			if !slices.ContainsFunc(call.Values, func(v string) bool { return meaningful(v) && !prose(v) && names(v) }) {
				continue
			}
			if !answeredSince(in, call.Name, j, i) {
				return c, j
			}
		}
	}
	return -1, -1
}

// answeredSince reports whether a call by the name, made after step j
// and before step i, returned an output that did not fail.
func answeredSince(in *Input, name string, j, i int) bool {
	for k := j + 1; k < i; k++ {
		f := &in.Features.Steps[k]
		if !f.Has(extract.KindToolResult) || failedOutput(f) {
			continue
		}
		if c := callerOf(in, k); c > j && slices.ContainsFunc(in.Features.Steps[c].Calls, func(x extract.Call) bool { return x.Name == name }) {
			return true
		}
	}
	return false
}

// handsInAnswer reports whether step i, a step that calls a tool, hands
// in the run's answer by that call (a finishing call's answer argument,
// ToolBench's Finish, smolagents' final_answer): the answer is told to
// the other party as a reply is, and what it states is read as a reply's.
func handsInAnswer(in *Input, i int) bool {
	fa := in.Features.FinalAnswer
	return fa != nil && fa.Step == i && fa.Source == extract.SourceAction
}

// slippedFigure returns a number step i of the agent key states that no
// earlier step of another or tool's output holds, and that is, in the
// same unit, a slip of the digits (digitSlip) of a number another agent's
// earlier step j stated and step i does not: the figure it was given,
// copied wrong. slip is "" when there is none.
func slippedFigure(in *Input, sup *support, i int, key string) (slip, given string, j int) {
	others := from{others: true, self: key}
	claims := in.Features.Steps[i].Claims
	digits := func(c extract.Claim) (string, string) {
		v, unit := c.Value()
		return strings.ReplaceAll(v, ".", ""), unit
	}
	for _, c := range claims {
		if c.Kind != extract.ClaimNumber || sup.before(c.Text, i, others) || sup.before(c.Norm, i, others) || sup.numberBefore(c, i, others) {
			continue
		}
		v, unit := digits(c)
		for j := i - 1; j >= 0; j-- {
			if !isAgentDecision(in, j) || in.Features.Steps[j].Has(extract.KindToolResult) || sup.key(j) == sup.key(i) {
				continue
			}
			for _, d := range in.Features.Steps[j].Claims {
				w, u := digits(d)
				// A unit one of the two leaves unstated is no other unit:
				// "7,845 m" is read without one, an "m" being a million too.
				if d.Kind == extract.ClaimNumber && (u == unit || u == "" || unit == "") && digitSlip(w, v) && !slices.ContainsFunc(claims, func(x extract.Claim) bool { return x.Kind == extract.ClaimNumber && x.Matches(d) }) {
					return c.Text, d.Text, j
				}
			}
		}
	}
	return "", "", -1
}

// undoneAction returns an action the step i of the agent key reports
// done ("has been cancelled") that another party's step r asked for
// ("please cancel"), while no consequential call came after r that its
// tool did not fail, and no tool's output since r reports it (a status
// "cancelled"): the agent told of an action it never took, or one its
// tool refused (a booking answered "409 Conflict"). verb is "" when the
// step reports none so.
func undoneAction(in *Input, sup *support, i int, key string) (verb string, r int) {
	var failedAt []int // read on first need: most steps report no action
	for _, v := range in.Features.Steps[i].Done {
		forms := extract.VerbForms(v)
		asks := func(a string) bool { return slices.Contains(forms, a) || extract.SameStem(a, v) }
		r = -1
		for j := i - 1; j >= 0 && r < 0; j-- {
			if !sup.results[j] && sup.key(j) != key && in.Run.Steps[j].Kind != run.KindSystem && slices.ContainsFunc(in.Features.Steps[j].Asked, asks) {
				r = j
			}
		}
		if r < 0 {
			continue
		}
		taken := false
		for k := r + 1; k < i && !taken; k++ {
			if sup.results[k] {
				taken = sup.text.Holds(k, v)
				continue
			}
			// Any change counts: a tool's verb is often another than the
			// one people use (modify_pending_order_address for "update"),
			// unless its tool failed or the call only handed the work on
			// (transfer_to_booking_agent, whose output goes to the agent
			// it names).
			if taken = slices.ContainsFunc(in.Features.Steps[k].Calls, extract.Call.Consequential) && !handsOver(in, sup, k); taken {
				if failedAt == nil {
					failedAt = failedResults(in)
				}
				taken = failedAt[k] < 0
			}
		}
		if !taken {
			return v, r
		}
	}
	return "", -1
}

// hiddenFailure is, for an agent's step i that states a value or an
// action done, without failure words or an error, the failed output of
// the last call its agent made in the turn that step closes (no other
// agent's step between), when the step names a value the call was given:
// the agent told of a result about what it asked its tool for, which the
// tool did not give ("TB-45 is out of stock: 0 units" after "503 Service
// Unavailable"), or when it reports the action the task asks for done
// right after that failed output, the last it saw ("has been exported"
// over a screen that reads "Write Error"). It returns -1 when that call
// did not fail, or the step tells of the failure or of something else.
func hiddenFailure(in *Input, failedAt []int, i int) int {
	f := &in.Features.Steps[i]
	if f.FailureWords != nil || len(f.Errors) > 0 || len(f.Claims) == 0 && len(f.Done) == 0 {
		return -1
	}
	for c := i - 1; c >= 0; c-- {
		g := &in.Features.Steps[c]
		if g.Has(extract.KindToolResult) {
			continue
		}
		if !run.SameAgent(in.Run.Steps[c].Agent, in.Run.Steps[i].Agent) {
			return -1
		}
		// The step tells the action the task asks for done right after an
		// output of its agent's last action that failed: the last screen
		// or output it saw, read past. The action may be code the output
		// answers for.
		if last := i - 1; last > c && callerOf(in, last) == c && failedOutput(&in.Features.Steps[last]) && slices.ContainsFunc(f.Done, func(v string) bool { return taskAsks(in, v) }) {
			return last
		}
		if len(g.Calls) == 0 || failedAt[c] < 0 {
			return -1
		}
		// The step tells of what the call was about: a value it was given.
		text := in.supportIndex().text
		for _, call := range g.Calls {
			if slices.ContainsFunc(call.Values, func(v string) bool { return meaningful(v) && !prose(v) && text.HoldsWords(i, extract.NormWords(v)) }) {
				return failedAt[c]
			}
		}
		return -1
	}
	return -1
}

// passedOverFinding is the finding for step i, which reports the checks
// passed over the failure the output at step j reports.
func passedOverFinding(in *Input, i, j int) Finding {
	f := &in.Features.Steps[i]
	return Finding{Step: i, Strength: 0.6, Quote: quoteAt(in, i, f.Passes.Offset, f.Passes.Len),
		Reason: fmt.Sprintf("it tells the other party the checks passed, though the output at step %d, the last before it, reports a failure", j)}
}

// passedOverFailure returns the output, the last before step i, that
// reports a failure, where step i reports the checks passed (extract's
// Passes) and tells of no failure itself: whoever ran the check, it tells
// the other party a result the output before it contradicts. The output
// is a tool result, or a test runner's report that another agent pasted
// into its message (a team whose agents pass their work on as messages);
// a message that reports passing checks after it, or runs code again
// with no failure in what it pastes, is the later word. -1 when there is
// none.
func passedOverFailure(in *Input, i int) int {
	f := &in.Features.Steps[i]
	if f.Passes == nil || f.FailureWords != nil || len(f.Errors) > 0 {
		return -1
	}
	key := run.AgentKey(in.Run.Steps[i].Agent)
	for j := i - 1; j >= 0; j-- {
		g := &in.Features.Steps[j]
		if !g.Has(extract.KindToolResult) {
			switch {
			case len(g.FailedTests) > 0 && isAgentDecision(in, j) && run.AgentKey(in.Run.Steps[j].Agent) != key:
				return j
			case g.Passes != nil || len(g.FailedTests) == 0 && g.IssuesCall():
				return -1
			}
			continue
		}
		if slices.ContainsFunc(g.Errors, callFailure) {
			return j
		}
		return -1
	}
	return -1
}

// callFailure reports whether an output's signal tells that its call
// failed: an error of medium severity or more, not a refusal or a thing
// not found.
func callFailure(s extract.Signal) bool {
	return s.Severity >= extract.SeverityMedium && s.Kind != "not_found" && s.Kind != "refusal"
}

// toldFailedChange returns the call of step i's agent whose output
// reports it failed (an error, not a refusal or a thing not found), and
// that output, where step i, the run's final answer, tells of what the
// call would have done as done: it writes two or more of the words the call's
// arguments brought into the run (extract's NewWords: no earlier step
// nor the task holds them) that no call's arguments nor any output has
// carried since the failure, and tells of no failure itself. -1, -1 when
// there is none.
func toldFailedChange(in *Input, i int) (call, output int) {
	f := &in.Features.Steps[i]
	if fa := in.Features.FinalAnswer; fa == nil || fa.Step != i || f.FailureWords != nil || len(f.Errors) > 0 || len(f.Calls) > 0 {
		return -1, -1
	}
	sup := in.supportIndex()
	key := sup.key(i)
	for k := i - 1; k >= 0; k-- {
		g := &in.Features.Steps[k]
		if !g.Has(extract.KindToolResult) || !slices.ContainsFunc(g.Errors, callFailure) {
			continue
		}
		j := int(g.Caller)
		if j == extract.NoCaller || j >= k || sup.key(j) != key {
			continue
		}
		var words []string
		for _, c := range in.Features.Steps[j].Calls {
			for _, v := range c.Values {
				words = append(words, sup.text.NewWords(j, v)...)
			}
		}
		for m := k + 1; m < i && len(words) > 0; m++ {
			h := &in.Features.Steps[m]
			called := map[string]bool{} // the words step m's calls carry
			for _, c := range h.Calls {
				for _, v := range c.Values {
					for _, w := range extract.Words(v) {
						called[w] = true
					}
				}
			}
			words = slices.DeleteFunc(words, func(w string) bool {
				return called[w] || h.Has(extract.KindToolResult) && sup.text.Holds(m, w)
			})
		}
		told := 0
		for _, w := range slices.Compact(slices.Sorted(slices.Values(words))) {
			if sup.text.Holds(i, w) {
				told++
			}
		}
		if told >= 2 {
			return j, k
		}
	}
	return -1, -1
}

// taskAsks reports whether the task writes the verb of a participle a
// step reports done ("exported": "Export the document…").
func taskAsks(in *Input, participle string) bool {
	text := in.supportIndex().text
	return slices.ContainsFunc(extract.VerbForms(participle), func(form string) bool { return text.Holds(-1, form) })
}

// failedOutput reports whether a tool's output reports a failure or an
// error.
func failedOutput(f *extract.Features) bool {
	_, failed := toolFailed(f)
	return failed || hasError(f)
}

// handsOver reports whether the call of step k handed the work to
// another agent: the step, or an output of its call that follows it, is
// addressed to one.
func handsOver(in *Input, sup *support, k int) bool {
	if in.Run.Steps[k].Target() != "" {
		return true
	}
	for j := k + 1; j < len(in.Run.Steps) && sup.results[j]; j++ {
		if callerOf(in, j) == k && in.Run.Steps[j].Target() != "" {
			return true
		}
	}
	return false
}

// countedOut reports whether a number claim of step i is a figure a
// step before i that f counts states, times a count the run states up to
// step i ("$210 a night" for 4 nights: $840): a total worked out from a
// rate, not made up.
func countedOut(in *Input, sup *support, c extract.Claim, i int, f from) bool {
	x, ok := c.Number()
	if !ok || c.Kind != extract.ClaimNumber || x == 0 {
		return false
	}
	for _, n := range sup.countsUpTo(in, i) {
		y := x / float64(n.value)
		if math.Abs(y*100-math.Round(y*100)) > 1e-6 {
			continue // no rate in cents
		}
		r := extract.Claim{Kind: extract.ClaimNumber, Norm: strconv.FormatFloat(math.Round(y*100)/100, 'f', -1, 64)}
		if sup.numberBefore(r, i, f) {
			return true
		}
	}
	return false
}

// tookBack returns, for the run's final answer at step i by the agent
// key, a value it tells that the other party first offered after the
// agent's own earlier reply j, and the value of its kind that reply told,
// which a tool's output held and the answer no longer tells: the agent
// took back what its tool found for the other party's word (a user's
// "Are you sure? I thought it was Sydney"), with no call of its own in
// between to check it. taken is "" when the answer did not.
func tookBack(in *Input, sup *support, i int, key string) (taken, back string, j int) {
	fa := in.Features.FinalAnswer
	if fa == nil || fa.Step != i {
		return "", "", -1
	}
	j = -1
	for k := i - 1; k >= 0 && j < 0; k-- {
		f := &in.Features.Steps[k]
		switch {
		case sup.results[k] || sup.key(k) != key:
		case len(f.Calls) > 0 || f.IssuesCall():
			return "", "", -1 // it checked again
		case isAgentDecision(in, k):
			j = k
		}
	}
	if j < 0 {
		return "", "", -1
	}
	// holds reads a value in step k as written or as its claims state
	// it ("5,895 m" for "5,895 metres").
	holds := func(k int, c extract.Claim) bool {
		return sup.text.Holds(k, strings.ToLower(c.Text)) ||
			slices.ContainsFunc(in.Features.Steps[k].Claims, func(x extract.Claim) bool { return statesClaim(x, c.Norm) })
	}
	toolHeld := func(c extract.Claim, until int) bool {
		for k := range until {
			if sup.results[k] && holds(k, c) {
				return true
			}
		}
		return false
	}
	for _, c := range fa.Claims {
		if !meaningfulClaim(c) || toolHeld(c, i) || sup.text.Holds(-1, strings.ToLower(c.Text)) ||
			slices.ContainsFunc(in.Features.Question, func(x extract.Claim) bool { return statesClaim(x, c.Norm) }) {
			continue // the task or a tool holds it
		}
		earlier, offered := false, false
		for k := range i {
			switch {
			case k <= j:
				earlier = earlier || holds(k, c)
			case sup.key(k) != key && !sup.results[k]:
				offered = offered || holds(k, c)
			}
		}
		if earlier || !offered {
			continue
		}
		for _, w := range in.Features.Steps[j].Claims {
			if alike(w, c) && w.Norm != c.Norm && meaningfulClaim(w) && !holds(i, w) && toolHeld(w, j) {
				return c.Text, w.Text, j
			}
		}
	}
	return "", "", -1
}

// otherRow returns a figure a reply at step i tells that one record alone
// of a listing a tool printed before i gives (a balance, a price), where
// the reply names another record of that listing by words only that one
// has ("your savings account") and none that only the figure's record
// has: the figure of the row beside the one it speaks of. A reply that
// tells the figures of several records restates the listing. It returns the
// figure as written, the ids of the two records, and the listing's step;
// figure is "" when there is none. listings are the steps whose output
// lists records, in order; the latest listing that gives the figure is
// read.
func otherRow(in *Input, sup *support, listings []int, i int) (figure, of, named string, j int) {
	says := func(words []string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return sup.text.Holds(i, w) })
	}
	for _, c := range in.Features.Steps[i].Claims {
		if c.Kind != extract.ClaimNumber || !meaningfulClaim(c) {
			continue
		}
		for k := len(listings) - 1; k >= 0; k-- {
			if listings[k] >= i {
				continue
			}
			recs := in.Features.Steps[listings[k]].Records
			at := onlyRecord(recs, func(r extract.Record) bool { return slices.Contains(r.Numbers, c.Norm) })
			if at < 0 {
				continue
			}
			if rowsTold(in.Features.Steps[i].Claims, recs) > 1 {
				break // the reply restates the listing, row by row
			}
			var others []string
			for n, o := range recs {
				if n != at {
					others = append(others, o.Words...)
				}
			}
			if says(onlyIn(recs[at].Words, others)) {
				break // the reply names the figure's own record
			}
			for n, o := range recs {
				if n != at && says(onlyIn(o.Words, recs[at].Words)) {
					return c.Text, recs[at].IDs[0], o.IDs[0], listings[k]
				}
			}
			break
		}
	}
	return "", "", "", -1
}

// onlyRecord returns the index of the one record of recs that has what
// has asks for, or -1 when none does: a figure or an id several records
// give tells none apart.
func onlyRecord(recs []extract.Record, has func(extract.Record) bool) int {
	at := -1
	for k, r := range recs {
		if has(r) {
			if at >= 0 {
				return -1
			}
			at = k
		}
	}
	return at
}

// rowsTold returns how many of recs give a figure among claims.
func rowsTold(claims []extract.Claim, recs []extract.Record) int {
	n := 0
	for _, r := range recs {
		if slices.ContainsFunc(claims, func(c extract.Claim) bool { return c.Kind == extract.ClaimNumber && slices.Contains(r.Numbers, c.Norm) }) {
			n++
		}
	}
	return n
}

// UnsupportedAnswer is the unsupported_answer analyzer.
var UnsupportedAnswer = &Analyzer{Name: "unsupported_answer", Run: unsupportedAnswer, Requires: []Fact{FactToolCalls, FactClaims, FactKinds, FactFinalAnswer, FactSignals},
	Doc: "a tool-using agent telling the other party (in a reply, or in the answer a finishing call hands in) values that no tool result or earlier message holds, most when the call that asked for them failed and none since gave them, or that a change has since replaced, or a final answer telling as made the change of its own call that failed, or a member of its team that calls no tool telling a figure it was handed with its digits slipped"}

// meaningfulClaim leaves out the small whole numbers that count and list
// things in prose; a count the agent got wrong is still caught when the
// number is larger, and so is every amount, date, time or id.
func meaningfulClaim(c extract.Claim) bool {
	if c.Kind != extract.ClaimNumber {
		return true
	}
	if strings.ContainsAny(c.Norm, ".") {
		return true
	}
	return len(c.Norm) >= 2
}

// observedState returns the state that the latest tool result before i
// holding one of the values reports, and where, or "" and -1.
func observedState(in *Input, i int, values []string, reports stateReports) (string, int) {
	text := in.supportIndex().text
	for k := sort.SearchInts(reports.steps, i) - 1; k >= 0; k-- {
		j := reports.steps[k]
		if slices.ContainsFunc(values, func(v string) bool { return meaningful(v) && text.Writes(j, v) }) {
			return reports.states[k], j
		}
	}
	return "", -1
}

// stateReports are the tool results that report a state, in order, each
// with the first state it reports: the few steps a call's object is
// looked up in, where a long run's steps are many.
type stateReports struct {
	steps  []int
	states []string
}

func stateConflict(in *Input) []Finding {
	var rules []extract.Policy
	states := map[string]bool{}
	var reports stateReports
	for i := range in.Features.Steps {
		for _, p := range in.Features.Steps[i].Policies {
			if p.Verb != "" {
				rules = append(rules, p)
				states[p.State] = true
			}
		}
		if f := &in.Features.Steps[i]; f.Has(extract.KindToolResult) {
			for k, s := range f.States {
				states[s] = true
				if k == 0 && s != "" {
					reports.steps = append(reports.steps, i)
					reports.states = append(reports.states, s)
				}
			}
		}
	}
	var out []Finding
	for i := range in.Features.Steps {
		for _, c := range in.Features.Steps[i].Calls {
			if !c.Consequential() {
				continue
			}
			state, at := observedState(in, i, c.Values, reports)
			if state == "" {
				continue
			}
			if why := conflict(c, state, rules, states); why != "" {
				out = append(out, Finding{Step: i, Strength: 0.9, Quote: quoteAt(in, i, max(c.Offset, 0), len(c.Name)),
					Reason: fmt.Sprintf("it calls %s on an object step %d shows as %q: %s", c.Name, at, state, why)})
				break
			}
		}
	}
	out = append(out, refusalsTaken(in)...)
	return append(out, guardsBroken(in)...)
}

// guardsBroken finds, for each condition the task or a policy sets on an
// action (extract.Guard), the first consequential call it holds made
// after the latest tool result that spoke of the forbidden state showed
// it: the call's agent acted on a result that ruled the action out.
func guardsBroken(in *Input) []Finding {
	var out []Finding
	for _, g := range in.Features.Guards {
		if g.Requires != "" {
			out = append(out, stepSkipped(in, g)...)
			continue
		}
		latest := -1 // the index in g.Seen of the latest result's first record
	steps:
		for i := g.Step + 1; i < len(in.Features.Steps); i++ {
			for k := max(latest, 0); k < len(g.Seen) && g.Seen[k].Step < i; k++ {
				if latest < 0 || g.Seen[k].Step != g.Seen[latest].Step {
					latest = k
				}
			}
			if latest < 0 {
				continue
			}
			for _, c := range in.Features.Steps[i].Calls {
				for k := latest; k < len(g.Seen) && g.Seen[k].Step == g.Seen[latest].Step; k++ {
					if s := g.Seen[k]; s.Shows && g.Holds(c, s.Object) {
						out = append(out, Finding{Step: i, Strength: 0.9, Quote: quoteAt(in, i, max(c.Offset, 0), len(c.Name)),
							Reason: fmt.Sprintf("it calls %s after step %d showed %q, which the condition %q rules out", c.Name, s.Step, g.State, clipText(g.Text, 120))})
						break steps
					}
				}
			}
		}
	}
	return out
}

// stepSkipped finds the first call after a policy that requires a step
// before an action (extract.Guard.Requires) which takes the action when
// no call since the policy took the step: its agent skipped what the
// policy asks for first.
func stepSkipped(in *Input, g extract.Guard) []Finding {
	for i := g.Step + 1; i < len(in.Features.Steps); i++ {
		for _, c := range in.Features.Steps[i].Calls {
			if g.Takes(c) {
				return nil
			}
			if g.Acts(c) {
				return []Finding{{Step: i, Strength: 1.0, Quote: quoteAt(in, i, max(c.Offset, 0), len(c.Name)),
					Reason: fmt.Sprintf("it calls %s although no call since step %d took the step %q the policy requires before it (%q)", c.Name, g.Step, g.Requires, clipText(g.Text, 120))}}
			}
		}
	}
	return nil
}

// refusalsTaken finds the actions an agent took after saying they could
// not be taken ("it can't be cancelled"), when nothing but the other
// party's words came between: no tool's output since the refusal
// changed what it rested on, so the action is the exception the refusal
// ruled out, made because the other party insisted. The fault is the
// step that offered it (the proposal the other party agreed to, when it
// came after the refusal), else the call.
func refusalsTaken(in *Input) []Finding {
	var out []Finding
	for i := range in.Features.Steps {
		f := &in.Features.Steps[i]
		c := slices.IndexFunc(f.Calls, extract.Call.Consequential)
		if c < 0 {
			continue
		}
		j := refusalOf(in, i, f.Calls[c].Words())
		if j < 0 {
			continue
		}
		at, quote := i, quoteAt(in, i, max(f.Calls[c].Offset, 0), len(f.Calls[c].Name))
		if p, _ := proposalOf(in, i); p > j {
			at, quote = p, quoteAt(in, p, 0, 0)
		}
		out = append(out, Finding{Step: at, Strength: 0.9, Quote: quote,
			Reason: fmt.Sprintf("it takes up the action (%s) its agent said at step %d could not be taken, with nothing but the other party's words since", f.Calls[c].Name, j)})
	}
	return out
}

// refusalOf returns the latest step before i of the caller of step i
// that says an action of the call's words cannot be taken, with no
// tool's output between it and i; -1 when there is none.
func refusalOf(in *Input, i int, words []string) int {
	me := run.AgentKey(in.Run.Steps[i].Agent)
	for j := i - 1; j >= 0; j-- {
		f := &in.Features.Steps[j]
		if f.Has(extract.KindToolResult) {
			return -1
		}
		if run.AgentKey(in.Run.Steps[j].Agent) != me {
			continue
		}
		for _, r := range f.Refused {
			forms := append(extract.VerbForms(r), r)
			if slices.ContainsFunc(words, func(w string) bool { return extract.SameStem(w, r) || slices.Contains(forms, w) }) {
				return j
			}
		}
	}
	return -1
}

// StateConflict is the state_conflict analyzer.
var StateConflict = &Analyzer{Name: "state_conflict", Run: stateConflict, Requires: []Fact{FactToolCalls, FactPolicies, FactKinds, FactStates, FactSignals},
	Doc: "an action on an object whose last observed state a stated policy, or the action's own name, rules out, or that its agent said could not be taken and then took when the other party only insisted, or that a condition of the task or a policy forbids in a state the latest result speaking of it showed, or that a policy requires a step before which no call took"}

// conflict says why a call may not act on an object in state, or "".
func conflict(c extract.Call, state string, policies []extract.Policy, states map[string]bool) string {
	words := c.Words()
	for _, p := range policies {
		for _, w := range words {
			if extract.SameStem(w, p.Verb) && state != p.State {
				return fmt.Sprintf("the policy allows it only in state %q (%q)", p.State, clipText(p.Text, 120))
			}
		}
	}
	for _, w := range words {
		if states[w] && !strings.HasPrefix(state, w) {
			return fmt.Sprintf("the action is for objects in state %q", w)
		}
	}
	return ""
}

func clipText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !isBoundary(s, n) {
		n--
	}
	return s[:n] + "…"
}

func unconfirmedAction(in *Input) []Finding {
	var asked []extract.Policy
	for i := range in.Features.Steps {
		for _, p := range in.Features.Steps[i].Policies {
			if p.Confirm {
				asked = append(asked, p)
			}
		}
	}
	// held: a call a confirmation policy holds, as it names no actions or
	// names the call's; with no such policy, none is, and only a call the
	// other party agreed to is checked against what it agreed to.
	held := func(c extract.Call) bool {
		return c.Consequential() && slices.ContainsFunc(asked, func(p extract.Policy) bool { return p.Covers(c) })
	}
	var out []Finding
	for i, agreed := range agreedSince(in) {
		if agreed {
			p, a := proposalOf(in, i)
			if p >= 0 {
				if fs := notAgreedTo(in, i, p, a); len(fs) > 0 {
					out = append(out, fs...)
					continue
				}
			}
			// A pick, with no yes, among the choices the caller asked
			// about names the choice but confirms nothing: the caller has
			// not yet read back what it will do.
			if p < 0 || in.Features.Steps[a].Affirms || !in.Features.Steps[p].AsksChoice {
				continue
			}
		}
		f := &in.Features.Steps[i]
		k := slices.IndexFunc(f.Calls, held)
		if k < 0 {
			continue
		}
		c := f.Calls[k]
		out = append(out, Finding{Step: i, Strength: 0.7, Quote: quoteAt(in, i, max(c.Offset, 0), len(c.Name)),
			Reason: fmt.Sprintf("it calls %s although the policy asks for confirmation and the other party has not agreed since it last spoke", c.Name)})
	}
	return out
}

// notAgreedTo finds where the consequential call of step i acts on
// another record, or moves another sum, than the proposal at step p that
// the other party agreed to at step a; and, when a picks one of the
// choices the proposal offered, on another record than the one picked
// (a yes alone names none).
func notAgreedTo(in *Input, i, p, a int) []Finding {
	at := []int{p}
	if in.Features.Steps[a].Picks {
		at = append(at, a)
	}
	for _, q := range at {
		what := fmt.Sprintf("the proposal the other party agreed to at step %d", p)
		if q == a {
			what = fmt.Sprintf("the other party's pick at step %d", a)
		}
		if used, offered := notAgreed(in, i, q); used != "" {
			return []Finding{{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, used),
				Reason: fmt.Sprintf("it acts on %q, where %s named %q", used, what, offered)}}
		}
		if used, offered := recordNotAgreed(in, i, q); used != "" {
			return []Finding{{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, used),
				Reason: fmt.Sprintf("it acts on %q, where %s described the record %q", used, what, offered)}}
		}
		if q != p {
			continue
		}
		if used, offered := amountNotAgreed(in, i, q); used != "" {
			return []Finding{{Step: i, Strength: 0.6, Quote: quoteClaim(in, i, used),
				Reason: fmt.Sprintf("it gives %s, where %s named the amount %s", used, what, offered)}}
		}
	}
	return nil
}

// agreedSince yields each step that makes a consequential call, in order,
// and whether another agent agreed since the caller last spoke: looking
// back from the call, past tools' results and other calls, the first step
// is the caller's own (nobody agreed since) or an agreement by another
// agent, other steps passed over. An agreement is a yes, or a pick of one
// of the choices the message before it asked about (agrees). What that
// look back would find is kept as the steps go by (each agent's latest
// such step, the latest agreement), rather than looked for from each
// call: a long run's calls are many. An agreement by the caller itself
// is no later than its own latest step, so the latest agreement alone
// decides.
func agreedSince(in *Input) iter.Seq2[int, bool] {
	return func(yield func(int, bool) bool) {
		keyOf := agentKeys{}.of
		lastOwn := map[string]int{} // agent key → its latest step looked back to
		agreedAt := -1              // the latest agreement
		said := -1                  // the latest step looked back to
		for i, st := range in.Run.Steps {
			f := &in.Features.Steps[i]
			key := keyOf(st.Agent)
			if slices.ContainsFunc(f.Calls, extract.Call.Consequential) {
				own, ok := lastOwn[key]
				if !ok {
					own = -1
				}
				if !yield(i, agreedAt > own) {
					return
				}
			}
			if f.Has(extract.KindToolResult) || len(f.Calls) > 0 {
				continue
			}
			if agrees(in, said, i) {
				agreedAt = i
			}
			lastOwn[key] = i
			said = i
		}
	}
}

// agrees reports whether step i, a message, agrees to what the message at
// step before (-1 for none) proposed: it opens with a yes, or it picks a
// choice (extract's Picks) of those that message, another agent's, asked
// about.
func agrees(in *Input, before, i int) bool {
	f := &in.Features.Steps[i]
	if f.Affirms {
		return true
	}
	return f.Picks && before >= 0 && in.Features.Steps[before].Asks && run.AgentKey(in.Run.Steps[before].Agent) != run.AgentKey(in.Run.Steps[i].Agent)
}

// proposalOf returns, for a consequential call at step i, the caller's
// own message p that another agent then agreed to at step a (agrees):
// looking back past tools' results and calls, an agreement by another
// agent, and before it, past tools' results and calls again, a message
// of the caller's; p is -1 when the steps are otherwise.
func proposalOf(in *Input, i int) (p, a int) {
	me := run.AgentKey(in.Run.Steps[i].Agent)
	a = -1
	for j := i - 1; j >= 0; j-- {
		f := &in.Features.Steps[j]
		if f.Has(extract.KindToolResult) || len(f.Calls) > 0 {
			continue
		}
		mine := run.AgentKey(in.Run.Steps[j].Agent) == me
		switch {
		case a < 0 && !mine && (f.Affirms || f.Picks):
			a = j
		case a >= 0 && mine && agrees(in, j, a):
			return j, a
		default:
			return -1, -1
		}
	}
	return -1, -1
}

// notAgreed returns an id the consequential call of step i acts on that
// the proposal at step p does not name, and an id the proposal named that
// the call leaves out, where a tool's output before the call listed both
// under one field ("line_id": "L-90199" where the customer agreed to
// "L-90177"; item "7710981" for "7710234"): the call acts on another
// record of the listing than the one agreed to. Ids are what
// extract.IsID says; a proposal that names no other record of the
// listing, or whose every id the call uses, agreed to what the call does
// as far as ids tell.
func notAgreed(in *Input, i, p int) (used, offered string) {
	prop := in.Features.Steps[p].Codes
	for _, c := range in.Features.Steps[p].Claims {
		if (c.Kind == extract.ClaimNumber || c.Kind == extract.ClaimEntity) && extract.IsID(c.Text) {
			prop = append(prop[:len(prop):len(prop)], c.Text)
		}
	}
	if len(prop) == 0 {
		return "", ""
	}
	values := actedValues(in, i)
	for _, v := range values {
		if !extract.IsID(v) || slices.Contains(prop, v) {
			continue
		}
		for _, o := range prop {
			if !slices.Contains(values, o) && listedAlike(in, in.supportIndex(), i, v, o) {
				return v, o
			}
		}
	}
	return "", ""
}

// recordNotAgreed returns an id the call of step i acts on, which the
// proposal at step p does not name, of a record of a listing a tool
// printed before the call, and the id of another record of that listing
// that the proposal describes instead: it writes words of that record
// that no record the call acts on has ("for the blue one", "Unlimited
// Plus", "your gift card"), or a time of day only that record gives
// ("at 2:30 pm", a slot's start), and none that only the call's record
// has. The call then acts on another record than
// the one the other party agreed to, by what the proposal said of it.
func recordNotAgreed(in *Input, i, p int) (used, offered string) {
	values := actedValues(in, i)
	text := in.supportIndex().text
	says := func(words []string) bool {
		return slices.ContainsFunc(words, func(w string) bool { return text.Holds(p, w) })
	}
	saysTime := func(times []string) bool {
		return slices.ContainsFunc(in.Features.Steps[p].Claims, func(c extract.Claim) bool { return c.Kind == extract.ClaimTime && slices.Contains(times, c.Norm) })
	}
	// The words of every record the call acts on (an exchange's old item
	// and its new one) describe what was agreed: only another record's
	// words beside them tell of one not acted on.
	actedWords := map[string]bool{}
	for j := range i {
		for _, r := range in.Features.Steps[j].Records {
			if slices.ContainsFunc(r.IDs, func(id string) bool { return slices.Contains(values, id) }) {
				for _, w := range r.Words {
					actedWords[w] = true
				}
			}
		}
	}
	for j := range i {
		recs := in.Features.Steps[j].Records
		for _, v := range values {
			if text.Holds(p, strings.ToLower(v)) {
				continue
			}
			at := onlyRecord(recs, func(r extract.Record) bool { return slices.Contains(r.IDs, v) })
			if at < 0 {
				continue
			}
			for k, o := range recs {
				if k == at || slices.ContainsFunc(o.IDs, func(id string) bool { return slices.Contains(values, id) }) {
					continue
				}
				if says(slices.DeleteFunc(slices.Clone(o.Words), func(w string) bool { return actedWords[w] })) && !says(onlyIn(recs[at].Words, o.Words)) {
					return v, o.IDs[0]
				}
				if saysTime(o.Times) && !saysTime(recs[at].Times) && !says(onlyIn(recs[at].Words, o.Words)) {
					return v, o.IDs[0]
				}
			}
		}
	}
	return "", ""
}

// amountNotAgreed returns a sum of money the consequential call of step i
// is given and the one the proposal at step p named, where the proposal
// named its sums ("a refund of $14.00"), the other party agreed, and the
// call gives none of them, nor their total (in units or in hundredths),
// but another figure among its arguments (a number, not a count under a
// hundred or a year, nor an id). The call then moves another sum than
// the one agreed.
func amountNotAgreed(in *Input, i, p int) (used, offered string) {
	var agreed []float64
	for _, c := range in.Features.Steps[p].Claims {
		if x, ok := c.Number(); ok && c.Money() {
			agreed = append(agreed, x)
		}
	}
	if len(agreed) == 0 {
		return "", ""
	}
	total := 0.0
	for _, x := range agreed {
		total += x
	}
	// A sum is the same written in its currency's units or in its
	// hundredths, as payment APIs take it ("amount": 1400 for $14.00).
	same := func(x, a float64) bool { return math.Abs(x-a) < 0.005 || math.Abs(x-100*a) < 0.5 }
	var given []string
	for _, c := range in.Features.Steps[i].Calls {
		if !c.Consequential() {
			continue
		}
		for _, f := range c.ArgNumbers() {
			x, err := strconv.ParseFloat(f.Value, 64)
			if err != nil {
				continue
			}
			if same(x, total) || slices.ContainsFunc(agreed, func(a float64) bool { return same(x, a) }) {
				return "", "" // the call gives a sum agreed
			}
			whole := x == math.Trunc(x)
			if whole && (x < 100 || x >= 1900 && x <= 2100) {
				continue // a count or a year, not a sum
			}
			given = append(given, f.Value)
		}
	}
	if len(given) == 0 {
		return "", ""
	}
	return given[0], strconv.FormatFloat(agreed[0], 'f', -1, 64)
}

// actedValues returns every argument value of step i's consequential
// calls, as written: what the calls act on.
func actedValues(in *Input, i int) []string {
	var values []string
	for _, c := range in.Features.Steps[i].Calls {
		if c.Consequential() {
			values = append(values, c.Values...)
		}
	}
	return values
}

// onlyIn returns the words of a that b does not hold.
func onlyIn(a, b []string) []string {
	var out []string
	for _, w := range a {
		if !slices.Contains(b, w) {
			out = append(out, w)
		}
	}
	return out
}

// listedAlike reports whether a tool's output before step i prints ids a
// and b under one field: two records of one listing.
func listedAlike(in *Input, sup *support, i int, a, b string) bool {
	for _, j := range sup.listing(in, a) {
		if int(j) >= i {
			break
		}
		fields := in.Features.Steps[j].IDFields
		for _, f := range fields {
			if f.Value == a && slices.Contains(fields, extract.Field{Key: f.Key, Value: b}) {
				return true
			}
		}
	}
	return false
}

// UnconfirmedAction is the unconfirmed_action analyzer.
var UnconfirmedAction = &Analyzer{Name: "unconfirmed_action", Run: unconfirmedAction, Requires: []Fact{FactClaims, FactToolCalls, FactPolicies, FactKinds},
	Doc: "where a policy asks for confirmation: a consequential action taken before the other party agreed to it; policy or not, one that acts on another record or moves another sum than the proposal the other party agreed to"}

func stateOrigin(in *Input) []Finding {
	var out []Finding
	seen := map[int]bool{}
	acted := actedOn(in)
	scripts := writesOwnScripts(in)
	for j := range in.Features.Steps {
		f := &in.Features.Steps[j]
		if _, failed := toolFailed(f); !failed && !hasError(f) {
			continue
		}
		c := callerOf(in, j)
		if c < 0 || c == j {
			continue
		}
		// The latest consequential step before c that acted on one of
		// the failing call's objects.
		k := -1
		for _, v := range consequentialValues(&in.Features.Steps[c]) {
			steps := acted[v]
			if i, _ := slices.BinarySearch(steps, c); i > 0 && steps[i-1] > k {
				k = steps[i-1]
			}
		}
		if k >= 0 && !seen[k] && !scripts[k] { // writing its own check changed nothing the check met
			seen[k] = true
			out = append(out, Finding{Step: k, Strength: 0.6, Quote: quoteAt(in, k, 0, 0),
				Reason: fmt.Sprintf("a later action on the same object (step %d) failed at step %d after this one changed it", c, j)})
		}
	}
	return out
}

// actedOn lists, for each object a consequential call may change
// (changedValues), the steps whose calls act on it, in order: each
// step's calls are read once, where looking back from every failure cost
// a long run's length again for each.
func actedOn(in *Input) map[string][]int {
	out := map[string][]int{}
	for k := range in.Features.Steps {
		g := &in.Features.Steps[k]
		if !slices.ContainsFunc(g.Calls, extract.Call.Consequential) {
			continue
		}
		for _, v := range changedValues(g) {
			if steps := out[v]; len(steps) == 0 || steps[len(steps)-1] != k {
				out[v] = append(steps, k)
			}
		}
	}
	return out
}

// StateOrigin is the state_origin analyzer.
var StateOrigin = &Analyzer{Name: "state_origin", Run: stateOrigin, Requires: []Fact{FactToolCalls, FactSignals, FactKinds},
	Doc: "a consequential action on an object that a later action on the same object then fails on: it changed the state the later one needed"}

func hasError(f *extract.Features) bool {
	if !f.Has(extract.KindToolResult) {
		return false
	}
	for _, s := range f.Errors {
		if s.Severity >= extract.SeverityMedium {
			return true
		}
	}
	return false
}

func consequentialValues(f *extract.Features) []string {
	var out []string
	for _, c := range f.Calls {
		if !c.Consequential() {
			continue
		}
		if c.Command() != "" {
			out = append(out, commandObjects(c)...)
			continue
		}
		for _, v := range c.Values {
			if meaningful(v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// changedValues are the objects of a step's consequential calls
// (consequentialValues) that the calls may change: not the files a
// command line only runs as code (python reproduce.py changes what the
// script changes, not the script, so a second run of it failing meets no
// state the first one left in it).
func changedValues(f *extract.Features) []string {
	out := consequentialValues(f)
	for _, c := range f.Calls {
		for _, s := range c.Scripts() {
			if !slices.Contains(c.Writes(), s) {
				out = slices.DeleteFunc(out, func(v string) bool { return v == s })
			}
		}
	}
	return out
}

// commandObjects are the objects of a call given a command to run: the
// files its command line and its arguments name (extract reads them,
// Call.Files), and its other arguments of one word (an id). The words of
// a command are what it does, and an argument of several (a shell tool's
// description of the command, the text an editor puts in) is no object:
// two commands that both "Run the tests" act on nothing in common.
func commandObjects(c extract.Call) []string {
	out := slices.Clone(c.Files())
	for _, v := range c.Values {
		if !c.InCommand(v) && !strings.ContainsAny(v, " \t\n") && meaningful(v) && !extract.FileLike(v) {
			out = append(out, v)
		}
	}
	return out
}

func expectedActions(in *Input) []Finding {
	expected := in.Features.ExpectedCalls
	if len(expected) == 0 {
		return nil
	}
	for i, st := range in.Run.Steps {
		for _, c := range in.Features.Steps[i].Calls {
			if !c.Consequential() || slices.ContainsFunc(expected, func(e extract.Call) bool { return sameCall(c, e) }) {
				continue
			}
			out := []Finding{{Step: i, Strength: 0.9, Quote: quoteAt(in, i, max(c.Offset, 0), len(c.Name)),
				Reason: fmt.Sprintf("its call %s is not among the actions the ground truth expects", c.Name)}}
			key := run.AgentKey(st.Agent)
			for j := i - 1; j >= 0; j-- {
				g := &in.Features.Steps[j]
				if g.Has(extract.KindToolResult) || len(g.Calls) > 0 || run.AgentKey(in.Run.Steps[j].Agent) == key {
					continue
				}
				if isAgentDecision(in, j) {
					out = append(out, Finding{Step: j, Strength: 0.4, Quote: quoteAt(in, j, 0, 0),
						Reason: fmt.Sprintf("it asked for what led to the unexpected call %s at step %d", c.Name, i)})
				}
				break
			}
			return out
		}
	}
	return nil
}

// ExpectedActions is the expected_actions analyzer.
var ExpectedActions = &Analyzer{Name: "expected_actions", Run: expectedActions, Requires: []Fact{FactToolCalls, FactGroundTruth, FactKinds},
	Doc: "with a ground truth that lists the expected tool calls: the first consequential call that is not among them, and the request it followed"}

// sameCall compares a call with an expected one: the same tool, and the
// same argument values in any order.
func sameCall(c, e extract.Call) bool {
	if c.Name != e.Name || len(c.Values) != len(e.Values) {
		return false
	}
	a, b := slices.Clone(c.Values), slices.Clone(e.Values)
	slices.Sort(a)
	slices.Sort(b)
	return slices.Equal(a, b)
}
