package hierarchy

import (
	"context"
	"fmt"
	"sort"

	"github.com/offattr/offattr/extract"
)

// minNeighbourBytes is the least of a neighbour's full text worth keeping
// before it is reduced to its key decision instead.
const minNeighbourBytes = 400

// Fit degrades a context until its rendering is at most budget tokens
// (extract.EstimateTokens), deterministically:
//
//  1. Steps at distance 2 or more lose one notch of detail per round, the
//     farthest first (after the target before before it, at equal
//     distance): milestone -> header -> omitted, summary -> milestone,
//     key decision -> summary. Rounds repeat until they are all omitted.
//  2. The target's neighbours are cut to a common length, no shorter than
//     minNeighbourBytes, then degrade like the others.
//  3. The target's own text is cut to what fits; its label always stays.
//
// So the target's L1 stays whole while it fits, and farther steps degrade
// first. A budget <= 0 means no limit. ErrBudgetTooSmall is returned when
// even the header and the target's label do not fit.
func Fit(c Context, budget int) (Context, error) {
	return FitContext(context.Background(), c, budget)
}

// FitContext is Fit that stops with ctx's error once ctx is done: fitting
// a run of many thousand steps into a small budget takes a long time.
func FitContext(ctx context.Context, c Context, budget int) (Context, error) {
	c.Entries = append([]Entry(nil), c.Entries...)
	if budget <= 0 {
		c.Budget = 0
		c.Tokens = extract.EstimateTokens(c.Render())
		return c, nil
	}
	c.Budget = budget
	if !newFitter(&c, budget).fit(ctx) {
		if err := ctx.Err(); err != nil {
			return Context{}, err
		}
		return Context{}, fmt.Errorf("context of step %d in %d tokens: %w", c.Target, budget, ErrBudgetTooSmall)
	}
	c.Tokens = extract.EstimateTokens(c.Render())
	if c.Tokens > budget {
		// The fitter's size and Render are written to agree; this guards the
		// promise.
		return Context{}, fmt.Errorf("context of step %d: rendered %d tokens over a budget of %d", c.Target, c.Tokens, budget)
	}
	return c, nil
}

// fitter degrades a context towards a byte limit. It keeps the length of the
// context's rendering current as entries change, so that asking whether the
// context fits after each change costs O(1) rather than a pass over every
// entry, which made fitting quadratic in the length of the run.
type fitter struct {
	c     *Context
	limit int // bytes: extract.TokensToBytes of the budget
	size  int // len(c.Render())
	// labelBase[i] is the length of entry i's label less that of its
	// detail's name, the one part of a label that fitting changes.
	labelBase []int
	// Render collapses each maximal run a..b of omitted entries into one
	// line; runEnd[a] is b and runStart[b] is a. Entries inside a run hold
	// stale values.
	runStart, runEnd []int
}

func newFitter(c *Context, budget int) *fitter {
	f := &fitter{
		c:         c,
		limit:     extract.TokensToBytes(budget),
		labelBase: make([]int, len(c.Entries)),
		runStart:  make([]int, len(c.Entries)),
		runEnd:    make([]int, len(c.Entries)),
	}
	for i, e := range c.Entries {
		f.labelBase[i] = len(e.label()) - len(e.Detail)
	}
	f.recount()
	return f
}

// recount measures the rendering afresh and finds the runs of omitted
// entries.
func (f *fitter) recount() {
	es := f.c.Entries
	f.size = len(f.c.header())
	for i := 0; i < len(es); i++ {
		if es[i].Detail != DetailOmitted {
			f.size += f.entryLen(i)
			continue
		}
		j := i
		for j+1 < len(es) && es[j+1].Detail == DetailOmitted {
			j++
		}
		f.addRun(i, j)
		i = j
	}
}

// entryLen is the length of entry i's rendering when it is not omitted.
func (f *fitter) entryLen(i int) int {
	e := &f.c.Entries[i]
	return e.renderLen(f.labelBase[i] + len(e.Detail))
}

// addRun records a..b as a run of omitted entries and counts its line.
func (f *fitter) addRun(a, b int) {
	f.runEnd[a], f.runStart[b] = b, a
	f.size += len(omittedLine(a, b))
}

