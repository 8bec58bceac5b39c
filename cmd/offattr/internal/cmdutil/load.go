package cmdutil

import (
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
	fs.StringVar(&l.Format, formatName, string(run.FormatAuto), "input format: auto, whowhen or transcript")
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
