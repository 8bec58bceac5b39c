package fitcmd

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/fit"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/rules"
)

// fitModel asks judge, the --model, about every labelled run, on the
// answer the rules give it out of fold (oof: weights fitted without it,
// as the rules answer a run they have not seen), fits the model weights
// on what it said, and prints how they do: the rules alone, the model
// weighed by the defaults and by the fitted weights (in-sample and
// cross-validated on folds, 0 leaving one run out), the model alone, and
// how the fit was chosen.
func fitModel(ctx context.Context, opts *FitOptions, judge engine.Judge, exs []fit.Example, oof []rules.Attribution, folds int) (*rules.ModelWeights, error) {
	name := opts.Model.Model
	fmt.Fprintf(opts.IO.ErrOut, "asking %s about %d labelled runs...\n", name, len(exs))
	cases, err := fit.CollectModel(ctx, exs, oof, judge, nil)
	if err != nil {
		return nil, err
	}
	mf, err := fit.FitModel(ctx, cases, name, nil, 0)
	if err != nil {
		return nil, err
	}
	if mf.Used == 0 {
		fmt.Fprintf(opts.IO.ErrOut, "offattr: %s answered usably on none of the %d runs (or never where it could name the labelled step); its signals are given no weight\n", name, len(exs))
	}
	mw := mf.Weights
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
	fmt.Fprintf(opts.IO.Out, "\nwith the model %s (the rules' answers are out of fold, as they answer a run they have not seen):\n", name)
	if err := writeTable(opts.IO.Out, []column{
		{"rules alone", exs, oof},
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
			alone = append(alone, fmt.Sprintf("%s agent %.3f step %.3f", escape.Line(s.Name), s.ModelOnly.AgentAccuracy, s.ModelOnly.StepAccuracy))
		}
	}
	if len(alone) > 0 {
		fmt.Fprintf(opts.IO.Out, "model alone (its analysts' pick): %s\n", strings.Join(alone, "; "))
	}
	choice := chosen(mf)
	fmt.Fprintf(opts.IO.Out, "model weights: %s\n", choice)
	_, cvAll := fit.Score(exs, cv)
	_, rulesAll := fit.Score(exs, oof)
	mw.About = fmt.Sprintf("offattr fit --model %s on %d runs (%d where its analysts counted and could name the labelled step); %s; %s step accuracy %.3f against %.3f for the rules alone", name, len(exs), mf.Used, choice, cvName, cvAll.StepAccuracy, rulesAll.StepAccuracy)
	return mw, nil
}

// chosen says how the model weights were chosen, on the runs held out of
// each fit.
func chosen(mf fit.ModelFit) string {
	held := fmt.Sprintf("%d of %d held-out runs right, the rules alone %d", mf.Right, mf.Runs, mf.RulesRight)
	switch {
	case mf.Silent && mf.Used == 0:
		return "the model is given no say (no run to fit on)"
	case mf.Silent:
		return "the model is given no say: on held-out runs it did not clearly beat the rules alone, in every corpus (" + held + ")"
	case math.IsInf(mf.Lambda, 1):
		return "the defaults (" + held + ")"
	}
	return fmt.Sprintf("fitted with an L2 pull of %g toward the defaults (%s)", mf.Lambda, held)
}
