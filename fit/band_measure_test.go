package fit

import (
	"context"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// answerFacts are the label-free properties of one held-out answer that a
// clear band could be chosen on, and whether the answer was right.
type answerFacts struct {
	name, corpus string
	hit          bool
	p, conf      float64 // the step model's probability of the answer; its calibrated confidence
	logMargin    float64 // log of p over the best other step's
	agree        bool    // the rules' own ranking (evidence weights) answers the same step
	agreeing     int     // analyzers with a finding at the answer's step
	alone        int     // models fitted on one other system each that answer the same step
	alones       int     // how many such models there are
	steps        int
	// rulesAt and kindsAt are the rules, and the kinds of fact (a rule and
	// the start of its reason), of the positive findings at the answer's
	// step; rulesElse and kindsElse those at any other step.
	rulesAt, kindsAt     []string
	rulesElse, kindsElse map[string]bool
	// agentShare is the step model's probability mass on the steps the
	// answer's agent answers for; loneAgent is true when no other step of
	// that agent holds a positive finding.
	agentShare float64
	loneAgent  bool
	// direct is true when a fact at the answer's step shows the failure
	// itself: an error in its own output or in a tool result it called,
	// or a claim the ground truth contradicts.
	direct bool
	// entropy is the step model's entropy over the run's steps, over the
	// most it could be (log of their number): 0 when sure of one step.
	entropy float64
	// loro is true when dropping any one analyzer's findings leaves the
	// answer's step as it is; dropped counts the analyzers that had any.
	loro    bool
	dropped int
	// guesses are the label-free guesses that answer the same step.
	guesses map[string]bool
	// spread is the step model's spread (rules.Spread, in nats, as fit
	// chooses its clear band on); lumped, the same with the mass of the
	// steps no analyzer flags taken as one outcome; unrepeated, the
	// spread over the steps but those that only repeat a call the step
	// before wrote in its code (a tool span of a code agent's call).
	spread, lumped, unrepeated float64
}

func factsOf(ex Example, a, own rules.Attribution) answerFacts {
	f := answerFacts{name: ex.Name, corpus: ex.Corpus, hit: a.Step == ex.Label.Step, conf: a.Confidence, agree: own.Step == a.Step,
		steps: len(ex.Rows), rulesElse: map[string]bool{}, kindsElse: map[string]bool{}}
	second := 0.0
	for _, c := range a.Candidates {
		if c.Step == a.Step {
			f.p = c.Score
		} else {
			second = max(second, c.Score)
		}
	}
	f.logMargin = math.Log(max(f.p, 1e-6) / max(second, 1e-6))
	f.agreeing = rules.Agreeing(ex.findings, a.Step)
	for _, fd := range ex.findings {
		if fd.Strength <= 0 {
			continue
		}
		kind := fd.Rule + "|" + reasonKind(fd.Reason)
		if fd.Step != a.Step {
			f.rulesElse[fd.Rule], f.kindsElse[kind] = true, true
			continue
		}
		if !slices.Contains(f.rulesAt, fd.Rule) {
			f.rulesAt = append(f.rulesAt, fd.Rule)
		}
		if !slices.Contains(f.kindsAt, kind) {
			f.kindsAt = append(f.kindsAt, kind)
		}
	}
	sort.Strings(f.rulesAt)
	sort.Strings(f.kindsAt)
	f.loneAgent = true
	agentOf := map[int]string{}
	for _, r := range ex.Rows {
		agentOf[r.Step] = r.Agent
	}
	for _, fd := range ex.findings {
		if fd.Strength > 0 && fd.Step != a.Step && agentOf[fd.Step] == a.Agent {
			f.loneAgent = false
		}
		if fd.Strength > 0 && fd.Step == a.Step && fd.Rule == "ground_truth_contradiction" {
			f.direct = true
		}
	}
	h := 0.0
	for _, c := range a.Candidates {
		if c.Agent == a.Agent {
			f.agentShare += c.Score
		}
		if c.Score > 0 {
			h -= c.Score * math.Log(c.Score)
		}
	}
	if len(ex.Rows) > 1 {
		f.entropy = h / math.Log(float64(len(ex.Rows)))
	}
	for i, st := range ex.In.Features.Steps {
		if (i == a.Step || int(st.Caller) == a.Step) && len(st.Errors) > 0 {
			f.direct = true
		}
	}
	f.guesses = map[string]bool{}
	for _, g := range rules.Guesses {
		if rules.Baselines[g](ex.In).Step == a.Step {
			f.guesses[g] = true
		}
	}
	return f
}

// spreadsOf returns the spreads of ex under w (answerFacts.spread,
// lumped, unrepeated), its answer at step.
func spreadsOf(w *rules.Weights, ex Example, step int) (spread, lumped, unrepeated float64) {
	p := w.Score(rules.Registry, ex.Rows).P
	flagged := slices.Index(rules.StepFeatureNames(rules.Registry), rules.FeatFlagged)
	rest, kept, total := 0.0, []float64{}, 0.0
	for i, row := range ex.Rows {
		if row.X[flagged] > 0 {
			lumped -= entropyTerm(p[i])
		} else {
			rest += p[i]
		}
		st := &ex.In.Features.Steps[row.Step]
		repeats := row.Step != step && row.Step > 0 && row.X[flagged] == 0 && len(st.Calls) > 0 &&
			!st.Has(extract.KindToolResult) && len(ex.In.Features.Steps[row.Step-1].Code) > 0
		if !repeats {
			kept = append(kept, p[i])
			total += p[i]
		}
	}
	lumped -= entropyTerm(rest)
	for i := range kept {
		kept[i] /= total
	}
	return rules.Spread(p), max(lumped, 0), rules.Spread(kept)
}

// entropyTerm is x log x, 0 at 0.
func entropyTerm(x float64) float64 {
	if x <= 0 {
		return 0
	}
	return x * math.Log(x)
}

// leaveOneRuleOut reports whether w answers ex with the same step after
// dropping any one analyzer's findings, and how many analyzers had any.
func leaveOneRuleOut(w *rules.Weights, ex Example, step int) (bool, int) {
	var names []string
	for _, fd := range ex.findings {
		if !slices.Contains(names, fd.Rule) {
			names = append(names, fd.Rule)
		}
	}
	for _, name := range names {
		kept := slices.DeleteFunc(slices.Clone(ex.findings), func(fd rules.Finding) bool { return fd.Rule == name })
		rows := rules.StepRows(ex.In, rules.Registry, kept)
		if w.Decide(ex.In, rules.Registry, rows, kept).Step != step {
			return false, len(names)
		}
	}
	return true, len(names)
}

// reasonKind is the start of a finding's reason, up to its first figure
// or quote, without the names written as code it holds (a tool's): the
// kind of fact the rule found, in words any system's finding of it has.
func reasonKind(reason string) string {
	if i := strings.IndexAny(reason, "0123456789\"'(`:"); i >= 0 {
		reason = reason[:i]
	}
	words := strings.Fields(reason)
	words = slices.DeleteFunc(words, func(w string) bool { return strings.Contains(w, "_") })
	if len(words) > 8 {
		words = words[:8]
	}
	return strings.Join(words, " ")
}

// criterion is a way to pick the surest answers: chosen on some answers
// (train), it says which others it clears.
type criterion struct {
	name   string
	choose func(train []answerFacts) func(answerFacts) bool
}

// choice is how a threshold is chosen on train: the lowest at which the
// answers at or above it are right often enough on each corpus among them
// (at .75, or at at when it is set, or, with z > 0, the lower end of their
// Wilson interval at .75, as chooseBands) and cover at least cover of
// train.
type choice struct {
	cover, z, at float64
}

var (
	coverTenth = choice{cover: clearCoverage}
	anyCover   = choice{}
	asBands    = choice{cover: clearCoverage, z: clearZ}
	// asSpread is how fit chooses the spread (chooseSpread); byWilson
	// asks the lower end of the Wilson interval instead, without a cover.
	asSpread = choice{at: spreadAccuracy}
	byWilson = choice{z: clearZ}
)

// thresholdOn chooses, by c, a threshold on key among the answers gate
// admits; none found clears nothing.
func thresholdOn(key func(answerFacts) float64, c choice, gate func(train []answerFacts) func(answerFacts) bool) func([]answerFacts) func(answerFacts) bool {
	return func(train []answerFacts) func(answerFacts) bool {
		g := func(answerFacts) bool { return true }
		if gate != nil {
			g = gate(train)
		}
		var in []answerFacts
		for _, f := range train {
			if g(f) {
				in = append(in, f)
			}
		}
		sort.SliceStable(in, func(a, b int) bool { return key(in[a]) > key(in[b]) })
		cov, hit := map[string]int{}, map[string]int{}
		best := math.Inf(1)
		for k, f := range in {
			cov[f.corpus]++
			if f.hit {
				hit[f.corpus]++
			}
			if k < len(in)-1 && key(in[k+1]) == key(f) || float64(k+1) < c.cover*float64(len(train)) {
				continue
			}
			ok, at := true, clearAccuracy
			if c.at > 0 {
				at = c.at
			}
			for corpus, n := range cov {
				if c.z > 0 && wilsonLower(hit[corpus], n, c.z) < clearAccuracy+wilsonTie || float64(hit[corpus]) < at*float64(n)-wilsonTie {
					ok = false
				}
			}
			if ok {
				best = key(f)
			}
		}
		return func(f answerFacts) bool { return g(f) && key(f) >= best }
	}
}

// precise are the families (at's entries) whose presence at the
// answer's step was, on each corpus of train where it was so at least
// twice, right at .75, and pooled at least four times.
func precise(train []answerFacts, at func(answerFacts) []string) map[string]bool {
	cov, hit := map[string]map[string]int{}, map[string]map[string]int{}
	for _, f := range train {
		for _, r := range at(f) {
			if cov[r] == nil {
				cov[r], hit[r] = map[string]int{}, map[string]int{}
			}
			cov[r][f.corpus]++
			if f.hit {
				hit[r][f.corpus]++
			}
		}
	}
	out := map[string]bool{}
	for r, byCorpus := range cov {
		n, ok := 0, true
		for c, k := range byCorpus {
			n += k
			if k >= 2 && float64(hit[r][c]) < clearAccuracy*float64(k) {
				ok = false
			}
		}
		if ok && n >= 4 {
			out[r] = true
		}
	}
	return out
}

// holdsPrecise clears an answer whose step holds a family precise on
// train; lone, only if no other step holds one.
func holdsPrecise(kinds, lone bool) func(train []answerFacts) func(answerFacts) bool {
	at, elsewhere := func(f answerFacts) []string { return f.rulesAt }, func(f answerFacts) map[string]bool { return f.rulesElse }
	if kinds {
		at, elsewhere = func(f answerFacts) []string { return f.kindsAt }, func(f answerFacts) map[string]bool { return f.kindsElse }
	}
	return func(train []answerFacts) func(answerFacts) bool {
		fam := precise(train, at)
		return func(f answerFacts) bool {
			if !slices.ContainsFunc(at(f), func(r string) bool { return fam[r] }) {
				return false
			}
			for r := range elsewhere(f) {
				if lone && fam[r] {
					return false
				}
			}
			return true
		}
	}
}

func byP(f answerFacts) float64      { return f.p }
func byConf(f answerFacts) float64   { return f.conf }
func byMargin(f answerFacts) float64 { return f.logMargin }

func agreed([]answerFacts) func(answerFacts) bool {
	return func(f answerFacts) bool { return f.agree }
}

func stable([]answerFacts) func(answerFacts) bool {
	return func(f answerFacts) bool { return f.alones > 0 && f.alone == f.alones }
}

func byAgentShare(f answerFacts) float64 { return f.agentShare }
func bySpread(f answerFacts) float64     { return -f.spread }
func byLumped(f answerFacts) float64     { return -f.lumped }
func byUnrepeated(f answerFacts) float64 { return -f.unrepeated }

// spreadOrConf clears an answer at or below the spread chosen as fit
// chooses it, or at or above a confidence chosen so that the two
// together cover a tenth of train and, on each corpus, hold the lower end
// of their Wilson interval at .75 (chooseBands' test, for the band as a
// whole).
func spreadOrConf(train []answerFacts) func(answerFacts) bool {
	bySpreadOnly := thresholdOn(bySpread, asSpread, nil)(train)
	in := slices.Clone(train)
	sort.SliceStable(in, func(a, b int) bool { return in[a].conf > in[b].conf })
	cov, hit, k := map[string]int{}, map[string]int{}, 0
	add := func(f answerFacts) {
		k++
		cov[f.corpus]++
		if f.hit {
			hit[f.corpus]++
		}
	}
	for _, f := range in {
		if bySpreadOnly(f) {
			add(f)
		}
	}
	bar := math.Inf(1)
	for j, f := range in {
		if !bySpreadOnly(f) {
			add(f)
		}
		if j < len(in)-1 && in[j+1].conf == f.conf || float64(k) < clearCoverage*float64(len(train)) {
			continue
		}
		if everyCorpusRight(cov, hit) {
			bar = f.conf
			break
		}
	}
	return func(f answerFacts) bool { return bySpreadOnly(f) || f.conf >= bar }
}
func bySureness(f answerFacts) float64 { return -f.entropy }

func loneAgent([]answerFacts) func(answerFacts) bool {
	return func(f answerFacts) bool { return f.loneAgent }
}

func direct([]answerFacts) func(answerFacts) bool {
	return func(f answerFacts) bool { return f.direct }
}

func loro([]answerFacts) func(answerFacts) bool {
	return func(f answerFacts) bool { return f.loro && f.dropped > 0 }
}

func anyGuess([]answerFacts) func(answerFacts) bool {
	return func(f answerFacts) bool { return len(f.guesses) > 0 }
}

// trainBestGuess clears an answer that the label-free guess right most often
// on train answers too.
func trainBestGuess(train []answerFacts) func(answerFacts) bool {
	best, most := "", -1
	for _, g := range rules.Guesses {
		n := 0
		for _, f := range train {
			if f.guesses[g] && f.hit {
				n++
			}
		}
		if n > most {
			best, most = g, n
		}
	}
	return func(f answerFacts) bool { return f.guesses[best] }
}

// bandCriteria are the criteria measured: a threshold on the step model's
// probability, the calibrated confidence or the log margin over the next
// step, chosen three ways; on the number of analyzers agreeing; the
// rules' own ranking (evidence weights) answering the same step; every
// model fitted on one other system alone answering it; the answer's step
// holding a family of findings (a rule, or a kind of fact of one) precise
// on the other systems, alone or with no other step holding one; a
// threshold on the step model's probability mass on the answer's agent, or
// on its entropy (normalized by the most it could be); the answer's step
// being its agent's only one with a positive finding; a fact at the step
// showing the failure itself (an error in it or in a result it called, a
// claim the ground truth contradicts); the answer surviving the loss of
// any one analyzer's findings; the label-free guess best on train, or any
// guess, answering the same step; some of these gating a threshold on the
// probability; the step model's spread (rules.Spread, the entropy in
// nats) chosen as fit chooses it (at .85 on each corpus), or by the lower
// end of its Wilson interval at .75, or measured with the mass of the
// steps no analyzer flags taken as one outcome, or without the steps that
// only repeat a call the step before wrote in its code; and the spread or
// a confidence chosen so the two together hold. Here each is chosen on
// the other systems' held-out answers read with their ground truth; fit
// chooses the band on answers held out within its own training systems,
// and for runs without a ground truth (TRAIL's) on those answers read
// without one: TestClearBandHeldOut measures the band as fit applies it.
var bandCriteria = []criterion{
	{"p", thresholdOn(byP, coverTenth, nil)},
	{"p-any", thresholdOn(byP, anyCover, nil)},
	{"p-bands", thresholdOn(byP, asBands, nil)},
	{"conf", thresholdOn(byConf, coverTenth, nil)},
	{"conf-any", thresholdOn(byConf, anyCover, nil)},
	{"margin", thresholdOn(byMargin, coverTenth, nil)},
	{"margin-any", thresholdOn(byMargin, anyCover, nil)},
	{"agreeing", thresholdOn(func(f answerFacts) float64 { return float64(f.agreeing) + f.p/10 }, coverTenth, nil)},
	{"agree", agreed},
	{"agree+p", thresholdOn(byP, anyCover, agreed)},
	{"stable", stable},
	{"stable+p", thresholdOn(byP, anyCover, stable)},
	{"rule", holdsPrecise(false, false)},
	{"rule-lone", holdsPrecise(false, true)},
	{"fact", holdsPrecise(true, false)},
	{"fact-lone", holdsPrecise(true, true)},
	{"agent-share", thresholdOn(byAgentShare, coverTenth, nil)},
	{"agent-share-any", thresholdOn(byAgentShare, anyCover, nil)},
	{"lone-agent", loneAgent},
	{"lone-agent+p", thresholdOn(byP, anyCover, loneAgent)},
	{"direct", direct},
	{"direct+p", thresholdOn(byP, anyCover, direct)},
	{"loro", loro},
	{"loro+p", thresholdOn(byP, anyCover, loro)},
	{"entropy", thresholdOn(bySureness, coverTenth, nil)},
	{"entropy-any", thresholdOn(bySureness, anyCover, nil)},
	{"guess-best", trainBestGuess},
	{"guess-any", anyGuess},
	{"guess-any+p", thresholdOn(byP, anyCover, anyGuess)},
	{"spread", thresholdOn(bySpread, asSpread, nil)},
	{"spread-wilson", thresholdOn(bySpread, byWilson, nil)},
	{"spread-lumped", thresholdOn(byLumped, asSpread, nil)},
	{"spread-unrepeated", thresholdOn(byUnrepeated, asSpread, nil)},
	{"spread|conf", spreadOrConf},
}

// TestBandCriteriaTable measures label-free criteria for the clear band
// on every held-out answer of the labelled systems, TRAIL read as cases
// and as traces: each criterion is chosen on the other systems' held-out
// answers and applied to the one held out (a criterion holds where, on
// every system it clears runs of, they are right at .75, and it clears a
// tenth of all runs pooled). It prints, per kind of fact a finding
// records, how often an answer whose step holds it was right, and, as a
// fifth view, what each criterion chosen on every labelled system clears
// of the constructed kinds. It fits some twenty times, so it runs only
// when OFFATTR_BAND_TABLE is set: to a directory, the shared data there,
// else ../shared. OFFATTR_BAND_SET=cases (or traces) measures one
// reading; OFFATTR_BAND_DUMP=PREFIX writes each answer's facts to
// PREFIX.cases.tsv and PREFIX.traces.tsv.
func TestBandCriteriaTable(t *testing.T) {
	ctx := context.Background()
	var out strings.Builder
	for _, set := range loadBandSets(ctx, t, "to measure criteria for the clear band (a minute)") {
		exs, fo := set.exs, Options{Prior: EvidencePrior(rules.Registry)}
		folds := FoldsByCorpus(exs)
		atts, heldW := make([]rules.Attribution, len(exs)), make([]*rules.Weights, len(exs))
		for _, held := range folds {
			w, err := Fit(ctx, without(exs, held), fo)
			require.NoError(t, err)
			for _, i := range held {
				atts[i], heldW[i] = Predict(w, exs[i], rules.Registry), w
			}
		}
		own := EvidencePrior(rules.Registry)
		// Each other system alone: does a model fitted on it answer the
		// held-out run with the same step?
		same, models := make([]int, len(exs)), make([]int, len(exs))
		for _, held := range folds {
			for _, other := range folds {
				if other[0] == held[0] {
					continue
				}
				var one []Example
				for _, i := range other {
					one = append(one, exs[i])
				}
				w, err := Fit(ctx, one, fo)
				require.NoError(t, err)
				for _, i := range held {
					models[i]++
					if Predict(w, exs[i], rules.Registry).Step == atts[i].Step {
						same[i]++
					}
				}
			}
		}
		var facts []answerFacts
		for i, ex := range exs {
			if atts[i].Step < 0 {
				continue
			}
			f := factsOf(ex, atts[i], Predict(own, ex, rules.Registry))
			f.alone, f.alones = same[i], models[i]
			f.loro, f.dropped = leaveOneRuleOut(heldW[i], ex, atts[i].Step)
			f.spread, f.lumped, f.unrepeated = spreadsOf(heldW[i], ex, atts[i].Step)
			facts = append(facts, f)
		}
		if path := os.Getenv("OFFATTR_BAND_DUMP"); path != "" {
			var b strings.Builder
			for _, f := range facts {
				fmt.Fprintf(&b, "%s\t%s\t%v\t%.4f\t%.4f\t%.3f\t%v\t%d\t%d\t%d\t%d\t%.4f\t%v\t%v\t%.4f\t%v\t%d\t%s\t%s\t%s\n", f.corpus, f.name, f.hit, f.p, f.conf, f.logMargin, f.agree, f.agreeing, f.steps, f.alone, f.alones,
					f.agentShare, f.loneAgent, f.direct, f.entropy, f.loro, f.dropped, strings.Join(slices.Sorted(maps.Keys(f.guesses)), ";"),
					strings.Join(f.kindsAt, ";"), strings.Join(slices.Sorted(maps.Keys(f.kindsElse)), ";"))
			}
			require.NoError(t, os.WriteFile(path+"."+set.name+".tsv", []byte(b.String()), 0o644))
		}
		writeFamilyTable(&out, set.name, facts)
		writeCriteriaTable(&out, set.name, facts)
		if set.name == "cases" {
			w, err := Fit(ctx, exs, fo)
			require.NoError(t, err)
			ksubs, err := eval.Discover([]string{filepath.Join("..", "testdata", "kinds")})
			require.NoError(t, err)
			kexs, err := Load(ctx, ksubs, run.Options{}, rules.Registry, io.Discard)
			require.NoError(t, err)
			var alone []*rules.Weights
			for _, fold := range folds {
				var one []Example
				for _, i := range fold {
					one = append(one, exs[i])
				}
				w1, err := Fit(ctx, one, fo)
				require.NoError(t, err)
				alone = append(alone, w1)
			}
			var kfacts []answerFacts
			for _, ex := range kexs {
				a := Predict(w, ex, rules.Registry)
				if a.Step < 0 {
					continue
				}
				f := factsOf(ex, a, Predict(own, ex, rules.Registry))
				f.loro, f.dropped = leaveOneRuleOut(w, ex, a.Step)
				f.spread, f.lumped, f.unrepeated = spreadsOf(w, ex, a.Step)
				for _, w1 := range alone {
					f.alones++
					if Predict(w1, ex, rules.Registry).Step == a.Step {
						f.alone++
					}
				}
				kfacts = append(kfacts, f)
			}
			writeKindsTable(&out, facts, kfacts)
		}
	}
	t.Log(out.String())
}

// bandSet is one reading of the labelled systems: TRAIL as cases or as
// traces.
type bandSet struct {
	name string
	exs  []Example
}

// loadBandSets loads the readings the band measures use, from
// OFFATTR_BAND_TABLE (a directory, else the shared data), skipping the test
// (to say why it would run) when it is not set; OFFATTR_BAND_SET=cases (or
// traces) keeps one.
func loadBandSets(ctx context.Context, t *testing.T, why string) []bandSet {
	t.Helper()
	root := os.Getenv("OFFATTR_BAND_TABLE")
	if root == "" {
		t.Skip("set OFFATTR_BAND_TABLE=1 (or the shared data directory) " + why)
	}
	return loadReadings(ctx, t, root, os.Getenv("OFFATTR_BAND_SET"))
}

// loadReadings loads the labelled systems from root (a directory, else the
// shared data) in both readings of TRAIL, its cases and its traces with
// their labels; only, when not empty, keeps the one of that name.
func loadReadings(ctx context.Context, t *testing.T, root, only string) []bandSet {
	t.Helper()
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		root = runtest.SharedDir(t)
	}
	var out []bandSet
	for _, set := range []struct {
		name   string
		dirs   []string
		labels string
	}{
		{"cases", []string{"whowhen/dev", "tau-retail", "trail-gaia/cases"}, ""},
		{"traces", []string{"whowhen/dev", "tau-retail", "trail-gaia/traces"}, "trail-gaia/labels.jsonl"},
	} {
		if only != "" && only != set.name {
			continue
		}
		var dirs []string
		for _, d := range set.dirs {
			dirs = append(dirs, filepath.Join(root, d))
		}
		subs, err := eval.Discover(dirs)
		require.NoError(t, err)
		var opts run.Options
		if set.labels != "" {
			opts.Labels, err = run.ReadLabels(filepath.Join(root, set.labels), 0)
			require.NoError(t, err)
		}
		exs, err := Load(ctx, subs, opts, rules.Registry, io.Discard)
		require.NoError(t, err)
		out = append(out, bandSet{set.name, exs})
	}
	return out
}