// set moves entry i to detail d (at its current cap when d is truncated)
// and updates the size.
func (f *fitter) set(i int, d Detail) {
	es := f.c.Entries
	if es[i].Detail == DetailOmitted {
		// Fitting omits and never restores, except the target of a context
		// whose entries were edited by hand; counting afresh is rare enough.
		es[i].setDetail(d)
		f.recount()
		return
	}
	f.size -= f.entryLen(i)
	es[i].setDetail(d)
	if d != DetailOmitted {
		f.size += f.entryLen(i)
		return
	}
	// Entry i joins the runs of omitted entries on either side of it.
	a, b := i, i
	if i > 0 && es[i-1].Detail == DetailOmitted {
		a = f.runStart[i-1]
		f.size -= len(omittedLine(a, i-1))
	}
	if i+1 < len(es) && es[i+1].Detail == DetailOmitted {
		b = f.runEnd[i+1]
		f.size -= len(omittedLine(i+1, b))
	}
	f.addRun(a, b)
}

// fits reports whether the context renders within the limit.
func (f *fitter) fits() bool { return f.size <= f.limit }

// fit runs the three stages of Fit until the context fits, and reports
// whether it does; it gives up, false, once ctx is done.
func (f *fitter) fit(ctx context.Context) bool {
	if f.fits() {
		return true
	}
	far, near := f.c.byDistance(2), f.c.byDistance(1)
	if f.degradeRounds(ctx, far) {
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	if f.truncate(near, minNeighbourBytes) || f.degradeRounds(ctx, near) {
		return true
	}
	t := []int{f.c.Target}
	if f.truncate(t, 0) {
		return true
	}
	f.set(f.c.Target, DetailHeader)
	return f.fits()
}

// byDistance lists the entries at distance >= from, or exactly 1 when from is
// 1, the farthest first; at equal distance the later step goes first, so
// what led to the target is kept longer than what followed it.
func (c *Context) byDistance(from int) []int {
	var idx []int
	for i, e := range c.Entries {
		if from == 1 && e.Distance == 1 || from > 1 && e.Distance >= from {
			idx = append(idx, i)
		}
	}
	sort.SliceStable(idx, func(a, b int) bool {
		ea, eb := c.Entries[idx[a]], c.Entries[idx[b]]
		if ea.Distance != eb.Distance {
			return ea.Distance > eb.Distance
		}
		return ea.Index > eb.Index
	})
	return idx
}

// degradeRounds lowers each listed entry one notch per round, in list order,
// until the context fits or all are omitted. Truncated is skipped: it is a
// state only truncate sets. It gives up, false, once ctx is done.
func (f *fitter) degradeRounds(ctx context.Context, idx []int) bool {
	for {
		changed := false
		for _, i := range idx {
			if ctx.Err() != nil {
				return false
			}
			e := &f.c.Entries[i]
			if e.Detail == DetailOmitted {
				continue
			}
			d := next(e.Detail)
			if d == DetailTruncated {
				d = next(d)
			}
			f.set(i, d)
			changed = true
			if f.fits() {
				return true
			}
		}
		if !changed {
			return false
		}
	}
}

// truncate cuts the full texts of the listed entries to the largest common
// length (not below floor) at which the context fits. It leaves them cut to
// floor, or untouched if none is full, when nothing fits.
func (f *fitter) truncate(idx []int, floor int) bool {
	longest := 0
	var full []int
	for _, i := range idx {
		if f.c.Entries[i].Detail == DetailFull {
			full = append(full, i)
			longest = max(longest, len(f.c.Entries[i].full))
		}
	}
	if len(full) == 0 {
		return false
	}
	set := func(n int) {
		for _, i := range full {
			e := &f.c.Entries[i]
			e.cap = n
			if len(e.full) <= n {
				f.set(i, DetailFull)
			} else {
				f.set(i, DetailTruncated)
			}
		}
	}
	// The largest n in [floor, longest) that fits; size is monotone in n.
	lo, hi := floor, longest-1
	set(lo)
	if !f.fits() {
		return false
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		set(mid)
		if f.fits() {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	set(lo)
	return true
}
