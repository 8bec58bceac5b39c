package screencmd

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// screener runs one screen: it feeds inputs to workers and writes their
// records in input order.
type screener struct {
	opts     *ScreenOptions
	analyze  engine.AnalyzeFunc
	patterns *redact.Patterns // nil without --redact
	shard    Shard
	recorded map[string]bool // already in the output (--resume): names, or keys of masked names
	sum      *summary
	out      *screenfile.Writer
}

type job struct {
	seq int
	in  input
}

type result struct {
	seq  int
	recs []screenfile.Record // one per run of the input: one per trace of a telemetry file
	note string              // why the input was left out, with no record
	ok   bool                // false: interrupted before it finished; not recorded
}

// wanted applies --shard and --resume to an input, counting what it skips.
func (s *screener) wanted(in input) bool {
	if !s.shard.Includes(in.name) {
		s.sum.otherShards.Add(1)
		return false
	}
	if s.done(in.name) {
		s.sum.skippedResume.Add(1)
		return false
	}
	return true
}

// done reports whether the output already records the input name, by its
// name or, when screened with --redact, by its key.
func (s *screener) done(name string) bool {
	return s.recorded[name] || (len(s.recorded) > 0 && s.recorded[screenfile.KeyOf(name)])
}

// record names a record by the input name, masked under --redact.
func (s *screener) record(name string, r screenfile.Record) screenfile.Record {
	if s.patterns == nil {
		r.File = name
		return r
	}
	return r.Masked(name, s.patterns.NewRedactor().String(name))
}

// inputs expands the arguments. Files are listed up front so the progress
// bar knows the total; the stdin stream is read as it comes (total unknown).
func (s *screener) inputs() (files [][]input, total int, stream bool) {
	files = make([][]input, len(s.opts.Paths))
	for i, p := range s.opts.Paths {
		if p == stdinArg {
			stream = true
			continue
		}
		for _, in := range expandPath(p) {
			if s.wanted(in) {
				files[i] = append(files[i], in)
			}
		}
		total += len(files[i])
	}
	if stream {
		total = -1
	}
	return files, total, stream
}

// run screens everything. The window bounds how far workers may run ahead
// of the writer, so memory stays flat however slow one run is.
func (s *screener) run(ctx context.Context) error {
	files, total, _ := s.inputs()
	bar := startProgress(s.opts.IO.ErrOut, s.opts.IO.ErrTTY, total)
	defer bar.finish()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	window := s.opts.Workers * 4
	jobs := make(chan job)
	results := make(chan result, window)
	slots := make(chan struct{}, window)
	srcErr := make(chan error, 1)

	go func() {
		defer close(jobs)
		seq := 0
		send := func(in input) bool {
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return false
			}
			select {
			case jobs <- job{seq, in}:
				seq++
				return true
			case <-ctx.Done():
				return false
			}
		}
		for i, p := range s.opts.Paths {
			if p != stdinArg {
				for _, in := range files[i] {
					if !send(in) {
						srcErr <- nil
						return
					}
				}
				continue
			}
			err := streamInputs(s.opts.IO.In, int64(s.opts.Load.MaxInput), func(in input) bool {
				return !s.wanted(in) || send(in)
			})
			if err != nil || ctx.Err() != nil {
				srcErr <- err
				return
			}
		}
		srcErr <- nil
	}()

	var wg sync.WaitGroup
	for range s.opts.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case j, ok := <-jobs:
					if !ok {
						return
					}
					recs, note, ok := s.process(ctx, j.in)
					results <- result{j.seq, recs, note, ok}
				case <-ctx.Done():
					return
				}
			}
		}()
	}
	go func() { wg.Wait(); close(results) }()

	pending := map[int]result{}
	next, stopped, done := 0, false, 0
	var writeErr error
	for r := range results {
		pending[r.seq] = r
		for {
			p, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			next++
			<-slots
			switch {
			case stopped:
				s.sum.unfinished++
			case !p.ok:
				// Interrupted: stop at the first gap so the output stays a
				// prefix in input order; --resume redoes the rest.
				stopped = true
				s.sum.unfinished++
			default:
				if p.note != "" {
					fmt.Fprintf(s.opts.IO.ErrOut, "offattr: %s (left out)\n", escape.Line(p.note))
					s.sum.leftOut++
				}
				for _, rec := range p.recs {
					if err := s.out.Write(rec); err != nil {
						writeErr, stopped = err, true
						cancel()
						break
					}
					s.sum.add(rec)
				}
				done++
				bar.add(1)
			}
		}
	}
	s.sum.unfinished += len(pending)
	if total >= 0 && (stopped || ctx.Err() != nil) {
		// Interrupted: what was left is every listed input not recorded,
		// those never handed to a worker included.
		s.sum.unfinished = total - done
	}
	if writeErr != nil {
		return writeErr
	}
	if ctx.Err() != nil {
		return nil // the caller tells interruption from the parent context
	}
	return <-srcErr
}

