package fitcmd

import (
	"context"
	"fmt"
	"strings"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/fit"
	"github.com/offattr/offattr/rules"
)

// fitModel asks judge, the --model, about every labelled run, on the answer the
// fitted rules weights w give it, fits the model weights on what it said,
// and prints how they do: the rules alone, the model weighed by the
// defaults and by the fitted weights (in-sample and cross-validated on
// folds, 0 leaving one run out), and the model alone.
func fitModel(ctx context.Context, opts *FitOptions, judge engine.Judge, exs []fit.Example, w *rules.Weights, as []*rules.Analyzer, folds int) (*rules.ModelWeights, error) {
	name := opts.Model.Model
	fmt.Fprintf(opts.IO.ErrOut, "asking %s about %d labelled runs...\n", name, len(exs))
	rulesAtts := predictAll(w, exs, as)
	cases, err := fit.CollectModel(ctx, exs, rulesAtts, judge, nil)
	if err != nil {
		return nil, err
	}
	mw, used, err := fit.FitModel(ctx, cases, name, nil, 0)
	if err != nil {
		return nil, err
	}
	if used == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "offattr: %s answered usably on none of the %d runs (or never where it could name the labelled step); its model weights are the defaults\n", name, len(exs))
	}
	cv, err := fit.CrossValidateModel(ctx, cases, fit.KFolds(exs, folds), name, nil, 0)
	if err != nil {
		return nil, err
	}
	deflt, fitted := make([]rules.Attribution, len(cases)), make([]rules.Attribution, len(cases))
	for i, c := range cases {
		deflt[i] = fit.PredictModel(nil, c)
		fitted[i] = fit.PredictModel(mw.Weights, c)
	}
	cvName := "leave-one-run-out"
	if folds > 0 {
		cvName = fmt.Sprintf("%d-fold CV", folds)
	}
	fmt.Fprintf(opts.IO.Out, "\nwith the model %s (the rules' figures are the fitted rules weights', in-sample):\n", name)
	if err := writeTable(opts.IO.Out, []column{
		{"rules alone", exs, rulesAtts},
		{"model, default weights", exs, deflt},
		{"model, fitted, in-sample", exs, fitted},
		{"model, fitted, " + cvName, exs, cv},
	}); err != nil {
		return nil, err
	}
	subs, all := fit.Score(exs, deflt)
	var alone []string
	for _, s := range append(subs, all) {
		if s.ModelOnly != nil {
			alone = append(alone, fmt.Sprintf("%s agent %.3f step %.3f", s.Name, s.ModelOnly.AgentAccuracy, s.ModelOnly.StepAccuracy))
		}
	}
	if len(alone) > 0 {
		fmt.Fprintf(opts.IO.Out, "model alone (its analysts' pick): %s\n", strings.Join(alone, "; "))
	}
	_, cvAll := fit.Score(exs, cv)
	_, rulesAll := fit.Score(exs, rulesAtts)
	mw.About = fmt.Sprintf("offattr fit --model %s on %d runs (%d where its analysts counted and could name the labelled step); %s step accuracy %.3f against %.3f for the rules alone", name, len(exs), used, cvName, cvAll.StepAccuracy, rulesAll.StepAccuracy)
	return mw, nil
}
