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
	if !c.fit(ctx, budget) {
		if err := ctx.Err(); err != nil {
			return Context{}, err
		}
		return Context{}, fmt.Errorf("context of step %d in %d tokens: %w", c.Target, budget, ErrBudgetTooSmall)
	}
	c.Tokens = extract.EstimateTokens(c.Render())
	if c.Tokens > budget {
		// size() and Render() are written to agree; this guards the promise.
		return Context{}, fmt.Errorf("context of step %d: rendered %d tokens over a budget of %d", c.Target, c.Tokens, budget)
	}
	return c, nil
}

func (c *Context) fit(ctx context.Context, budget int) bool {
	if c.fits(budget) {
		return true
	}
	far, near := c.byDistance(2), c.byDistance(1)
	if c.degradeRounds(ctx, far, budget) {
		return true
	}
	if ctx.Err() != nil {
		return false
	}
	if c.truncate(near, minNeighbourBytes, budget) || c.degradeRounds(ctx, near, budget) {
		return true
	}
	t := []int{c.Target}
	if c.truncate(t, 0, budget) {
		return true
	}
	c.Entries[c.Target].setDetail(DetailHeader)
	return c.fits(budget)
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
func (c *Context) degradeRounds(ctx context.Context, idx []int, budget int) bool {
	for {
		changed := false
		for _, i := range idx {
			if ctx.Err() != nil {
				return false
			}
			e := &c.Entries[i]
			if e.Detail == DetailOmitted {
				continue
			}
			d := next(e.Detail)
			if d == DetailTruncated {
				d = next(d)
			}
			e.setDetail(d)
			changed = true
			if c.fits(budget) {
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
func (c *Context) truncate(idx []int, floor, budget int) bool {
	longest := 0
	var full []int
	for _, i := range idx {
		if c.Entries[i].Detail == DetailFull {
			full = append(full, i)
			longest = max(longest, len(c.Entries[i].full))
		}
	}
	if len(full) == 0 {
		return false
	}
	set := func(n int) {
		for _, i := range full {
			e := &c.Entries[i]
			e.cap = n
			if len(e.full) <= n {
				e.setDetail(DetailFull)
			} else {
				e.setDetail(DetailTruncated)
			}
		}
	}
	// The largest n in [floor, longest) that fits; size is monotone in n.
	lo, hi := floor, longest-1
	set(lo)
	if !c.fits(budget) {
		return false
	}
	for lo < hi {
		mid := lo + (hi-lo+1)/2
		set(mid)
		if c.fits(budget) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	set(lo)
	return true
}