// process screens one input: a record for each of its runs (each trace
// of a telemetry file, named FILE#TRACEID, less those --resume finds
// recorded), or one failure. ok is false only when the screen was
// interrupted before the input finished; every other outcome, failures
// included, is recorded, but for a labels file kept beside the traces it
// labels (for eval's --labels): no run and no failed one, it is left out
// with a note.
func (s *screener) process(ctx context.Context, in input) (recs []screenfile.Record, note string, ok bool) {
	if ctx.Err() != nil {
		return nil, "", false
	}
	defer func() {
		// A bug tripped by one odd run must not end a screen of thousands.
		if p := recover(); p != nil {
			recs, note, ok = []screenfile.Record{s.record(in.name, screenfile.Record{Error: fmt.Sprintf("internal error (please report it): %v", p)})}, "", true
		}
	}()
	if in.err != nil {
		return []screenfile.Record{s.failure(in.name, fmt.Errorf("screen %s: %w", in.name, in.err))}, "", true
	}
	var (
		runs []*run.Run
		err  error
	)
	if in.data != nil {
		runs, err = s.opts.Load.ParseAll(ctx, in.name, in.data)
	} else {
		runs, err = s.opts.Load.LoadAll(ctx, in.name)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, "", false
		}
		if errors.Is(err, run.ErrLabelsFile) {
			return nil, s.failure(in.name, err).Error, true
		}
		return []screenfile.Record{s.failure(in.name, err)}, "", true
	}
	for _, r := range runs {
		if r.Source != in.name && s.done(r.Source) {
			s.sum.skippedResume.Add(1)
			continue
		}
		rec, ok := s.screen(ctx, r)
		if !ok {
			return nil, "", false
		}
		recs = append(recs, rec)
	}
	return recs, "", true
}

// screen attributes and triages one run.
func (s *screener) screen(ctx context.Context, r *run.Run) (screenfile.Record, bool) {
	res, err := s.analyze(ctx, r)
	a := res.Attribution
	if err != nil {
		if ctx.Err() != nil {
			return screenfile.Record{}, false
		}
		return s.failure(r.Source, fmt.Errorf("analyze %s: %w", r.Source, err)), true
	}
	rec := screenfile.Record{
		Agent: a.Agent, Step: a.Step, TraceID: a.TraceID, SpanID: a.SpanID, Confidence: a.Confidence,
		Triage: triage.Class(a.Triage), Reason: a.TriageReason, Mode: a.Mode, Model: a.Model, Usage: a.Usage,
	}
	if n := min(s.opts.Candidates, len(a.Candidates)); n > 0 {
		rec.Candidates = a.Candidates[:n]
	}
	return s.record(r.Source, rec), true
}

// failure is the record of an input or a run that could not be screened.
func (s *screener) failure(name string, err error) screenfile.Record {
	msg := err.Error()
	if s.patterns != nil {
		msg = s.patterns.NewRedactor().String(msg) // errors may quote the run
	}
	return s.record(name, screenfile.Record{Error: msg})
}
