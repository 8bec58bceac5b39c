// Package stepscmd implements `offattr steps`: the run as offattr read it,
// step by step, the first thing to look at when a trace reads oddly.
package stepscmd

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/run"
)

// StepsOptions holds every input and dependency of one steps command.
type StepsOptions struct {
	IO   *cmdutil.IOStreams
	Load cmdutil.LoadFlags
	Path string
	JSON bool
	// Width clips each step's text in the table to this many characters;
	// 0 prints it whole.
	Width int
	// Redact masks the runs before they are printed.
	Redact cmdutil.RedactFlags
}

// NewCmdSteps returns the steps command; runF replaces the run function in
// tests that check flag parsing alone.
func NewCmdSteps(io *cmdutil.IOStreams, runF func(*StepsOptions) error) *cobra.Command {
	opts := &StepsOptions{IO: io, Load: cmdutil.LoadFlags{In: io.In}}
	cmd := &cobra.Command{
		Use:   "steps FILE",
		Short: "Print the run as offattr read it: its task and its steps",
		Long: `Print the normalised run: the task, and each step's index, agent, kind and
text (and, for telemetry, its span), one run after another for a file of
several traces. It is the first thing to run on a trace file, to see how
its spans became steps.

With --json, one object per run: {"file", "trace_id", "question", "steps":
[{"index", "agent", "role", "kind", "text", "span_id", "from", "target"}]}
("from": the attribute or event of the span the text was read from, or the
part or item of a session log's record), as JSON
lines when the file holds several runs. The table escapes control
characters; the JSON escapes them too, so the text read back is as logged.
--redact masks secrets and personal data first.`,
		Example: `  offattr steps traces.jsonl
  offattr steps traces.jsonl#4bf92f3577b34da65eed0000cafe0001 --width 0
  offattr steps export.json --input-format langfuse --json | jq .steps[0]`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Path = args[0]
			if runF != nil {
				return runF(opts)
			}
			return opts.Redact.Error(stepsRun(cmd.Context(), opts))
		},
	}
	opts.Load.RegisterInput(cmd.Flags())
	opts.Redact.Register(cmd.Flags())
	cmd.Flags().BoolVar(&opts.JSON, "json", false, "print each run as JSON (JSON lines for several)")
	cmdutil.IntVar(cmd.Flags(), &opts.Width, "width", 100, 0, math.MaxInt, "clip each step's text to this many characters in the table; 0 for the whole text")
	return cmd
}

// Run is steps' JSON output for one run; its shape is a contract.
type Run struct {
	File     string `json:"file"`
	TraceID  string `json:"trace_id"`
	Question string `json:"question"`
	Steps    []Step `json:"steps"`
}

// Step is one step of Run.
type Step struct {
	Index  int      `json:"index"`
	Agent  string   `json:"agent"`
	Role   string   `json:"role"`
	Kind   run.Kind `json:"kind"`
	Text   string   `json:"text"`
	SpanID string   `json:"span_id"`
	// TraceID is set where the step was read from another trace than the
	// run's: a run joined from its session's traces.
	TraceID string `json:"trace_id,omitempty"`
	From    string `json:"from,omitempty"`
	Target  string `json:"target,omitempty"`
}

func stepsRun(ctx context.Context, opts *StepsOptions) error {
	patterns, err := opts.Redact.Compile()
	if err != nil {
		return err
	}
	runs, err := opts.Load.LoadAll(ctx, opts.Path)
	if err != nil {
		return err
	}
	for i, r := range runs {
		if patterns != nil {
			masked, err := engine.RedactContext(ctx, patterns.NewRedactor(), r)
			if err != nil {
				return fmt.Errorf("%s: %w", r.Source, err)
			}
			r = masked
		}
		page, err := render(ctx, func(w io.Writer) error {
			if opts.JSON {
				return writeJSON(w, r, len(runs) > 1)
			}
			if i > 0 {
				fmt.Fprintln(w)
			}
			return WriteText(w, r, opts.Width)
		})
		if err != nil {
			return err
		}
		if _, err := opts.IO.Out.Write(page); err != nil {
			return err
		}
	}
	return nil
}

// render returns what write writes, or ctx's error as soon as ctx is
// done. A run of a million steps takes seconds to lay out (the table is
// aligned over every row, the JSON encoded whole), and an interrupted
// command must stop at once and print nothing of it; once laid out, the
// page is written in one call.
func render(ctx context.Context, write func(io.Writer) error) ([]byte, error) {
	type page struct {
		data []byte
		err  error
	}
	done := make(chan page, 1)
	go func() {
		var b bytes.Buffer
		err := write(&b)
		done <- page{b.Bytes(), err}
	}()
	select {
	case p := <-done:
		return p.data, p.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func writeJSON(w io.Writer, r *run.Run, lines bool) error {
	out := Run{File: r.Source, TraceID: r.TraceID, Question: r.Question, Steps: make([]Step, len(r.Steps))}
	for i, s := range r.Steps {
		out.Steps[i] = Step{Index: s.Index, Agent: s.Agent, Role: s.Role, Kind: s.Kind, Text: s.Content, SpanID: s.SpanID(), From: s.From(), Target: s.Target()}
		if t := s.TraceID(); t != r.TraceID {
			out.Steps[i].TraceID = t
		}
	}
	// Escaped as analyze --json is: bidirectional and C1 controls too.
	if lines {
		return cmdutil.WriteJSONLine(w, out)
	}
	return cmdutil.WriteJSON(w, out)
}

// WriteText prints a run as a table for a person. Everything in it came
// from the file, so everything is made printable first.
func WriteText(w io.Writer, r *run.Run, width int) error {
	fmt.Fprintf(w, "%s  (%s, %d steps, agents: %s)\n", Printable(r.Source), r.Format, len(r.Steps), Printable(strings.Join(r.Agents(), ", ")))
	if r.Question != "" {
		fmt.Fprintf(w, "task: %s\n", clip(Printable(r.Question), width))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	// A run of a trace shows its steps' spans; a record of a file of
	// several runs (an OpenHands evaluation's) is named as one and has none.
	span := slices.ContainsFunc(r.Steps, func(s run.Step) bool { return s.SpanID() != "" })
	head := "#\tagent\tkind\t"
	if span {
		head += "span\t"
	}
	fmt.Fprintln(tw, head+"text")
	for _, s := range r.Steps {
		kind := string(s.Kind)
		if s.Target() != "" {
			kind += " → " + s.Target()
		}
		row := fmt.Sprintf("%d\t%s\t%s\t", s.Index, Printable(s.Agent), Printable(kind))
		if span {
			row += Printable(s.SpanID()) + "\t"
		}
		fmt.Fprintln(tw, row+clip(Printable(s.Content), width))
	}
	return tw.Flush()
}

// Printable makes text from a log safe to print on a terminal, on one
// line: runs of white space become one space, and every other control
// character escape.Unsafe names (escape sequences, C1 controls,
// bidirectional overrides that would reorder what is shown, invisible
// marks) is written as a Go escape (\x1b, \u202e).
func Printable(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			b.WriteString(`\ufffd`)
		case r == ' ' || r == '\n' || r == '\r' || r == '\t':
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		case escape.Unsafe(r):
			if r < 0x100 {
				fmt.Fprintf(&b, `\x%02x`, r)
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
		space = false
	}
	return strings.TrimSpace(b.String())
}

// clip cuts s to width characters, marking the cut; width 0 keeps it all.
func clip(s string, width int) string {
	if width <= 0 || utf8.RuneCountInString(s) <= width {
		return s
	}
	runes := []rune(s)
	return string(runes[:max(width-1, 0)]) + "…"
}
