package fit

import "github.com/offattr/offattr/rules"

// Figures are the accuracies of one way of predicting one corpus: agent,
// step and recall@k ("1", "3", "5").
type Figures struct {
	Agent    float64            `json:"agent"`
	Step     float64            `json:"step"`
	RecallAt map[string]float64 `json:"recall_at"`
}

// CorpusReport is what `offattr fit --json` says of one corpus (or of all
// of them, "overall"): the figures of each way of predicting it (in_use,
// in_sample, cross_validated, leave_one_corpus_out), and the label-free
// floors beside them.
type CorpusReport struct {
	Name    string             `json:"name"`
	Cases   int                `json:"cases"`
	Figures map[string]Figures `json:"figures"`
	// Floors are the label-free guesses' figures (rules.LabelFreeBaselines);
	// BestFloor the best of them, agent and step each on its own.
	Floors    map[string]Figures `json:"floors"`
	BestFloor Figures            `json:"best_floor"`
}

// Report is `offattr fit --json`'s document.
type Report struct {
	Runs                     int            `json:"runs"`
	Corpora                  []CorpusReport `json:"corpora"`
	Triage                   rules.Bands    `json:"triage"`
	TriageWithoutGroundTruth *rules.Bands   `json:"triage_without_ground_truth,omitempty"`
	// Guess is the label-free guess the fitted weights answer with in
	// place of the step model (rules.Weights.Guess), if any.
	Guess string `json:"guess,omitempty"`
}
