package localllm

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/hierarchy"
	"github.com/offattr/offattr/run"
)

// The sweep reads the whole run in windows: consecutive steps, each at the
// detail the budget allows. It starts from ECHO's ladder as package
// hierarchy uses it (full text, key decision, summary, milestone) but
// centres on several steps at once, the rules' suspects: the whole run in
// full when it fits the reading budget; else full text within one step of
// a suspect and key decisions elsewhere, and then, farthest from every
// suspect first, a notch less detail at a time until it fits. Every step
// keeps at least its label, so the model can name any step of the run.

// readDetail is how much of a step a window shows, most first.
type readDetail int

const (
	readFull readDetail = iota
	readCut             // full text with its middle cut out
	readKeyDecision
	readSummary
	readMilestone
)

var readDetailName = map[readDetail]hierarchy.Detail{
	readFull:        hierarchy.DetailFull,
	readCut:         hierarchy.DetailTruncated,
	readKeyDecision: hierarchy.DetailKeyDecision,
	readSummary:     hierarchy.DetailSummary,
	readMilestone:   hierarchy.DetailMilestone,
}

// readEntry is one step as a window shows it.
type readEntry struct {
	index    int
	distance int // to the nearest suspect of the rules
	label    string
	detail   readDetail
	full     string
	reduced  [3]string // key decision, summary, milestone
	cut      int       // bytes of full text kept at readCut
}

// Cuts for long steps: a step shown in full keeps at most fullCutBytes
// (a web page a browsing agent read can be 80K bytes), and a cut step
// shrinks no further than minCutBytes before it is reduced instead.
const (
	fullCutBytes = 3000
	minCutBytes  = 600
)

func (e *readEntry) text() string {
	switch e.detail {
	case readFull:
		return e.full
	case readCut:
		return cutMiddle(e.full, e.cut)
	}
	return e.reduced[e.detail-readKeyDecision]
}

// render writes the entry: full and cut texts under their label, reduced
// ones beside it.
func (e *readEntry) render() string {
	t := e.text()
	label := fmt.Sprintf("%s | %s]", e.label, strings.ReplaceAll(string(readDetailName[e.detail]), "_", " "))
	if e.detail <= readCut {
		return label + "\n" + t + "\n\n"
	}
	if t == "" {
		return label + "\n"
	}
	return label + " " + t + "\n"
}

func (e *readEntry) tokens() int { return EstimateTokens(e.render()) }

// lower moves the entry one notch down; false when it is at the bottom.
func (e *readEntry) lower() bool {
	switch {
	case e.detail == readFull && len(e.full) > minCutBytes:
		e.detail, e.cut = readCut, max(minCutBytes, min(len(e.full), fullCutBytes)/2)
	case e.detail == readCut && e.cut/2 >= minCutBytes:
		e.cut /= 2
	case e.detail < readMilestone:
		e.detail = max(e.detail+1, readKeyDecision)
	default:
		return false
	}
	return true
}

// cutMiddle keeps about n bytes of s: its head (two thirds) and its tail,
// where the outcome of a long message usually is.
func cutMiddle(s string, n int) string {
	const mark = "\n[... cut ...]\n"
	if len(s) <= n {
		return s
	}
	head := runeFloor(s, n*2/3)
	tail := runeFloor(s, len(s)-(n-head))
	return s[:head] + mark + s[tail:]
}

// runeFloor is the largest rune boundary of s at or before i.
func runeFloor(s string, i int) int {
	for i > 0 && i < len(s) && s[i]&0xC0 == 0x80 {
		i--
	}
	return i
}

