package cmdutil

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/offattr/offattr/run"
)

// LoadFlags are the flags that say how run files are read.
type LoadFlags struct {
	Format        string
	Question      string
	GroundTruth   string
	NoGroundTruth bool
	MaxInput      ByteSize
	// Labels is a labels file for telemetry (--labels, on the commands that
	// read labelled cases).
	Labels string
	// In is what the file "-" reads (standard input).
	In io.Reader
}

// RegisterLabels adds --labels, for the commands that score or fit on
// labelled cases.
func (l *LoadFlags) RegisterLabels(fs *pflag.FlagSet) {
	fs.StringVar(&l.Labels, "labels", "", `labels for telemetry files: JSON lines {"trace_id", "span_id", "reason"}; they win over offattr.mistake attributes`)
}

// DefaultMaxInput is --max-input's default (run.DefaultMaxInput).
const DefaultMaxInput = run.DefaultMaxInput

// Register adds the flags to fs. --format was the input format's name
// before every command used --format for what it writes; it stays as a
// deprecated alias where it never meant anything else.
func (l *LoadFlags) Register(fs *pflag.FlagSet) {
	l.RegisterInput(fs)
	fs.StringVar(&l.Format, "format", string(run.FormatAuto), "input format (deprecated: use --input-format)")
	_ = fs.MarkDeprecated("format", "use --input-format; --format is for what a command writes")
	fs.StringVar(&l.GroundTruth, "ground-truth", "", "the correct final answer (overrides the file)")
	fs.BoolVar(&l.NoGroundTruth, "no-ground-truth", false, "attribute without the ground-truth answer, even if the file has one")
}

// RegisterInput adds only the flags that say how a file is read, for a
// command whose --format is its output.
func (l *LoadFlags) RegisterInput(fs *pflag.FlagSet) {
	fs.StringVar(&l.Format, "input-format", string(run.FormatAuto), "input format: auto, whowhen, transcript, a coding agent's session log: claude-code, codex, aider, or a trace file: otlp, tempo, jaeger, openinference (phoenix, mlflow, zipkin, genkit), langfuse, langsmith, calls (a log of model calls), sentry, datadog, lunary, literalai, posthog, maxim, galileo, xray")
	fs.StringVar(&l.Question, "question", "", "the task the run tried to solve (overrides the file)")
	l.MaxInput = DefaultMaxInput
	fs.Var(&l.MaxInput, "max-input", "refuse inputs larger than this (bytes, or with K, M, G: powers of 1024; 0 for no limit)")
}

// Options converts the flags into loader options.
func (l *LoadFlags) Options() (run.Options, error) {
	f, err := run.ParseFormat(l.Format)
	if err != nil {
		return run.Options{}, Usagef("--input-format: %w", err)
	}
	opts := run.Options{Format: f, Question: l.Question, GroundTruth: l.GroundTruth, NoGroundTruth: l.NoGroundTruth,
		MaxInput: int64(l.MaxInput), Stdin: l.In}
	if l.Labels != "" {
		// A labels file that cannot be read is a usage error, as a
		// weights or a patterns file is: the command line names it.
		if opts.Labels, err = run.ReadLabels(l.Labels, int64(l.MaxInput)); err != nil {
			return run.Options{}, Usage(err)
		}
		opts.LabelsFile = l.Labels
	}
	return opts, nil
}

// NotADirectory refuses a directory where one run file is read: the
// system's "is a directory" does not say that screen and eval read every
// run under one. FILE#TRACEID is checked by its file.
func NotADirectory(path string) error {
	file, _ := run.SplitRef(path)
	if file == run.Stdin {
		return nil
	}
	if fi, err := os.Stat(file); err == nil && fi.IsDir() {
		return fmt.Errorf("load %s: a directory, not a run file: name one run file in it, or give the directory to offattr screen (or offattr eval, for labelled runs), which read every run under it", file)
	}
	return nil
}

// Load reads one run as the flags say (--no-ground-truth included); "-"
// reads standard input. A run never carries the benchmark label (see
// run.Case). It stops when ctx ends, even while the file is still read.
func (l *LoadFlags) Load(ctx context.Context, path string) (*run.Run, error) {
	opts, err := l.Options()
	if err != nil {
		return nil, err
	}
	if err := NotADirectory(path); err != nil {
		return nil, err
	}
	c, err := run.LoadOne(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return c.Run, nil
}

// LoadAll reads every run of a file as the flags say: one per trace of a
// telemetry file (FILE#TRACEID names one), else the one run.
func (l *LoadFlags) LoadAll(ctx context.Context, path string) ([]*run.Run, error) {
	opts, err := l.Options()
	if err != nil {
		return nil, err
	}
	if err := NotADirectory(path); err != nil {
		return nil, err
	}
	cases, err := run.LoadAll(ctx, path, opts)
	if err != nil {
		return nil, err
	}
	return Runs(cases), nil
}

// ParseAll is LoadAll for a run already in memory.
func (l *LoadFlags) ParseAll(ctx context.Context, name string, data []byte) ([]*run.Run, error) {
	opts, err := l.Options()
	if err != nil {
		return nil, err
	}
	cases, err := run.ParseAll(ctx, name, data, opts)
	if err != nil {
		return nil, err
	}
	return Runs(cases), nil
}

// Runs drops the labels of cases: commands that attribute never see them.
func Runs(cases []*run.Case) []*run.Run {
	out := make([]*run.Run, len(cases))
	for i, c := range cases {
		out[i] = c.Run
	}
	return out
}

// Parse is Load for a run already in memory (a line of a JSONL stream);
// name stands for the file in errors and as the run's source.
func (l *LoadFlags) Parse(name string, data []byte) (*run.Run, error) {
	opts, err := l.Options()
	if err != nil {
		return nil, err
	}
	return run.Parse(name, data, opts)
}

// ByteSize is a flag value in bytes, written as a number with an optional
// K, M or G (powers of 1024; "KB", "MiB" and the like read the same).
type ByteSize int64

func (b *ByteSize) String() string {
	if *b == 0 {
		return "0"
	}
	return strings.ReplaceAll(run.FormatSize(int64(*b)), " ", "")
}

// Set parses a size.
func (b *ByteSize) Set(s string) error {
	t := strings.ToUpper(strings.TrimSpace(s))
	t = strings.TrimSuffix(strings.TrimSuffix(t, "IB"), "B")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		case 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(t), 64)
	if err != nil || !(v >= 0 && v*float64(mult) <= 1<<62) { // NaN fails too
		return fmt.Errorf("%q is not a size (e.g. 512K, 256M, 2G)", s)
	}
	*b = ByteSize(v * float64(mult))
	return nil
}

// Type names the value in --help.
func (b *ByteSize) Type() string { return "size" }