// answerCorpora returns the corpora of facts in first-seen order.
func answerCorpora(facts []answerFacts) []string {
	var cs []string
	for _, f := range facts {
		if !slices.Contains(cs, f.corpus) {
			cs = append(cs, f.corpus)
		}
	}
	return cs
}

// writeFamilyTable prints, per kind of fact (a rule and the start of its
// reason) and held-out corpus, how often an answer whose step holds it was
// right, and how often any answer was.
func writeFamilyTable(w io.Writer, set string, facts []answerFacts) {
	cs := answerCorpora(facts)
	fmt.Fprintf(w, "\n[%s] answers whose step holds a kind of fact: right/held per held-out corpus\n%-64s", set, "kind of fact")
	for _, c := range cs {
		fmt.Fprintf(w, " %8.8s", c)
	}
	fmt.Fprintln(w)
	var kinds []string
	for _, f := range facts {
		for _, k := range f.kindsAt {
			if !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
	}
	sort.Strings(kinds)
	row := func(name string, holds func(answerFacts) bool) {
		fmt.Fprintf(w, "%-64.64s", name)
		for _, c := range cs {
			n, k := 0, 0
			for _, f := range facts {
				if f.corpus == c && holds(f) {
					n++
					if f.hit {
						k++
					}
				}
			}
			fmt.Fprintf(w, " %8s", fmt.Sprintf("%d/%d", k, n))
		}
		fmt.Fprintln(w)
	}
	for _, kind := range kinds {
		row(kind, func(f answerFacts) bool { return slices.Contains(f.kindsAt, kind) })
	}
	row("every answer", func(answerFacts) bool { return true })
}

// writeCriteriaTable prints, per criterion and held-out corpus, what the
// criterion chosen on the other corpora clears of it and how often that
// was right; then the pooled coverage and whether it passes (.75 on every
// held-out corpus it clears, 10% pooled).
func writeCriteriaTable(w io.Writer, set string, facts []answerFacts) {
	cs := answerCorpora(facts)
	fmt.Fprintf(w, "\n[%s] criterion chosen on the other corpora, applied to the held-out one: right/cleared\n%-20s", set, "criterion")
	for _, c := range cs {
		fmt.Fprintf(w, " %12.12s", c)
	}
	fmt.Fprintf(w, " %10s %8s %s\n", "pooled", "cover", "pass")
	for _, cr := range bandCriteria {
		fmt.Fprintf(w, "%-20s", cr.name)
		tn, tk, pass := 0, 0, true
		for _, c := range cs {
			var train, test []answerFacts
			for _, f := range facts {
				if f.corpus == c {
					test = append(test, f)
				} else {
					train = append(train, f)
				}
			}
			clears := cr.choose(train)
			n, k := 0, 0
			for _, f := range test {
				if clears(f) {
					n++
					if f.hit {
						k++
					}
				}
			}
			if n > 0 && float64(k) < .75*float64(n) {
				pass = false
			}
			tn, tk = tn+n, tk+k
			fmt.Fprintf(w, " %12s", fmt.Sprintf("%d/%d", k, n))
		}
		cover := float64(tn) / float64(len(facts))
		if cover < .10 {
			pass = false
		}
		fmt.Fprintf(w, " %10s %8.3f %v\n", fmt.Sprintf("%d/%d", tk, tn), cover, pass)
	}
}

// writeKindsTable prints, per constructed kind, what each criterion chosen
// on every labelled system's held-out answers (labelled) clears of the
// kind's answers under weights fitted on all of them, and how often that
// was right; and what the surest tenth of the kind's own answers by the
// step model's probability holds.
func writeKindsTable(w io.Writer, labelled, kinds []answerFacts) {
	clears := make([]func(answerFacts) bool, len(bandCriteria))
	fmt.Fprintf(w, "\n[kinds] criterion chosen on every labelled system's held-out answers: right/cleared of the kind's runs\n%-18s %5s", "kind", "runs")
	for i, cr := range bandCriteria {
		clears[i] = cr.choose(labelled)
		fmt.Fprintf(w, " %10s", cr.name)
	}
	fmt.Fprintf(w, " %10s\n", "top10%p")
	for _, kind := range append(answerCorpora(kinds), "overall") {
		var in []answerFacts
		for _, f := range kinds {
			if f.corpus == kind || kind == "overall" {
				in = append(in, f)
			}
		}
		fmt.Fprintf(w, "%-18.18s %5d", kind, len(in))
		for i := range bandCriteria {
			n, k := 0, 0
			for _, f := range in {
				if clears[i](f) {
					n++
					if f.hit {
						k++
					}
				}
			}
			fmt.Fprintf(w, " %10s", fmt.Sprintf("%d/%d", k, n))
		}
		sorted := slices.Clone(in)
		sort.SliceStable(sorted, func(a, b int) bool { return sorted[a].p > sorted[b].p })
		top := sorted[:int(math.Ceil(.1*float64(len(sorted))))]
		k := 0
		for _, f := range top {
			if f.hit {
				k++
			}
		}
		fmt.Fprintf(w, " %10s\n", fmt.Sprintf("%d/%d", k, len(top)))
	}
}

// TestClearBandHeldOut measures the triage as fit chooses it, on systems
// it has not seen: for each labelled corpus, the weights fitted on the
// others (bands chosen on their own held-out answers) triage its runs; it
// prints, per corpus and band, right/runs, and whether clear holds .75 on
// every corpus it clears runs of and covers a tenth of all runs pooled.
// It fits once per corpus and reading, so it runs only when
// OFFATTR_BAND_TABLE is set, as TestBandCriteriaTable.
func TestClearBandHeldOut(t *testing.T) {
	ctx := context.Background()
	var out strings.Builder
	for _, set := range loadBandSets(ctx, t, "to measure the clear band on held-out systems (a minute)") {
		exs, fo := set.exs, Options{Prior: EvidencePrior(rules.Registry)}
		fmt.Fprintf(&out, "\n[%s] held-out corpus: bands fitted on the others (those it applies); right/runs per band\n%-22s %-30s %10s %10s %10s\n", set.name, "corpus", "bands", "clear", "review", "escalate")
		total, cleared, pass := 0, 0, true
		for _, fold := range FoldsByCorpus(exs) {
			w, err := Fit(ctx, without(exs, fold), fo)
			require.NoError(t, err)
			n, k := map[string]int{}, map[string]int{}
			for _, i := range fold {
				a := Predict(w, exs[i], rules.Registry)
				n[a.Triage]++
				if a.Step == exs[i].Label.Step {
					k[a.Triage]++
				}
			}
			total += len(fold)
			cleared += n["clear"]
			if n["clear"] > 0 && float64(k["clear"]) < clearAccuracy*float64(n["clear"]) {
				pass = false
			}
			// The bands its runs are triaged by: a run without a ground
			// truth by those chosen on runs read without theirs.
			var applied []string
			for _, i := range fold {
				if b := fmt.Sprintf("%+v", w.BandsFor(exs[i].In.Run)); !slices.Contains(applied, b) {
					applied = append(applied, b)
				}
			}
			fmt.Fprintf(&out, "%-22.22s %-30s", exs[fold[0]].Corpus, strings.Join(applied, " "))
			for _, c := range []string{"clear", "review", "escalate"} {
				fmt.Fprintf(&out, " %10s", fmt.Sprintf("%d/%d", k[c], n[c]))
			}
			fmt.Fprintln(&out)
		}
		cover := float64(cleared) / float64(total)
		fmt.Fprintf(&out, "clear covers %d/%d = %.3f; holds: %v\n", cleared, total, cover, pass && cover >= clearCoverage)
	}
	t.Log(out.String())
}
