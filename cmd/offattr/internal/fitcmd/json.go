package fitcmd

import (
	"io"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/eval"
	"github.com/offattr/offattr/fit"
	"github.com/offattr/offattr/rules"
)

// columnKeys name the columns in JSON.
var columnKeys = map[string]string{"in use": "in_use", "fitted, in-sample": "in_sample", "leave-one-corpus-out": "leave_one_corpus_out"}

func columnKey(name string) string {
	if k, ok := columnKeys[name]; ok {
		return k
	}
	return "cross_validated"
}

func figuresOf(s eval.Score) fit.Figures {
	return fit.Figures{Agent: s.AgentAccuracy, Step: s.StepAccuracy, RecallAt: s.RecallAt}
}

// floorColumns predicts every example with each label-free guess.
func floorColumns(exs []fit.Example) []column {
	var cols []column
	for _, name := range rules.LabelFreeBaselines() {
		cols = append(cols, column{name: name, exs: exs, preds: fit.Guessed(name, exs)})
	}
	return cols
}

// writeJSON writes the figures of every column and the floors, per corpus
// and overall.
func writeJSON(out io.Writer, exs []fit.Example, cols []column, w *rules.Weights) error {
	rep := fit.Report{Runs: len(exs), Triage: w.Triage, TriageWithoutGroundTruth: w.TriageWithoutGroundTruth, Guess: w.Guess}
	index := map[string]int{}
	row := func(s eval.Score) *fit.CorpusReport {
		k, ok := index[s.Name]
		if !ok {
			k = len(rep.Corpora)
			index[s.Name] = k
			rep.Corpora = append(rep.Corpora, fit.CorpusReport{Name: s.Name, Cases: s.Cases, Figures: map[string]fit.Figures{}, Floors: map[string]fit.Figures{}})
		}
		return &rep.Corpora[k]
	}
	for _, c := range cols {
		subs, all := fit.Score(c.exs, c.preds)
		for _, s := range append(subs, all) {
			row(s).Figures[columnKey(c.name)] = figuresOf(s)
		}
	}
	for _, c := range floorColumns(exs) {
		subs, all := fit.Score(c.exs, c.preds)
		for _, s := range append(subs, all) {
			row(s).Floors[c.name] = figuresOf(s)
		}
	}
	for i := range rep.Corpora {
		rep.Corpora[i].BestFloor = bestFloor(rep.Corpora[i].Floors)
	}
	return cmdutil.WriteJSON(out, rep) // corpora are named for directories: escaped
}

// bestFloor is eval.BestFloor of a corpus's floors.
func bestFloor(floors map[string]fit.Figures) fit.Figures {
	acc := make(map[string]eval.Accuracy, len(floors))
	for name, f := range floors {
		acc[name] = eval.Accuracy{AgentAccuracy: f.Agent, StepAccuracy: f.Step}
	}
	best := eval.BestFloor(acc)
	return fit.Figures{Agent: best.AgentAccuracy, Step: best.StepAccuracy}
}
