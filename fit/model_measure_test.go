package fit

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"text/tabwriter"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/localllm"
	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// standInTable is one measurement of the model weights with a stand-in
// judge of accuracy p: each run's rules answer out of fold, then the
// model on it, weighed by the default weights and by weights fitted out
// of fold.
type standInTable struct {
	p                    float64
	rules, deflt, fitted []eval.Score
}

// measureStandIn asks a stand-in judge of accuracy p about every example,
// given the rules' out-of-fold answers, and scores the combinations.
func measureStandIn(t *testing.T, exs []Example, rulesCV []rules.Attribution, p float64, folds [][]int) standInTable {
	t.Helper()
	ctx := context.Background()
	judge := ollamatest.NewJudge(p, 7)
	judge.Shared = os.Getenv("OFFATTR_STANDIN_SHARED") != ""
	srv := ollamatest.New(ollamatest.Model{Name: "standin", ContextLength: 32768, Digest: "sha256:standin"})
	srv.Respond = judge.Reply
	t.Cleanup(srv.Close)
	j, err := localllm.New(ctx, localllm.Options{Model: "standin", Host: srv.URL, NoCache: true, Parallel: 4})
	require.NoError(t, err)
	cases, err := CollectModel(ctx, exs, rulesCV, j, func(ex *Example) { judge.Expect(ex.Label.Step) })
	require.NoError(t, err)
	deflt := make([]rules.Attribution, len(cases))
	for i, c := range cases {
		deflt[i] = PredictModel(nil, c)
	}
	lambda := 0.0
	if v := os.Getenv("OFFATTR_STANDIN_LAMBDA"); v != "" {
		lambda, _ = strconv.ParseFloat(v, 64)
	}
	fitted, err := CrossValidateModel(ctx, cases, folds, "standin", nil, lambda)
	require.NoError(t, err)
	out := standInTable{p: p}
	out.rules, _ = scoreAll(exs, rulesCV)
	out.deflt, _ = scoreAll(exs, deflt)
	out.fitted, _ = scoreAll(exs, fitted)
	return out
}

func scoreAll(exs []Example, as []rules.Attribution) ([]eval.Score, eval.Score) {
	subs, all := Score(exs, as)
	return append(subs, all), all
}

func writeStandIn(w io.Writer, tables []standInTable) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "judge\tcorpus\tcases\trules only\tdefault\tfitted (CV)\tmodel alone\texposure\t")
	for _, tb := range tables {
		for k, s := range tb.deflt {
			alone, exposure := 0.0, 0.0
			if s.ModelOnly != nil {
				alone, exposure = s.ModelOnly.StepAccuracy, *s.ModelExposure
			}
			fmt.Fprintf(tw, "p=%.1f\t%s\t%d\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t\n", tb.p, s.Name, s.Cases, tb.rules[k].StepAccuracy, s.StepAccuracy, tb.fitted[k].StepAccuracy, alone, exposure)
		}
	}
	tw.Flush()
}

// TestStandInJudgeTable measures step accuracy with stand-in judges of
// accuracy 1, .5, .3 and 0 on every labelled corpus beside the
// repository, under 10-fold cross-validation: the rules' weights and the
// model weights are each fitted on nine folds and score the tenth. It
// asks thousands of model calls of each judge, so it runs only when
// OFFATTR_STANDIN_TABLE is set, and prints the table (trail-gaia's cases
// are the subset "cases"). OFFATTR_STANDIN_SHARED=1 makes each panel's
// analysts answer as one (ollamatest.Judge.Shared).
func TestStandInJudgeTable(t *testing.T) {
	if os.Getenv("OFFATTR_STANDIN_TABLE") == "" {
		t.Skip("set OFFATTR_STANDIN_TABLE=1 to measure the stand-in judges (minutes)")
	}
	// OFFATTR_STANDIN_TABLE=dev measures Who&When's dev half alone.
	paths := []string{runtest.DevDir(t)}
	if os.Getenv("OFFATTR_STANDIN_TABLE") != "dev" {
		paths = append(paths, runtest.TauDir(t))
		if trail := filepath.Join(runtest.DevDir(t), "..", "..", "trail-gaia", "cases"); dirExists(trail) {
			paths = append(paths, trail)
		}
	}
	subsets, err := eval.Discover(paths)
	require.NoError(t, err)
	ctx := context.Background()
	exs, err := Load(ctx, subsets, run.Options{}, rules.Registry, io.Discard)
	require.NoError(t, err)
	folds := KFolds(exs, 10)
	rulesCV, _, err := CrossValidate(ctx, exs, folds, Options{Prior: EvidencePrior(rules.Registry)})
	require.NoError(t, err)
	var tables []standInTable
	for _, p := range []float64{1, 0.5, 0.3, 0} {
		tables = append(tables, measureStandIn(t, exs, rulesCV, p, folds))
	}
	var b strings.Builder
	writeStandIn(&b, tables)
	t.Log("\n" + b.String())
}

func dirExists(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
