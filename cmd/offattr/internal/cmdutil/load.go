package cmdutil

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/offattr/offattr/run"
)

// LoadFlags are the flags that say how run files are read.
type LoadFlags struct {
	Format        string
	Question      string
	GroundTruth   string
	NoGroundTruth bool
}

// Register adds the flags to fs.
func (l *LoadFlags) Register(fs *pflag.FlagSet) {
	l.RegisterInput(fs, "format")
	fs.StringVar(&l.GroundTruth, "ground-truth", "", "the correct final answer (overrides the file)")
	fs.BoolVar(&l.NoGroundTruth, "no-ground-truth", false, "attribute without the ground-truth answer, even if the file has one")
}

// RegisterInput adds only the flags that say how a file is read, with the
// format flag under formatName, for a command whose --format is its output.
func (l *LoadFlags) RegisterInput(fs *pflag.FlagSet, formatName string) {
	fs.StringVar(&l.Format, formatName, string(run.FormatAuto), "input format: auto, whowhen, transcript, or a trace file: otlp, tempo, jaeger, openinference (phoenix), langfuse")
	fs.StringVar(&l.Question, "question", "", "the task the run tried to solve (overrides the file)")
}

// Options converts the flags into loader options.
func (l *LoadFlags) Options() (run.Options, error) {
	f, err := run.ParseFormat(l.Format)
	if err != nil {
		return run.Options{}, err
	}
	return run.Options{Format: f, Question: l.Question, GroundTruth: l.GroundTruth, NoGroundTruth: l.NoGroundTruth}, nil
}

// Load reads one run as the flags say (--no-ground-truth included). A run
// never carries the benchmark label (see run.Case).
func (l *LoadFlags) Load(path string) (*run.Run, error) {
	opts, err := l.Options()
	if err != nil {
		return nil, err
	}
	return run.Load(path, opts)
}

// LoadAll reads every run of a file as the flags say: one per trace of a
// telemetry file (FILE#TRACEID names one), else the one run.
func (l *LoadFlags) LoadAll(ctx context.Context, path string) ([]*run.Run, error) {
	opts, err := l.Options()
	if err != nil {
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

// LoadCase is Load keeping the label, for scoring.
func (l *LoadFlags) LoadCase(path string) (*run.Case, error) {
	opts, err := l.Options()
	if err != nil {
		return nil, err
	}
	return run.LoadCase(path, opts)
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
