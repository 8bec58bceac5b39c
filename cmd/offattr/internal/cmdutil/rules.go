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

	// comb is the combiner once read. A command reads it more than once
	// (screen checks its bands, eval asks which runs it was fitted on,
	// both build the engine from it), and each must see the same weights
	// even if the file changes meanwhile.
	comb *rules.Combiner
}

// Register adds the flags to fs.
func (r *RuleFlags) Register(fs *pflag.FlagSet) {
	NamesVar(fs, &r.Only, "rules", rules.Names, "run only these rules, comma-separated (see: offattr rules)")
	NamesVar(fs, &r.Disable, "disable", rules.Names, "do not run these rules, comma-separated")
	fs.StringVar(&r.Weights, "weights", "", "combine the rules with these weights (written by offattr fit) instead of the embedded ones")
}

// Combiner returns the analyzers and weights the flags ask for. The
// weights file is read on the first call; later calls return the same.
func (r *RuleFlags) Combiner() (rules.Combiner, error) {
	if r.comb != nil {
		return *r.comb, nil
	}
	as, err := rules.Select(r.Only, r.Disable)
	if err != nil {
		return rules.Combiner{}, err
	}
	w := rules.DefaultWeights()
	if r.Weights != "" {
		if w, err = rules.LoadWeights(r.Weights); err != nil {
			return rules.Combiner{}, Usage(err) // the flag names no weights
		}
	}
	r.comb = &rules.Combiner{Analyzers: as, Weights: w}
	return *r.comb, nil
}
