// Package cmdutil holds what every offattr command shares: the IO streams,
// the flags that say how runs are read and redacted, and the errors that
// tell main which exit code to use.
package cmdutil

import (
	"io"
	"os"
	"sync"
	"sync/atomic"
	"time"
)

// IOStreams are a command's standard streams. Data goes to Out; warnings,
// progress and summaries to ErrOut, so `offattr ... > out.jsonl` stays clean.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// ErrTTY is true when ErrOut is a terminal (progress bars only then).
	ErrTTY bool
	// OutTTY is true when Out is a terminal.
	OutTTY bool

	// outFile, errFile and inFile are the files behind Out, ErrOut and
	// In, when there are: CheckOutput refuses to write to one of them, as
	// a second writer (or a rename under a reader) would garble it.
	outFile, errFile, inFile *os.File
	// outWatch and errWatch see the writes to the files behind Out and
	// ErrOut (Stuck).
	outWatch, errWatch *watched
}

// System returns the process's streams. Out records its first write error
// (OutErr), so that a full disk or a closed file is reported even where a
// writer's error goes unchecked.
func System() *IOStreams {
	out, errOut := &watched{w: os.Stdout}, &watched{w: os.Stderr}
	return &IOStreams{In: os.Stdin, Out: &recorder{w: out}, ErrOut: errOut, ErrTTY: isTerminal(os.Stderr), OutTTY: isTerminal(os.Stdout),
		outFile: os.Stdout, errFile: os.Stderr, inFile: os.Stdin, outWatch: out, errWatch: errOut}
}

// Stuck reports whether a write to standard output or standard error has
// been under way for at least d: the file is a pipe no one reads (a
// paused pager), and the command cannot go on until someone does.
func (s *IOStreams) Stuck(d time.Duration) bool {
	return s.outWatch.stuck(d) || s.errWatch.stuck(d)
}

// watched passes writes through one at a time and knows since when the
// one under way began.
type watched struct {
	mu    sync.Mutex
	w     io.Writer
	since atomic.Int64 // UnixNano when the write under way began; 0 when none
}

func (w *watched) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.since.Store(time.Now().UnixNano())
	defer w.since.Store(0)
	return w.w.Write(p)
}

func (w *watched) stuck(d time.Duration) bool {
	if w == nil {
		return false
	}
	since := w.since.Load()
	return since != 0 && time.Since(time.Unix(0, since)) >= d
}

// OutErr is the first error writing to Out, when Out records one (System's
// does), else nil.
func (s *IOStreams) OutErr() error {
	if r, ok := s.Out.(*recorder); ok {
		r.mu.Lock()
		defer r.mu.Unlock()
		return r.err
	}
	return nil
}

// recorder passes writes through and keeps the first error.
type recorder struct {
	mu  sync.Mutex
	w   io.Writer
	err error
}

func (r *recorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	n, err := r.w.Write(p)
	if err != nil && r.err == nil {
		r.err = err
	}
	return n, err
}

// isTerminal reports whether f is a character device other than the null
// device: a terminal, as far as the standard library can tell, and not
// the place output is sent to be thrown away (report > /dev/null).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}