// readEntries builds every step's entry at full detail.
func readEntries(r *run.Run, f *extract.RunFeatures, focus []int) []readEntry {
	out := make([]readEntry, len(r.Steps))
	for i, s := range r.Steps {
		fs := &f.Steps[i]
		e := readEntry{index: i, distance: len(r.Steps), full: strings.TrimSpace(s.Content)}
		for _, c := range focus {
			e.distance = min(e.distance, abs(i-c))
		}
		if e.full == "" {
			e.full = "(empty)"
		}
		e.label = fmt.Sprintf("[step %d | %s | %s", i, oneLineClip(s.Agent, 60), fs.Kind)
		if fs.Target != "" {
			e.label += " -> " + oneLineClip(fs.Target, 60)
		}
		// A reduction that came out empty falls back to the next one, so
		// that a reduced step still shows something of itself.
		reductions := f.Reductions(i)
		red := []string{reductions.KeyDecision, reductions.Summary, reductions.Milestone}
		for k := len(red) - 1; k >= 0; k-- {
			red[k] = strings.Join(strings.Fields(red[k]), " ")
			if red[k] == "" && k+1 < len(red) {
				red[k] = red[k+1]
			}
		}
		for k := range red {
			if red[k] == "" {
				red[k] = oneLineClip(e.full, 120)
			}
		}
		copy(e.reduced[:], red)
		if len(e.full) > fullCutBytes {
			e.detail, e.cut = readCut, fullCutBytes
		}
		out[i] = e
	}
	return out
}

// fitEntries lowers the entries until their total is at most budget tokens
// and none is above perEntry. It never goes below milestones, so the total
// can stay above budget; it reports the total.
func fitEntries(es []readEntry, budget, perEntry int) int {
	total := 0
	for i := range es {
		for es[i].tokens() > perEntry && es[i].lower() {
		}
		total += es[i].tokens()
	}
	if total <= budget {
		return total
	}
	// Away from the suspects, key decisions at most, then a notch at a
	// time, farthest first (at equal distance the later step first: what
	// led to a suspect is kept longer than what followed it).
	for i := range es {
		if es[i].distance > 1 && es[i].detail < readKeyDecision {
			total -= es[i].tokens()
			es[i].detail = readKeyDecision
			total += es[i].tokens()
		}
	}
	order := make([]int, len(es))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		if c := cmp.Compare(es[b].distance, es[a].distance); c != 0 {
			return c
		}
		return cmp.Compare(b, a)
	})
	for _, near := range []bool{false, true} {
		for total > budget {
			lowered := false
			for _, i := range order {
				if (es[i].distance <= 1) != near {
					continue
				}
				before := es[i].tokens()
				if !es[i].lower() {
					continue
				}
				lowered = true
				total += es[i].tokens() - before
				if total <= budget {
					return total
				}
			}
			if !lowered {
				break
			}
		}
	}
	return total
}

// window is the part of the run one sweep call reads.
type window struct {
	from, to int // steps, inclusive
	entries  []readEntry
	tokens   int
}

func (w window) text() string {
	var b strings.Builder
	for i := range w.entries {
		b.WriteString(w.entries[i].render())
	}
	return b.String()
}

// steps are the steps the window shows, each of which the model may name.
func (w window) steps() []int {
	out := make([]int, len(w.entries))
	for i, e := range w.entries {
		out[i] = e.index
	}
	return out
}

// packWindows splits the entries, in step order, into windows of at most
// capacity tokens each, of about equal size.
func packWindows(es []readEntry, total, capacity int) []window {
	if len(es) == 0 || capacity <= 0 {
		return nil
	}
	n := (total + capacity - 1) / capacity
	target := (total + n - 1) / n
	var out []window
	cur := window{from: es[0].index}
	for _, e := range es {
		t := e.tokens()
		if len(cur.entries) > 0 && (cur.tokens+t > capacity || cur.tokens >= target) {
			out = append(out, cur)
			cur = window{from: e.index}
		}
		cur.entries = append(cur.entries, e)
		cur.tokens += t
		cur.to = e.index
	}
	return append(out, cur)
}

func oneLineClip(s string, n int) string {
	return clipBytes(strings.Join(strings.Fields(s), " "), n)
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
