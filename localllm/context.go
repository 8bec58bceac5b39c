package localllm

import (
	"errors"
	"fmt"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/hierarchy"
	"github.com/offattr/offattr/run"
)

// ContextFunc renders the part of run r an analyst reads about the target
// steps, in at most budgetTokens tokens (estimated by extract.EstimateTokens).
// HierarchyContext is the one offattr uses.
type ContextFunc func(r *run.Run, targets []int, budgetTokens int) (string, error)

// EstimateTokens is offattr's one token estimate, extract.EstimateTokens,
// under the name localllm's callers know.
func EstimateTokens(s string) int { return extract.EstimateTokens(s) }

// PerTarget adapts a context builder that centres on one step: each target
// gets an equal share of the budget, and the parts are joined in step order.
func PerTarget(one func(r *run.Run, step, budgetTokens int) (string, error)) ContextFunc {
	return func(r *run.Run, targets []int, budget int) (string, error) {
		if len(targets) == 0 {
			return "", nil
		}
		share := budget / len(targets)
		var b strings.Builder
		for _, t := range targets {
			head := fmt.Sprintf("--- around step %d ---\n", t)
			part, err := one(r, t, share-extract.EstimateTokens(head))
			if err != nil {
				return "", fmt.Errorf("context for step %d: %w", t, err)
			}
			b.WriteString(head)
			b.WriteString(strings.TrimSpace(part))
			b.WriteString("\n")
		}
		return b.String(), nil
	}
}

// HierarchyContext is what the analysts read: ECHO's L1–L4 context of each
// target step (package hierarchy: the step and its neighbours in full, key
// decisions, summaries and milestones farther away), the budget shared
// equally among the targets (PerTarget). The run's features are extracted
// once for all targets.
//
// A share can be too small for hierarchy to show even a target's label (a
// long task text leaves little room). Then fewer targets get a context of
// their own: the first n of them in step order share the budget, n going
// down from all to one, and each of the others is named on one line (with
// its milestone, or without it if that still does not fit), so the
// analysts still see every step they are asked about.
func HierarchyContext(r *run.Run, targets []int, budget int) (string, error) {
	if len(targets) == 0 {
		return "", nil
	}
	return HierarchyContextOf(extract.Run(r))(r, targets, budget)
}

// HierarchyContextOf is HierarchyContext over features the caller already
// has, so that a run is extracted once however many prompts are built.
func HierarchyContextOf(f *extract.RunFeatures) ContextFunc {
	return func(r *run.Run, targets []int, budget int) (string, error) {
		if len(targets) == 0 {
			return "", nil
		}
		return hierarchyContext(r, f, targets, budget)
	}
}

func hierarchyContext(r *run.Run, f *extract.RunFeatures, targets []int, budget int) (string, error) {
	one := PerTarget(func(r *run.Run, step, share int) (string, error) {
		if share <= 0 {
			// hierarchy reads a budget <= 0 as no limit at all.
			return "", hierarchy.ErrBudgetTooSmall
		}
		return hierarchy.RenderWithin(r, f, step, share)
	})
	err := hierarchy.ErrBudgetTooSmall
	for _, milestones := range []bool{true, false} {
		for n := len(targets); n >= 1; n-- {
			lines := targetLines(r, f, targets[n:], milestones)
			var text string
			text, err = one(r, targets[:n], budget-extract.EstimateTokens(lines))
			if err == nil {
				return text + lines, nil
			}
			if !errors.Is(err, hierarchy.ErrBudgetTooSmall) {
				return "", err
			}
		}
	}
	return "", fmt.Errorf("%d candidate steps in %d tokens: %w", len(targets), budget, err)
}

// targetLines names each step on one line, for the targets that get no
// context of their own: index, agent and kind, and its milestone if asked.
func targetLines(r *run.Run, f *extract.RunFeatures, steps []int, milestones bool) string {
	var b strings.Builder
	for _, i := range steps {
		s := &f.Steps[i]
		fmt.Fprintf(&b, "[step %d | %s | %s | TARGET, no room for its context]", i, r.Steps[i].Agent, s.Kind)
		if milestones {
			b.WriteString(" " + strings.Join(strings.Fields(f.Reductions(i).Milestone), " "))
		}
		b.WriteString("\n")
	}
	return b.String()
}

// clipBytes cuts s to at most n bytes on a rune boundary, marking the cut.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	const mark = " ..."
	if n <= len(mark) {
		return ""
	}
	cut := n - len(mark)
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut--
	}
	return s[:cut] + mark
}
