package rules

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
)

// unsupportedClaim flags a step that introduces values nobody observed —
// not in the task, not in any earlier step, not read from a tool — which
// later steps then build on, and steps that admit their figures are
// assumed. It is the fabrication half of the data-flow rule, applied to
// every step rather than only the answer's path.
func unsupportedClaim(in *Input) []Finding { return unsupportedValues(in, false) }

// UnsupportedClaim is the unsupported_claim analyzer.
var UnsupportedClaim = &Analyzer{Name: "unsupported_claim", Run: unsupportedClaim, Requires: []Fact{FactClaims, FactDataFlow, FactSignals, FactKinds, FactVerdicts, FactToolCalls},
	Doc: "values a statement introduces with no source in the task, earlier steps or tools, which later steps build on, or that it admits are assumed"}

// unsupportedPlanValue is unsupportedClaim for plans and instructions: a
// value a plan introduces is a target or an example, not a claim, yet a
// made-up figure in a brief misleads every step that follows it. Kept
// apart so that the fit weighs the two on their own.
func unsupportedPlanValue(in *Input) []Finding { return unsupportedValues(in, true) }

// UnsupportedPlanValue is the unsupported_plan_value analyzer.
var UnsupportedPlanValue = &Analyzer{Name: "unsupported_plan_value", Run: unsupportedPlanValue, Requires: []Fact{FactClaims, FactDataFlow, FactKinds, FactSignals, FactToolCalls},
	Doc: "values a plan or instruction introduces with no source in the task, earlier steps or tools, which later steps build on"}

