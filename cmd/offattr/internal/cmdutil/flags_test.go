package cmdutil

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

func TestByteSize(t *testing.T) {
	tests := []struct {
		in   string
		want ByteSize
	}{
		{"0", 0}, {"1000", 1000}, {"512K", 512 << 10}, {"256M", 256 << 20}, {"256MB", 256 << 20}, {"256MiB", 256 << 20},
		{"2g", 2 << 30}, {"1.5G", 3 << 29}, {" 64 KB ", 64 << 10},
	}
	for _, tt := range tests {
		var b ByteSize
		require.NoError(t, b.Set(tt.in), tt.in)
		assert.Equal(t, tt.want, b, tt.in)
	}
	for _, bad := range []string{"", "lots", "-1M", "NaN", "Inf", "1Q", "99999999T"} {
		var b ByteSize
		assert.Error(t, b.Set(bad), bad)
	}
	var l LoadFlags
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	l.Register(fs)
	assert.Equal(t, "256MiB", fs.Lookup("max-input").DefValue)
	require.NoError(t, fs.Parse([]string{"--max-input", "1K"}))
	o, err := l.Options()
	require.NoError(t, err)
	assert.Equal(t, int64(1024), o.MaxInput)
}

func TestLoadRefusesTooLargeNamingTheFlag(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.json")
	require.NoError(t, os.WriteFile(path, make([]byte, 4096), 0o644))
	l := LoadFlags{Format: "auto", MaxInput: 1024}
	_, err := l.Load(context.Background(), path)
	require.ErrorIs(t, err, run.ErrTooLarge)
	assert.EqualError(t, err, "load "+path+": input is 4 KiB, larger than the 1 KiB limit; raise --max-input to read it")
}

// TestLabelsAreBoundAsInputs: --labels is refused past --max-input, as an
// input is, with an error naming the file, before it is read whole.
func TestLabelsAreBoundAsInputs(t *testing.T) {
	path := filepath.Join(t.TempDir(), "labels.jsonl")
	line := `{"trace_id":"4bf92f3577b34da65eed0000cafe0001","span_id":"00f067aa0ba90004"}` + "\n"
	data := make([]byte, 0, 4096)
	for len(data)+len(line) <= 4096 {
		data = append(data, line...)
	}
	require.NoError(t, os.WriteFile(path, data, 0o644))
	l := LoadFlags{Format: "auto", Labels: path, MaxInput: 4096}
	o, err := l.Options()
	require.NoError(t, err, "within the bound")
	assert.Len(t, o.Labels, 1)
	l.MaxInput = 1024
	_, err = l.Options()
	require.ErrorIs(t, err, run.ErrTooLarge)
	assert.ErrorContains(t, err, "labels "+path+": input is ")
	assert.ErrorContains(t, err, "larger than the 1 KiB limit; raise --max-input to read it")
}

// Load stops when its context ends, while the run is still being read:
// graph and context read a whole run before anything else, and a large one
// takes seconds.
func TestLoadStopsWhenCancelled(t *testing.T) {
	pr, pw := io.Pipe()
	defer pw.Close()
	l := LoadFlags{Format: "auto", In: pr}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := l.Load(ctx, "-")
		done <- err
	}()
	// The write returns once the loader has read it: it is reading now,
	// and the input never ends.
	_, err := pw.Write([]byte(`{"history": [`))
	require.NoError(t, err)
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
	case <-time.After(time.Minute): // a guard only: it returns at once
		t.Fatal("Load went on reading after its context ended")
	}
}

func TestRedactFlags(t *testing.T) {
	var r RedactFlags
	p, err := r.Compile()
	require.NoError(t, err)
	assert.Nil(t, p, "off by default")
	cause := errors.New("bad line")
	err = r.Error(cause)
	assert.Same(t, cause, err, "nothing to mask without redaction")

	r = RedactFlags{On: true}
	p, err = r.Compile()
	require.NoError(t, err)
	require.NotNil(t, p)
	again, err := r.Compile()
	require.NoError(t, err)
	assert.Same(t, p, again, "compiled once")
	err = r.Error(&UsageError{Err: errors.New("load x: mistake_step \"mail bob@example.com\" is not a step index")})
	assert.EqualError(t, err, `load x: mistake_step "mail [EMAIL_1]" is not a step index`)
	var usage *UsageError
	assert.ErrorAs(t, err, &usage, "the chain is kept: main still sees a usage error")

	_, err = (&RedactFlags{Off: true, Patterns: "p.txt"}).Compile()
	assert.ErrorAs(t, err, &usage)
	_, err = (&RedactFlags{Patterns: filepath.Join(t.TempDir(), "none.txt")}).Compile()
	assert.ErrorAs(t, err, &usage, "a patterns file that cannot be read is a usage error")
}

func TestOutErr(t *testing.T) {
	full := &recorder{w: failingWriter{}}
	s := &IOStreams{Out: full}
	_, err := s.Out.Write([]byte("x"))
	require.Error(t, err)
	assert.EqualError(t, s.OutErr(), "disk full")
	assert.NoError(t, (&IOStreams{Out: &recorder{w: &nopWriter{}}}).OutErr())
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

type nopWriter struct{}

func (*nopWriter) Write(p []byte) (int, error) { return len(p), nil }

func TestRuleFlagsReadTheWeightsOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "w.json")
	w := rules.DefaultWeights()
	w.Critical = 0.5
	data, err := json.Marshal(w)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(path, data, 0o644))

	r := RuleFlags{Weights: path}
	first, err := r.Combiner()
	require.NoError(t, err)
	assert.Equal(t, 0.5, first.Weights.Critical)

	require.NoError(t, os.Remove(path))
	again, err := r.Combiner()
	require.NoError(t, err, "the file is not read a second time")
	assert.Same(t, first.Weights, again.Weights)

	_, err = (&RuleFlags{Weights: path}).Combiner()
	var usage *UsageError
	assert.ErrorAs(t, err, &usage, "new flags read the file, which is gone: the flag names no weights")
}

// Output thrown away to the null device is not a terminal; a regular file
// is not either.
func TestIsTerminal(t *testing.T) {
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	require.NoError(t, err)
	defer null.Close()
	assert.False(t, isTerminal(null))
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	require.NoError(t, err)
	defer f.Close()
	assert.False(t, isTerminal(f))
}

// TestInputFormatHelpNamesEveryFormat: --input-format's help is where a
// user looks for the name to force a format by.
func TestInputFormatHelpNamesEveryFormat(t *testing.T) {
	var l LoadFlags
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	l.RegisterInput(fs)
	usage := fs.Lookup("input-format").Usage
	for _, f := range run.Formats {
		assert.Regexp(t, `(^|[ (])`+string(f)+`([,) ]|$)`, usage, "--input-format's help does not name %s", f)
	}
}
