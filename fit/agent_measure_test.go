package fit

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// Causes of a held-out agent miss, as heldOutCause reads them.
const (
	causeCallerNotSpeaker = "right step, the tool's caller is not the labelled agent"
	causeSilentLabel      = "the labelled agent does not speak at the labelled step"
	causeInstruction      = "an instruction and the act it asks for, the other one blamed"
	causeUnseen           = "wrong step by another agent; no rule flags the labelled step"
	causeOutranked        = "wrong step by another agent; the labelled step flagged, in the top 5"
	causeOutrankedFar     = "wrong step by another agent; the labelled step flagged, below the top 5"
)

// heldOutCause classifies a held-out answer whose agent is not the
// label's.
func heldOutCause(ex Example, a rules.Attribution, flagged map[int]bool, rank int) string {
	steps := ex.In.Run.Steps
	label := ex.Label.Step
	if label < 0 || label >= len(steps) {
		return causeSilentLabel
	}
	if a.Step == label {
		return causeCallerNotSpeaker
	}
	if !run.NamesAgent(ex.Label.Agent, steps[label].Agent) {
		return causeSilentLabel
	}
	if a.Step >= 0 && a.Step < len(steps) {
		l, s := steps[label], steps[a.Step]
		if l.Kind == run.KindInstruction && run.SameAgent(l.Target(), s.Agent) ||
			s.Kind == run.KindInstruction && run.SameAgent(s.Target(), l.Agent) {
			return causeInstruction
		}
	}
	switch {
	case !flagged[label]:
		return causeUnseen
	case rank < 5:
		return causeOutranked
	}
	return causeOutrankedFar
}

// TestHeldOutAgentTable prints, for every run of the labelled systems held
// out by system, the label's agent and step beside the answer's, where the
// labelled step ranks, who speaks at it and who answers for it, the
// structural features and rules of both steps, and for each answer whose
// agent is wrong its cause (heldOutCause); then the causes counted per
// system, beside the runs whose labelled agent answers for the labelled
// step (the rules' agent for it, rules.StepRow.Agent). It is the table the
// held-out agent misses are read from.
func TestHeldOutAgentTable(t *testing.T) {
	if os.Getenv("OFFATTR_AGENT_TABLE") == "" {
		t.Skip("set OFFATTR_AGENT_TABLE=1 to print the held-out agent table (a minute)")
	}
	exs := load(t, runtest.DevDir(t), runtest.TauDir(t), runtest.TrailDir(t))
	held, _, err := CrossValidate(context.Background(), exs, FoldsByCorpus(exs), Options{Prior: EvidencePrior(rules.Registry)})
	require.NoError(t, err)
	names := rules.StepFeatureNames(rules.Registry)
	w := tabwriter.NewWriter(os.Stdout, 0, 0, 1, ' ', 0)
	fmt.Fprintln(w, "corpus\trun\tlabel\tstep\tanswer\tastep\trank\tspeaker\tanswerer\tlabel step reads\tanswer step reads\tcause")
	counts := map[string]map[string]int{}
	var corpora []string
	for i, ex := range exs {
		a := held[i]
		rank := -1
		for k, c := range a.Candidates {
			if c.Step == ex.Label.Step {
				rank = k
			}
		}
		flagged := map[int]bool{}
		reads := map[int]string{}
		for _, r := range ex.Rows {
			var on []string
			for k, x := range r.X {
				if x != 0 && !strings.HasPrefix(names[k], rules.ToolsPrefix) {
					on = append(on, names[k])
				}
			}
			flagged[r.Step] = slices.Contains(on, rules.FeatFlagged)
			reads[r.Step] = "-"
			if len(on) > 0 {
				reads[r.Step] = strings.Join(on, ",")
			}
		}
		speaker, answerer := "-", "-"
		if s := ex.Label.Step; s >= 0 && s < len(ex.In.Run.Steps) {
			speaker = ex.In.Run.Steps[s].Agent
		}
		for _, r := range ex.Rows {
			if r.Step == ex.Label.Step {
				answerer = r.Agent
			}
		}
		cause := "-"
		if !run.NamesAgent(ex.Label.Agent, a.Agent) {
			cause = heldOutCause(ex, a, flagged, rank)
		}
		if counts[ex.Corpus] == nil {
			counts[ex.Corpus] = map[string]int{}
			corpora = append(corpora, ex.Corpus)
		}
		counts[ex.Corpus]["runs"]++
		if run.NamesAgent(ex.Label.Agent, answerer) {
			counts[ex.Corpus]["answers"]++
			if !run.NamesAgent(ex.Label.Agent, speaker) {
				counts[ex.Corpus]["calls"]++
			}
		}
		counts[ex.Corpus][cause]++
		fmt.Fprintf(w, "%s\t%s\t%q\t%d\t%q\t%d\t%d\t%q\t%q\t%s\t%s\t%s\n", ex.Corpus, ex.Name, ex.Label.Agent, ex.Label.Step,
			a.Agent, a.Step, rank, speaker, answerer, reads[ex.Label.Step], reads[a.Step], cause)
	}
	require.NoError(t, w.Flush())
	for _, c := range corpora {
		fmt.Printf("\n%s: %d runs, agent right %d; the label's agent answers for the labelled step in %d (as the caller of its tool in %d)\n",
			c, counts[c]["runs"], counts[c]["-"], counts[c]["answers"], counts[c]["calls"])
		for _, cause := range []string{causeCallerNotSpeaker, causeSilentLabel, causeInstruction, causeUnseen, causeOutranked, causeOutrankedFar} {
			fmt.Printf("  %3d  %s\n", counts[c][cause], cause)
		}
	}
}