func unsupportedValues(in *Input, plans bool) []Finding {
	var out []Finding
	giver := taskGiver(in)
	// A name a step writes otherwise than it was given (user_id as
	// userId), which later steps carry: a value of its own that they
	// build on, as a figure it made up is.
	renamed := map[int]extract.Rename{}
	for _, r := range in.Features.Renames {
		if _, ok := renamed[int(r.Step)]; !ok && len(r.Carried) > 0 {
			renamed[int(r.Step)] = r
		}
	}
	scripts := writesOwnScripts(in)
	asked := askedOffTask(in)
	for i := range in.Features.Steps {
		if f := &in.Features.Steps[i]; !isAgentDecision(in, i) || f.Ledger != nil || f.Has(extract.KindToolResult) || proposes(f) != plans {
			continue // a ledger restates and judges, an observation reports: neither asserts new facts
		}
		if scripts[i] {
			continue // a script the agent runs by itself is its check, not a statement
		}
		if i > 0 && in.Features.Steps[i-1].Image {
			continue // it reads the screen an image just showed it, which no text gives
		}
		if giver != "" && run.AgentKey(in.Run.Steps[i].Agent) == giver {
			continue // the task giver's own facts are givens
		}
		claims := in.Graph.OutClaims(graph.StepID(i))
		if runsCommands(in, i) {
			claims = withoutPaths(claims, in.Features.Steps[i].Claims)
			claims = withoutSettings(claims, &in.Features.Steps[i])
		} else {
			claims = withoutPaths(claims, argumentPaths(&in.Features.Steps[i]))
		}
		// A date a person gave without its year, or named by where it
		// falls from today, written out in full, and a year they tagged
		// ("FY2024"), are theirs (dateHeld, relativeDateHeld,
		// taggedYearHeld).
		if held := func(c string) bool {
			sup := in.supportIndex()
			return dateHeld(in, sup, c, i) || relativeDateHeld(in, c, i) || taggedYearHeld(sup, c, i)
		}; slices.ContainsFunc(claims, held) {
			claims = slices.DeleteFunc(slices.Clone(claims), held)
		}
		// A figure written to a magnitude's place ("11k") that an earlier
		// step's or the task's figure rounds to ("11,013") is that figure,
		// rounded (roundingHeld).
		if rounded := func(c string) bool { return roundingHeld(in, c, i) }; slices.ContainsFunc(claims, rounded) {
			claims = slices.DeleteFunc(slices.Clone(claims), rounded)
		}
		// So is a figure in one unit that an earlier step's or the task's
		// figure in another unit of the same quantity converts to ("72 °F"
		// for 22 °C): that figure, told in another unit (convertedHeld).
		if converted := func(c string) bool { return convertedHeld(in, c, i) }; slices.ContainsFunc(claims, converted) {
			claims = slices.DeleteFunc(slices.Clone(claims), converted)
		}
		// A year a search adds to its query, where the task names none
		// ("Oslo population 2024"), asks for the latest figure: it is a
		// question, not a value the step states.
		if lookupsOnly(in, i) && !namesYear(in.Features.Question) && slices.ContainsFunc(claims, isYear) {
			claims = slices.DeleteFunc(slices.Clone(claims), isYear)
		}
		// So is the country or state a lookup writes after a place the
		// task or an earlier step names ("Tokyo, Japan"), as weather and
		// map tools ask for one: it says which place is meant.
		if q := qualifiers(in, i); len(q) > 0 && lookupsOnly(in, i) {
			claims = slices.DeleteFunc(slices.Clone(claims), func(c string) bool { return q[strings.ToLower(c)] })
		}
		// A call's bare setting (a limit, a count of days: a value of two
		// characters at most) is, as unsupported_arguments reads it, no
		// value the call makes up.
		if setting := func(c string) bool { return callSetting(&in.Features.Steps[i], c) }; slices.ContainsFunc(claims, setting) {
			claims = slices.DeleteFunc(slices.Clone(claims), setting)
		}
		// The names of the run's own functions and classes, where a plan
		// lays the work out, are what its code will be called: no value a
		// later step could be misled by.
		if sup := in.supportIndex(); plans && slices.ContainsFunc(claims, sup.definedName) {
			claims = slices.DeleteFunc(slices.Clone(claims), sup.definedName)
		}
		// So are the factors and offsets between units a plan works with
		// (3600 seconds in the hour the task limits by, 273.15 between
		// kelvins and degrees Celsius): everyone's, no figure of its own.
		if conversion := func(c string) bool { return unitNumber(in, c, i) }; plans && slices.ContainsFunc(claims, conversion) {
			claims = slices.DeleteFunc(slices.Clone(claims), conversion)
		}
		// A link to a page of the site the task names that the step's
		// call opens is how an agent finds the site's pages, as
		// unsupported_arguments reads it (siteHeld): no value made up.
		if site := func(c string) bool { return opensSitePage(in, i, c) }; slices.ContainsFunc(claims, site) {
			claims = slices.DeleteFunc(slices.Clone(claims), site)
		}
		// The inputs a test gives another's code are the cases it tries,
		// not values it puts forward; what it expects back is (testInput).
		if input := func(c string) bool { return testInput(in, i, c) }; slices.ContainsFunc(claims, input) {
			claims = slices.DeleteFunc(slices.Clone(claims), input)
		}
		// The names a step offers another to choose among are its
		// question, not values it states.
		if off := in.Features.Steps[i].Offered; len(off) > 0 {
			claims = slices.DeleteFunc(slices.Clone(claims), func(c string) bool { return slices.Contains(off, c) })
		}
		// A day of a month the step names first, which a later step
		// names again, is a value it introduced that the later one built
		// on, however either writes it ("March 4", 2025-03-04).
		claims = append(claims, introducedDays(in, i)...)
		used := len(claims)
		var example string
		if used > 0 {
			example = claims[0]
		}
		score := 0.0
		var reason, quote string
		if used > 0 {
			score = min(0.6, 0.15*float64(used))
			reason = fmt.Sprintf("it introduces %d value(s) with no source in the task or earlier steps (e.g. %q) that later steps build on", used, example)
			quote = quoteClaim(in, i, example)
		}
		if sig, ok := signalOf(in.Features.Steps[i].Errors, "assumption"); ok && (used > 0 || len(in.Features.Steps[i].Claims) > 0) {
			score += 0.4
			reason = joinReason(reason, fmt.Sprintf("it admits its values are assumed (%q)", sig.Quote))
			quote = quoteAt(in, i, sig.Offset, len(sig.Quote))
		}
		if r, ok := renamed[i]; ok {
			// A name the task itself gives is a contract with whoever
			// reads it: writing it otherwise breaks the task, more
			// surely than a figure with no source misleads.
			given := "given before it"
			if r.Task {
				score += 0.75
				given = "the task gives"
			} else {
				score += 0.45
			}
			reason = joinReason(reason, fmt.Sprintf("it writes %q for the name %q %s, and later steps carry the new name (step %d)", r.To, r.From, given, r.Carried[0]))
			if quote == "" {
				quote = quoteAt(in, i, r.Offset, len(r.To))
			}
		}
		if why, ok := asked[i]; ok {
			// A step that asks code holding the task's figure to hold
			// another, which a rewrite then does (a review's "set
			// PAGE_SIZE = 50" where the task says 25): the code did as
			// asked; the figure is the step's own, and breaks the task as
			// surely as a name the task gives written otherwise.
			score += 0.75
			reason = joinReason(reason, why)
			if quote == "" {
				quote = quoteAt(in, i, 0, 0)
			}
		}
		if name, found, r := replacedFound(in, i); plans && r >= 0 {
			// A plan that writes a value of its own where a tool had
			// found another, which the work had gone on with: the work
			// after it follows the plan's value, not what was found.
			score += 0.45
			reason = joinReason(reason, fmt.Sprintf("it writes %q where step %d's result had found %q, which the work had gone on with, and later steps look up its %q", name, r, found, name))
			if quote == "" {
				quote = quoteAt(in, i, 0, 0)
			}
		}
		if c, was, k := recount(in, i); k >= 0 {
			// A count the task gives, counted otherwise ("retry up to 3
			// times" where the task says 5) and carried into a constant
			// later code sets: a figure of its own in place of the task's.
			score += 0.45
			reason = joinReason(reason, fmt.Sprintf("it counts %d %s where the task counts %d, and step %d carries the %d", c.Value, c.Noun, was, k, c.Value))
			if quote == "" {
				quote = quoteAt(in, i, 0, 0)
			}
		}
		if score > 0 {
			out = append(out, Finding{Step: i, Strength: score, Quote: quote, Reason: reason})
		}
	}
	return out
}

