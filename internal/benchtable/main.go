// Command benchtable turns `offattr fit --json` into the accuracy table of
// docs/benchmarks.md: per corpus, the figures held out of the fit, under
// k-fold and in-sample, beside the label-free floors.
//
//	offattr fit ../shared/whowhen/dev ../shared/tau-retail ../shared/trail-gaia/cases --prior evidence --json |
//	  go run ./internal/benchtable
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"sort"

	"github.com/offattr/offattr/fit"
)

func main() {
	if err := run(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer) error {
	var rep fit.Report
	if err := json.NewDecoder(in).Decode(&rep); err != nil {
		return fmt.Errorf("reading offattr fit --json: %w", err)
	}
	fmt.Fprintln(out, "| corpus | cases | held out of the fit: agent / step / r@1 / r@3 / r@5 | 10-fold | in-sample | best label-free floor: agent / step |")
	fmt.Fprintln(out, "|---|---:|---|---|---|---|")
	for _, c := range rep.Corpora {
		fmt.Fprintf(out, "| %s | %d | %s | %s | %s | %.3f / %.3f |\n", c.Name, c.Cases,
			full(c.Figures["leave_one_corpus_out"]), short(c.Figures["cross_validated"]), short(c.Figures["in_sample"]), c.BestFloor.Agent, c.BestFloor.Step)
	}
	fmt.Fprintln(out)
	fmt.Fprintln(out, "Label-free floors, agent / step:")
	fmt.Fprintln(out)
	for _, c := range rep.Corpora {
		names := make([]string, 0, len(c.Floors))
		for n := range c.Floors {
			names = append(names, n)
		}
		sort.Strings(names)
		fmt.Fprintf(out, "- %s:", c.Name)
		for i, n := range names {
			sep := ","
			if i == 0 {
				sep = ""
			}
			fmt.Fprintf(out, "%s %s %.3f / %.3f", sep, n, c.Floors[n].Agent, c.Floors[n].Step)
		}
		fmt.Fprintln(out)
	}
	return nil
}

func full(f fit.Figures) string {
	return fmt.Sprintf("%.3f / %.3f / %.2f / %.2f / %.2f", f.Agent, f.Step, f.RecallAt["1"], f.RecallAt["3"], f.RecallAt["5"])
}

func short(f fit.Figures) string {
	return fmt.Sprintf("%.3f / %.3f / %.2f", f.Agent, f.Step, f.RecallAt["5"])
}
