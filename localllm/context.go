package localllm

import (
	"fmt"
	"strings"

	"github.com/offattr/offattr/run"
)

// ContextFunc renders the part of run r an analyst reads about the target
// steps, in at most budgetTokens tokens (estimated as EstimateTokens does).
// The hierarchy package provides the real one (ECHO L1–L4); WindowContext is
// a plain stand-in.
type ContextFunc func(r *run.Run, targets []int, budgetTokens int) (string, error)

// EstimateTokens is offattr's token estimate: four bytes a token, the usual
// figure for English text with BPE tokenizers.
func EstimateTokens(s string) int { return (len(s) + 3) / 4 }

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
			part, err := one(r, t, share-EstimateTokens(head))
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

// detail is how many words each distance class keeps (-1: all, 0: none).
// Classes follow ECHO's layers: the target itself, L1 (±1), L2 (±2–3),
// L3 (±4–6), L4 (the rest).
type detail struct{ target, l1, l2, l3, l4 int }

// farStages shorten the far layers step by step, from ECHO's own word caps
// (50 / 20 / 15) to nothing.
var farStages = [][3]int{{50, 20, 15}, {40, 15, 8}, {30, 10, 0}, {20, 0, 0}, {0, 0, 0}}

// minTargetWords is the least a candidate step keeps before the far layers
// are shortened further: enough to see what the step did.
const minTargetWords = 150

// WindowContext is a stand-in for hierarchy's ECHO context: every step is
// shown by distance to the nearest target — targets and their neighbours in
// full, fewer words per step farther away — and what does not fit the budget
// is cut: first the targets and neighbours are shortened (down to
// minTargetWords), then the far layers, stage by stage.
func WindowContext(r *run.Run, targets []int, budget int) (string, error) {
	if len(r.Steps) == 0 {
		return "", fmt.Errorf("run has no steps")
	}
	fits := func(text string) bool { return EstimateTokens(text) <= budget }
	full := farStages[0]
	if text := renderWindow(r, targets, detail{-1, -1, full[0], full[1], full[2]}); fits(text) {
		return text, nil
	}
	longest := 0
	for _, s := range r.Steps {
		longest = max(longest, len(strings.Fields(s.Content)))
	}
	var best string
	for _, far := range farStages {
		// The largest target cap that fits; neighbours get half of it.
		lo, hi := 0, longest
		text := ""
		for lo < hi {
			mid := (lo + hi + 1) / 2
			t := renderWindow(r, targets, detail{mid, mid / 2, far[0], far[1], far[2]})
			if fits(t) {
				lo, text = mid, t
			} else {
				hi = mid - 1
			}
		}
		if text != "" {
			best = text
		}
		if lo >= minTargetWords || lo >= longest {
			return text, nil
		}
	}
	if best != "" {
		return best, nil
	}
	// Not even the targets' first words fit (many targets, tiny budget): cut.
	return clipBytes(renderWindow(r, targets, detail{20, 0, 0, 0, 0}), max(budget, 0)*4), nil
}

func renderWindow(r *run.Run, targets []int, p detail) string {
	var b strings.Builder
	omitted := 0
	flush := func(upTo int) {
		if omitted > 0 {
			fmt.Fprintf(&b, "[%d-%d] (%d steps omitted)\n", upTo-omitted, upTo-1, omitted)
			omitted = 0
		}
	}
	for i, s := range r.Steps {
		d := distance(i, targets)
		words := p.l4
		switch {
		case d == 0:
			words = p.target
		case d == 1:
			words = p.l1
		case d <= 3:
			words = p.l2
		case d <= 6:
			words = p.l3
		}
		if words == 0 {
			omitted++
			continue
		}
		flush(i)
		mark := ""
		if d == 0 {
			mark = " <<"
		}
		fmt.Fprintf(&b, "[%d] %s%s: %s\n", i, speaker(s), mark, clipWords(s.Content, words, d == 0))
	}
	flush(len(r.Steps))
	return b.String()
}

func distance(i int, targets []int) int {
	best := -1
	for _, t := range targets {
		d := i - t
		if d < 0 {
			d = -d
		}
		if best < 0 || d < best {
			best = d
		}
	}
	if best < 0 {
		return 1 << 30
	}
	return best
}

// speaker names who spoke and, for an instruction, to whom.
func speaker(s run.Step) string {
	name := s.Agent
	if s.Target != "" {
		name += " -> " + s.Target
	}
	if s.Kind != "" && s.Kind != run.KindMessage && s.Kind != run.KindInstruction {
		name += " (" + string(s.Kind) + ")"
	}
	return name
}

// clipWords keeps the first n words (n < 0: all). With keepTail, a third of
// them come from the end, where a target step's error or result usually is.
func clipWords(s string, n int, keepTail bool) string {
	w := strings.Fields(s)
	if n < 0 || len(w) <= n {
		return strings.Join(w, " ")
	}
	if !keepTail || n < 6 {
		return strings.Join(w[:n], " ") + " ..."
	}
	tail := n / 3
	return strings.Join(w[:n-tail], " ") + " ... " + strings.Join(w[len(w)-tail:], " ")
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
