package fit

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/optimize"

	"github.com/offattr/offattr/rules"
)

// group is one choice among rows: a run's eligible steps, and which row
// the label picked.
type group struct {
	rows   []rules.StepRow
	target int
}

// conditionalLogit fits beta to maximise the likelihood that each group's
// target is chosen, p(target) = softmax(beta · x)[target], with an L2 pull
// of each column k toward prior[k], of strength pull[k]: with few labelled
// runs the weights stay near the prior (the embedded defaults, or zero),
// with many the data decide. The objective is convex, so L-BFGS finds its
// one minimum.
//
// Columns marked in frozen (nil: none) keep their prior's value.
func conditionalLogit(ctx context.Context, groups []group, prior, pull []float64, frozen []bool) ([]float64, error) {
	d := len(prior)
	obj := func(beta, grad []float64) float64 {
		for k := range grad {
			grad[k] = 0
		}
		nll := 0.0
		for _, g := range groups {
			p := rules.Softmax(g.rows, beta)
			nll -= math.Log(max(p[g.target], 1e-300))
			if grad == nil {
				continue
			}
			// The gradient of -log p(target) is each row's features
			// weighted by its probability, less the target's.
			for i, r := range g.rows {
				w := p[i]
				if i == g.target {
					w--
				}
				for k, x := range r.X {
					grad[k] += w * x
				}
			}
		}
		for k := range frozen {
			if frozen[k] && grad != nil {
				grad[k] = 0
			}
		}
		for k := range d {
			diff := beta[k] - prior[k]
			nll += pull[k] / 2 * diff * diff
			if grad != nil {
				grad[k] += pull[k] * diff
			}
		}
		return nll
	}
	problem := optimize.Problem{
		Func: func(beta []float64) float64 { return obj(beta, nil) },
		Grad: func(grad, beta []float64) { obj(beta, grad) },
		Status: func() (optimize.Status, error) {
			if err := ctx.Err(); err != nil {
				return optimize.Failure, err
			}
			return optimize.NotTerminated, nil
		},
	}
	settings := &optimize.Settings{GradientThreshold: 1e-6, MajorIterations: 500}
	res, err := optimize.Minimize(problem, append([]float64(nil), prior...), settings, &optimize.LBFGS{})
	if err != nil && ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if res == nil {
		return nil, fmt.Errorf("fit: %w", err)
	}
	// An iteration limit still leaves a usable, better-than-prior point;
	// only a failed line search from the start is an error.
	return res.X, nil
}

// evenPull is a pull of strength lambda on each of d columns.
func evenPull(lambda float64, d int) []float64 {
	pull := make([]float64, d)
	for k := range pull {
		pull[k] = lambda
	}
	return pull
}
