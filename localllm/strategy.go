package localllm

import "fmt"

// autoRankConfidence is the rules' confidence from which auto leaves a
// run that needs several windows to the rank strategy: in the calibration
// bands the README reports, answers this sure are mostly right, and their
// top candidates hold the labelled step. Below it, and on any run that
// fits one window (where the sweep costs one call), auto sweeps.
const autoRankConfidence = 0.8

// choose returns the strategy to run on s's run and, for auto, why.
func (j *Judge) choose(s *sweep) (strategy, reason string) {
	if j.opts.Strategy != StrategyAuto {
		return j.opts.Strategy, ""
	}
	rd, err := s.plan(j.shrink.get())
	steps := len(s.r.Steps)
	switch {
	case err != nil:
		return StrategyRank, fmt.Sprintf("auto chose rank: %v", err)
	case rd.unread > 0:
		return StrategyRank, fmt.Sprintf("auto chose rank: the run of %d steps does not fit %d reading windows of model %s's context", steps, maxWindows, j.model.Name)
	case len(rd.windows) <= 1:
		return StrategySweep, fmt.Sprintf("auto chose sweep: the whole run (%d steps) fits one reading window", steps)
	case s.att.Confidence >= autoRankConfidence:
		return StrategyRank, fmt.Sprintf("auto chose rank: the rules are sure (confidence %.2f ≥ %.2f) and the run of %d steps needs %d reading windows", s.att.Confidence, autoRankConfidence, steps, len(rd.windows))
	}
	return StrategySweep, fmt.Sprintf("auto chose sweep: the rules' confidence %.2f is below %.2f; %d steps in %d reading windows", s.att.Confidence, autoRankConfidence, steps, len(rd.windows))
}
