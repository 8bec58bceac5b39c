// Package ctxtest gives tests a context that is cancelled at a known point
// of the work, so that a test of "stops when cancelled" neither races a
// timer nor passes by finishing first. It is test infrastructure.
package ctxtest

import (
	"context"
	"sync"
)

// Countdown is a context whose Err reports context.Canceled from its n-th
// call on (and Done is closed then): code that checks Err as it works is
// stopped after n-1 checks, wherever they fall.
type Countdown struct {
	context.Context
	mu   sync.Mutex
	left int
	done chan struct{}
}

// After returns a Countdown cancelled at the n-th call of Err.
func After(n int) *Countdown {
	return &Countdown{Context: context.Background(), left: n, done: make(chan struct{})}
}

// Err counts the call and reports context.Canceled once the count is out.
func (c *Countdown) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.left > 0 {
		c.left--
		if c.left == 0 {
			close(c.done)
		}
	}
	if c.left == 0 {
		return context.Canceled
	}
	return nil
}

// Done is closed once Err has reported the cancellation.
func (c *Countdown) Done() <-chan struct{} { return c.done }
