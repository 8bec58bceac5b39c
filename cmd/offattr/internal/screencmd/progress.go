package screencmd

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// progress draws a one-line bar on a terminal: done/total, rate and ETA.
// On anything else it draws nothing, so logs and pipes stay clean.
type progress struct {
	w     io.Writer
	total int64 // < 0 when unknown (a stream on stdin)
	done  atomic.Int64
	start time.Time
	stop  chan struct{}
	wg    sync.WaitGroup
}

const progressEvery = 200 * time.Millisecond

// startProgress starts redrawing; with enabled false it only counts.
func startProgress(w io.Writer, enabled bool, total int) *progress {
	p := &progress{w: w, total: int64(total), start: time.Now(), stop: make(chan struct{})}
	if !enabled {
		return p
	}
	p.wg.Add(1)
	go func() {
		defer p.wg.Done()
		t := time.NewTicker(progressEvery)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				fmt.Fprint(p.w, "\r"+p.line(time.Since(p.start))+"\x1b[K")
			case <-p.stop:
				fmt.Fprint(p.w, "\r\x1b[K")
				return
			}
		}
	}()
	return p
}

func (p *progress) add(n int) { p.done.Add(int64(n)) }

// finish stops the bar and clears its line for the summary.
func (p *progress) finish() {
	select {
	case <-p.stop:
	default:
		close(p.stop)
	}
	p.wg.Wait()
}

// line renders the bar for the time elapsed.
func (p *progress) line(elapsed time.Duration) string {
	done := p.done.Load()
	rate := 0.0
	if s := elapsed.Seconds(); s > 0 {
		rate = float64(done) / s
	}
	if p.total < 0 {
		return fmt.Sprintf("screened %d  %.1f runs/s", done, rate)
	}
	const width = 30
	filled := 0
	if p.total > 0 {
		filled = int(int64(width) * min(done, p.total) / p.total)
	}
	bar := strings.Repeat("=", filled) + strings.Repeat(" ", width-filled)
	eta := "--:--"
	if rate > 0 && done <= p.total {
		eta = clock(time.Duration(float64(p.total-done) / rate * float64(time.Second)))
	}
	return fmt.Sprintf("[%s] %d/%d  %.1f runs/s  ETA %s", bar, done, p.total, rate, eta)
}

// clock formats a duration as h:mm:ss or m:ss.
func clock(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