// askedOffTask maps each agent step that asked for a constant's new
// value, in words or code ("set PAGE_SIZE = 50"), which a later rewrite
// of the code then gave it where the code before had a figure the task
// states and the new one is not (taskNumber), to why. The code did what
// it was asked; the step that asked put its own figure in place of the
// task's.
func askedOffTask(in *Input) map[int]string {
	out := map[int]string{}
	steps := in.Features.Steps
	text := in.supportIndex().text
	assigns := make([]map[string]string, len(steps))
	for k := range steps {
		if len(steps[k].Defines) > 0 && isAgentDecision(in, k) && !steps[k].Has(extract.KindToolResult) {
			assigns[k] = text.Assigns(k)
		}
	}
	for k := range steps {
		for _, name := range slices.Sorted(maps.Keys(assigns[k])) {
			v := assigns[k][name]
			if len(extract.NumberValues(v)) != 1 || taskNumber(in, v) {
				continue
			}
			o := k - 1
			for o >= 0 && (assigns[o] == nil || assigns[o][name] == "") {
				o--
			}
			if o < 0 || assigns[o][name] == v || !taskNumber(in, assigns[o][name]) {
				continue
			}
			for r := o + 1; r < k; r++ {
				if isAgentDecision(in, r) && !steps[r].Has(extract.KindToolResult) && !given(in, r) && text.Sets(r, name, v) {
					if _, ok := out[r]; !ok {
						out[r] = fmt.Sprintf("it asks for %s %s where the code of step %d had the task's %s, and the rewrite at step %d gives it", name, v, o, assigns[o][name], k)
					}
					break
				}
			}
		}
	}
	return out
}

// recount is, for step i, a count of a thing the task or a user counts
// with another value only ("3 times" where the task says "5 times"), the
// value they give, and the first later agent step that carries the
// count into code: sets a constant to it (MAX_RETRIES = 3). It returns
// -1 as the step when there is none.
func recount(in *Input, i int) (extract.Count, int, int) {
	if len(in.Features.Steps[i].Counts) == 0 || given(in, i) {
		return extract.Count{}, 0, -1
	}
	sup := in.supportIndex()
	text := sup.text
	for _, c := range in.Features.Steps[i].Counts {
		vals := sup.givenCounts(in, c.Noun, i)
		if len(vals) == 0 || slices.Contains(vals, c.Value) {
			continue
		}
		v := strconv.Itoa(c.Value)
		for k := i + 1; k < len(in.Features.Steps); k++ {
			f := &in.Features.Steps[k]
			if !isAgentDecision(in, k) || f.Has(extract.KindToolResult) || given(in, k) {
				continue
			}
			if slices.ContainsFunc(slices.Collect(maps.Values(text.Assigns(k))), func(a string) bool { return a == v }) {
				return c, vals[0], k
			}
		}
	}
	return extract.Count{}, 0, -1
}

