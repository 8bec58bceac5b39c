package rules

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
)

// ModelWeights weigh a local model's signals against the rules' step
// probabilities: a conditional logit over a run's candidate steps whose
// features are the rules' log-probability and what the model said of each
// step (ModelFeatureNames). They are fitted by `offattr fit --model` for
// one model, which Model names: another model's signals may be worth more
// or less. The localllm package holds the defaults used without them.
type ModelWeights struct {
	// Model is the model the weights were fitted with, as the server
	// named it.
	Model string `json:"model"`
	// About says how they were fitted and measured, for a person.
	About   string             `json:"about,omitempty"`
	Weights map[string]float64 `json:"weights"`
}

// The model features of a candidate step. Per-analyst features are the
// analyst's role after a prefix (ModelVotePrefix + "conservative").
const (
	// ModelRulesLogP is the log of the rules' probability of the step.
	ModelRulesLogP = "rules_log_p"
	// ModelRulesPick is 1 for the rules' answer (the earliest critical
	// step, not always the most probable one).
	ModelRulesPick = "rules_pick"
	// ModelReader is 1 for a step a reader of the sweep named as a suspect.
	ModelReader = "reader"
	// ModelVotes is the share of the counted analysts that voted for it.
	ModelVotes = "votes"
	// ModelMajority is 1 when at least two analysts were counted and
	// more than half of them voted for it.
	ModelMajority = "majority"
	// ModelUnanimous is 1 when at least two analysts were counted and all
	// voted for it.
	ModelUnanimous = "unanimous"
	// ModelSeconded is 1 when a reader named it and an analyst voted for
	// it: two askings that agree.
	ModelSeconded = "seconded"
	// ModelAgree is 1 when a reader named it and most analysts voted for it.
	ModelAgree = "agree"
	// ModelCriteria is the analysts' mean criteria score for it, less one
	// half (0 for a step they did not judge).
	ModelCriteria = "criteria"
	// ModelReaderEvidence is, for a step a reader named, what its naming
	// says if the reader were the weakest judge the defaults must stay
	// safe with (localllm.SafeJudge): the log of how many times as often
	// such a judge names the right step as any given wrong one among
	// those it chose from, and 0 where that is no better than a guess.
	// Naming one of many steps is rarer by chance than naming one of few.
	ModelReaderEvidence = "reader_evidence"
	// ModelVoteEvidence is the same for the finalists the analysts chose
	// among, summed over the counted analysts that voted for the step.
	ModelVoteEvidence = "vote_evidence"
	// ModelConsensus is 1 when a reader named it and every counted
	// analyst, at least two, voted for it: every asking agrees.
	ModelConsensus = "consensus"
	// ModelJudgeEvidence is what every asking said of the step read as
	// one judge of unknown accuracy (localllm.JudgePrior): the log of how
	// much likelier their answers are if the step is the decisive fault
	// than if none of them was shown it, averaged over the judge's
	// accuracy. Askings that agree on a step make a good judge likely and
	// count for much; scattered ones make a poor judge likely and count
	// for little.
	ModelJudgeEvidence = "judge_evidence"
	// ModelVotePrefix and ModelCriteriaPrefix name one analyst's vote (1
	// or 0) and criteria score (less one half).
	ModelVotePrefix     = "vote:"
	ModelCriteriaPrefix = "criteria:"
)

// ModelFeatureNames are the features every model has, in vector order;
// per-analyst features follow them.
var ModelFeatureNames = []string{ModelRulesLogP, ModelRulesPick, ModelReader, ModelVotes, ModelMajority, ModelUnanimous, ModelSeconded, ModelAgree, ModelCriteria,
	ModelReaderEvidence, ModelVoteEvidence, ModelConsensus, ModelJudgeEvidence}

// check validates weights read from a file.
func (m *ModelWeights) check() error {
	if strings.TrimSpace(m.Model) == "" {
		return errors.New(`model weights name no "model" they were fitted with`)
	}
	if len(m.Weights) == 0 {
		return errors.New(`model weights have no "weights"`)
	}
	for name, v := range m.Weights {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("model weight %s is %v", name, v)
		}
		if !IsModelFeature(name) {
			return fmt.Errorf("model weight for unknown feature %q", name)
		}
	}
	return nil
}

// IsModelFeature reports whether name is a model feature: one of
// ModelFeatureNames or a per-analyst one.
func IsModelFeature(name string) bool {
	if slices.Contains(ModelFeatureNames, name) {
		return true
	}
	for _, p := range []string{ModelVotePrefix, ModelCriteriaPrefix} {
		if role, ok := strings.CutPrefix(name, p); ok && role != "" {
			return true
		}
	}
	return false
}
