package cmdutil

import (
	"github.com/spf13/pflag"

	"github.com/offattr/offattr/rules"
)

// RuleFlags choose the analyzers (--rules, --disable) and the weights that
// combine them (--weights), for every command that attributes runs.
type RuleFlags struct {
	Only    []string
	Disable []string
	Weights string
}

// Register adds the flags to fs.
func (r *RuleFlags) Register(fs *pflag.FlagSet) {
	fs.StringSliceVar(&r.Only, "rules", nil, "run only these rules, comma-separated (see: offattr rules)")
	fs.StringSliceVar(&r.Disable, "disable", nil, "do not run these rules, comma-separated")
	fs.StringVar(&r.Weights, "weights", "", "combine the rules with these weights (written by offattr fit) instead of the embedded ones")
}

// Combiner returns the analyzers and weights the flags ask for.
func (r *RuleFlags) Combiner() (rules.Combiner, error) {
	as, err := rules.Select(r.Only, r.Disable)
	if err != nil {
		return rules.Combiner{}, err
	}
	w := rules.DefaultWeights()
	if r.Weights != "" {
		if w, err = rules.LoadWeights(r.Weights); err != nil {
			return rules.Combiner{}, err
		}
	}
	return rules.Combiner{Analyzers: as, Weights: w}, nil
}