// unitNumber reports whether the claim c (its key) is a bare number that
// is a factor between units (unitFactor) or an offset between scales of
// temperature (unitOffsets), as step i could use it.
func unitNumber(in *Input, c string, i int) bool {
	v, unit := (extract.Claim{Norm: c}).Value()
	x, err := strconv.ParseFloat(v, 64)
	return err == nil && unit == "" && (unitFactor(in, x, i) || unitOffsets[x])
}

// unitOffsets are the offsets between the scales of temperature: kelvins
// and degrees Celsius, Fahrenheit and Rankine.
var unitOffsets = map[float64]bool{273.15: true, 459.67: true}

// lookupsOnly reports whether step i is only calls that change nothing
// (a search, a lookup).
func lookupsOnly(in *Input, i int) bool {
	calls := in.Features.Steps[i].Calls
	return in.Run.Steps[i].Kind == run.KindToolCall && len(calls) > 0 && !slices.ContainsFunc(calls, extract.Call.Consequential)
}

// qualifiers returns, lowered, the parts a call of step i writes after a
// comma behind a place the task or a step before i names ("Japan" of
// "Tokyo, Japan"): a value of two or three short parts whose first is
// held, each part a name. Nil when no call writes one.
func qualifiers(in *Input, i int) map[string]bool {
	var out map[string]bool
	for _, c := range in.Features.Steps[i].Calls {
		for _, v := range c.Values {
			parts := strings.Split(v, ",")
			if len(parts) < 2 || len(parts) > 3 || !startsWord(strings.TrimSpace(parts[0])) || !in.supportIndex().before(strings.TrimSpace(parts[0]), i, from{}) {
				continue
			}
			for _, p := range parts[1:] {
				if p = strings.TrimSpace(p); startsWord(p) && len(strings.Fields(p)) <= 3 {
					if out == nil {
						out = map[string]bool{}
					}
					out[strings.ToLower(p)] = true
				}
			}
		}
	}
	return out
}

// startsWord reports whether s begins with a letter: a name, not a
// figure written with thousands' commas.
func startsWord(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	return unicode.IsLetter(r)
}

// namesYear reports whether claims hold a year, alone or in a date.
func namesYear(claims []extract.Claim) bool {
	return slices.ContainsFunc(claims, func(c extract.Claim) bool {
		return c.Kind == extract.ClaimDate || c.Kind == extract.ClaimNumber && isYear(c.Norm)
	})
}

// isYear reports whether a claim's normal form is a year of the last
// two centuries or so (1800 to 2199).
func isYear(norm string) bool {
	return len(norm) == 4 && allDigits(norm) && (norm[:2] == "18" || norm[:2] == "19" || norm[:2] == "20" || norm[:2] == "21")
}

func joinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// proposes reports whether a step proposes what to do rather than states
// what is: a plan, a re-plan or an instruction. Values in it are targets
// and examples, not claims.
func proposes(f *extract.Features) bool {
	return f.Has(extract.KindPlan) || f.Has(extract.KindReplan) || f.Has(extract.KindInstruction)
}

// runsCommands reports whether step i is only calls of tools given
// commands to run (a shell, an editor). The files a command names are
// what it looks at or changes, not facts it states (a made-up one fails
// the command); the values it writes out may be (echo "Temperature:
// 89°F" makes a reading up).
func runsCommands(in *Input, i int) bool {
	calls := in.Features.Steps[i].Calls
	return in.Run.Steps[i].Kind == run.KindToolCall && len(calls) > 0 &&
		!slices.ContainsFunc(calls, func(c extract.Call) bool { return c.Command() == "" })
}

// argumentPaths are the paths among a step's claims that one of its tool
// calls is given as an argument of its own (Claude Code's Read and Edit
// take a file_path): the file a call reads or changes, not a fact it
// states. A path written inside a longer argument (code, a query) is not.
func argumentPaths(f *extract.Features) []extract.Claim {
	var out []extract.Claim
	for _, c := range f.Claims {
		if c.Kind != extract.ClaimPath {
			continue
		}
		for _, call := range f.Calls {
			if slices.ContainsFunc(call.Values, func(v string) bool { return extract.FileLike(v) && strings.EqualFold(extract.PathNorm(v), c.Norm) }) {
				out = append(out, c)
				break
			}
		}
	}
	return out
}

// withoutSettings drops from keys (claim keys, as the graph gives them)
// the values among a step's claims that one of its calls is given as a
// setting of how its command line runs (a time limit, a working
// directory: extract's InCommand): the step's call states no fact by
// them.
func withoutSettings(keys []string, f *extract.Features) []string {
	setting := func(k string) bool {
		return slices.ContainsFunc(f.Claims, func(c extract.Claim) bool {
			return strings.EqualFold(c.Norm, k) && slices.ContainsFunc(f.Calls, func(call extract.Call) bool {
				return call.InCommand(strings.Trim(c.Text, `"'`))
			})
		})
	}
	if !slices.ContainsFunc(keys, setting) {
		return keys
	}
	return slices.DeleteFunc(slices.Clone(keys), setting)
}

// withoutPaths drops from keys (claim keys, as the graph gives them) the
// paths among a step's claims.
func withoutPaths(keys []string, claims []extract.Claim) []string {
	var out []string
	for _, k := range keys {
		if !slices.ContainsFunc(claims, func(c extract.Claim) bool { return c.Kind == extract.ClaimPath && strings.EqualFold(c.Norm, k) }) {
			out = append(out, k)
		}
	}
	return out
}

// opensSitePage reports whether claim c is written in an argument value
// of a call of step i that links to a page of the site the task names
// (siteHeld).
func opensSitePage(in *Input, i int, c string) bool {
	for _, call := range in.Features.Steps[i].Calls {
		for _, v := range call.Values {
			if strings.Contains(strings.ToLower(v), strings.ToLower(c)) && siteHeld(in.supportIndex(), v) {
				return true
			}
		}
	}
	return false
}

// introducedDays returns the day of a month (MM-DD) step i names in
// words without a year, the one such day it names, that neither the
// task, the system instructions nor a step before i names (in words or
// in a date), and a step after i names again. A step that names several
// days lists or works them out (the days of a range); one day alone is
// a date it states.
func introducedDays(in *Input, i int) []string {
	steps := in.Features.Steps
	if len(steps[i].MonthDays) != 1 {
		return nil
	}
	days := func(f *extract.Features) []string {
		out := slices.Clone(f.MonthDays)
		for _, c := range f.Claims {
			if c.Kind == extract.ClaimDate && len(c.Norm) == len("2006-01-02") {
				out = append(out, c.Norm[5:])
			}
		}
		return out
	}
	named := func(cs []extract.Claim, d string) bool {
		return slices.ContainsFunc(cs, func(c extract.Claim) bool {
			return c.Kind == extract.ClaimDate && strings.HasSuffix(c.Norm, "-"+d)
		})
	}
	d := steps[i].MonthDays[0]
	if named(in.Features.Question, d) || named(in.Features.Instructions, d) ||
		slices.ContainsFunc(steps[:i], func(f extract.Features) bool { return slices.Contains(days(&f), d) }) ||
		!slices.ContainsFunc(steps[i+1:], func(f extract.Features) bool { return slices.Contains(days(&f), d) }) {
		return nil
	}
	return []string{d}
}

// callSetting reports whether claim c (a claim key, as the graph gives
// it) is the whole of an argument value of one of a step's calls that
// unsupported_arguments does not read as a value (meaningful).
func callSetting(f *extract.Features, c string) bool {
	return slices.ContainsFunc(f.Calls, func(call extract.Call) bool {
		return slices.ContainsFunc(call.Values, func(v string) bool { return !meaningful(v) && strings.EqualFold(v, c) })
	})
}

// roundingHeld reports whether v is a figure step i writes with a
// magnitude's letter (extract.Claim.Rounding: "11k") that a figure of
// the task or of a step before i rounds to at the place of its last
// written digit ("11,013" or "10,950" for "11k"): the step wrote that
// figure, rounded, and made up no value.
func roundingHeld(in *Input, v string, i int) bool {
	var value, place float64
	found := false
	for _, c := range in.Features.Steps[i].Claims {
		if strings.EqualFold(c.Norm, v) {
			if value, place, found = c.Rounding(); found {
				break
			}
		}
	}
	if !found {
		return false
	}
	rounds := func(claims []extract.Claim) bool {
		return slices.ContainsFunc(claims, func(c extract.Claim) bool {
			if c.Kind != extract.ClaimNumber {
				return false
			}
			x, err := strconv.ParseFloat(c.Norm, 64)
			return err == nil && math.Abs(x-value) <= place/2
		})
	}
	if rounds(in.Features.Question) {
		return true
	}
	for j := range min(i, len(in.Features.Steps)) {
		if rounds(in.Features.Steps[j].Claims) {
			return true
		}
	}
	return false
}
