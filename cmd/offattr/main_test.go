package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/rules"
)

// The test binary is offattr itself when OFFATTR_TEST_MAIN is set: the
// tests run it as a subprocess to see what a user sees (exit codes,
// signals), without building it separately.
func TestMain(m *testing.M) {
	if os.Getenv("OFFATTR_TEST_MAIN") == "1" {
		os.Exit(run())
	}
	os.Exit(m.Run())
}

// offattr returns the command for offattr with args.
func offattr(args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "OFFATTR_TEST_MAIN=1")
	return cmd
}

func exitCode(t *testing.T, err error) int {
	t.Helper()
	if err == nil {
		return 0
	}
	var ee *exec.ExitError
	require.ErrorAs(t, err, &ee)
	return ee.ExitCode()
}

var magentic = filepath.Join("..", "..", "testdata", "runs", "magentic.json")

func TestExitCodes(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad")
	require.NoError(t, os.MkdirAll(bad, 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(bad, "1.json"), []byte(`{"messages": [`), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(bad, "2.json"), []byte(`[]`), 0o644))
	mixed := filepath.Join(dir, "mixed")
	require.NoError(t, os.MkdirAll(mixed, 0o755))
	data, err := os.ReadFile(magentic)
	require.NoError(t, err)
	require.NoError(t, os.WriteFile(filepath.Join(mixed, "1.json"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(mixed, "2.json"), []byte(`{"messages": [`), 0o644))

	outside := filepath.Join(dir, "outside")
	require.NoError(t, os.MkdirAll(outside, 0o755))
	for name, step := range map[string]string{"1.json": "-1", "2.json": "999999999", "3.json": "1", "4.json": "4"} {
		var c map[string]any
		require.NoError(t, json.Unmarshal(data, &c))
		c["mistake_step"] = step
		b, err := json.Marshal(c)
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(outside, name), b, 0o644))
	}

	tests := []struct {
		name string
		args []string
		want int
	}{
		{"attributed", []string{"analyze", magentic}, 0},
		{"eval of labels outside their runs", []string{"eval", outside}, 1},
		{"fit of labels outside their runs", []string{"fit", outside, "--cv", "loo"}, 1},
		{"every input of a screen attributed", []string{"screen", magentic}, 0},
		{"missing input", []string{"analyze", filepath.Join(dir, "nope.json")}, 1},
		{"bad input", []string{"graph", filepath.Join(bad, "1.json")}, 1},
		{"screen of a directory of bad files", []string{"screen", bad}, 1},
		{"screen of a path that does not exist", []string{"screen", filepath.Join(dir, "nope")}, 1},
		{"screen with one bad file of two", []string{"screen", mixed}, 1},
		{"eval of bad files", []string{"eval", bad}, 1},
		{"unknown command", []string{"analyse", magentic}, 2},
		{"unknown flag", []string{"analyze", magentic, "--jsn"}, 2},
		{"missing argument", []string{"context", "--step", "1"}, 2},
		{"mistyped command", []string{"anlyze", magentic}, 2},
		{"help of an unknown topic", []string{"help", "nope"}, 2},
		{"help of a command", []string{"help", "analyze"}, 0},
		{"unknown strategy without --model", []string{"analyze", magentic, "--strategy", "bogus"}, 2},
		{"panel out of range without --model", []string{"analyze", magentic, "--panel", "99"}, 2},
		{"negative top-k", []string{"analyze", magentic, "--top-k", "-3"}, 2},
		{"unknown rule", []string{"analyze", magentic, "--rules", "bogus"}, 2},
		{"unknown rule disabled", []string{"screen", magentic, "--disable", "bogus"}, 2},
		{"unknown baseline", []string{"eval", bad, "--baseline", "bogus"}, 2},
		{"one fold", []string{"fit", bad, "--cv", "1"}, 2},
		{"folds not a number", []string{"fit", bad, "--cv", "bogus"}, 2},
		{"unknown prior", []string{"fit", bad, "--prior", "bogus"}, 2},
		{"band out of range", []string{"screen", magentic, "--clear-above", "2"}, 2},
		{"step past the run", []string{"context", magentic, "--step", "99"}, 2},
		{"ollama host of another scheme", []string{"analyze", magentic, "--model", "x", "--ollama-host", "ftp://box:1"}, 2},
		{"ollama host port out of range without --model", []string{"analyze", magentic, "--ollama-host", "box:99999"}, 2},
		{"ollama host that is no address", []string{"screen", magentic, "--model", "x", "--ollama-host", "::bad::"}, 2},
		{"ollama host with an open bracket", []string{"analyze", magentic, "--model", "x", "--ollama-host", "http://[::1"}, 2},
		{"labels file missing", []string{"eval", magentic, "--labels", filepath.Join(dir, "nope.jsonl")}, 2},
		{"labels file of something else", []string{"eval", magentic, "--labels", magentic}, 2},
		{"help", []string{"analyze", "--help"}, 0},
		{"version", []string{"--version"}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := offattr(tt.args...)
			cmd.Stderr = &stderr
			assert.Equal(t, tt.want, exitCode(t, cmd.Run()), "stderr: %s", stderr.String())
			if tt.want == 2 {
				assert.Contains(t, stderr.String(), "--help' for usage.")
				assert.Equal(t, 2, strings.Count(stderr.String(), "\n"), "one line of error, one of hint: %s", stderr.String())
			}
		})
	}
}

func TestFailedWriteIsAnError(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full here")
	}
	defer full.Close()
	for _, args := range [][]string{
		{"analyze", magentic}, {"analyze", magentic, "--json"}, {"graph", magentic}, {"screen", magentic},
		{"context", magentic, "--step", "3"}, {"--help"},
	} {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			var stderr bytes.Buffer
			cmd := offattr(args...)
			cmd.Stdout, cmd.Stderr = full, &stderr
			assert.Equal(t, 1, exitCode(t, cmd.Run()))
			assert.Contains(t, stderr.String(), "no space left on device")
		})
	}
}

func TestForgedNamesStayOnTheirLine(t *testing.T) {
	forged := "WebSurfer\n  step 0\n  confidence 0.99\x1b[8m"
	run, err := json.Marshal(map[string]any{"question": "Q?", "messages": []map[string]string{
		{"role": "user", "content": "Find the answer."},
		{"role": "assistant", "name": forged, "content": "Error: the page could not be loaded. The answer is 12."},
		{"role": "assistant", "name": "=HYPERLINK(\"http://evil\",\"x\")", "content": "FINAL ANSWER: 12"},
	}})
	require.NoError(t, err)
	path := filepath.Join(t.TempDir(), "forged.json")
	require.NoError(t, os.WriteFile(path, run, 0o644))
	for _, args := range [][]string{
		{"analyze", path}, {"graph", path}, {"graph", path, "--format", "mermaid"}, {"context", path, "--step", "1"},
		{"screen", path, "-o", filepath.Join(t.TempDir(), "s.csv")}, {"analyze", path, "--json"}, {"graph", path, "--format", "json"},
	} {
		t.Run(strings.Join(args[:2], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd := offattr(args...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Run(), stderr.String())
			out := stdout.String() + stderr.String()
			assert.NotContains(t, out, "\x1b", "no escape reaches the terminal")
			assert.NotContains(t, out, "\n  step 0\n", "no forged line")
		})
	}
}

// TestOutputsThatAreNotPlainFiles: every output flag writes only to a
// regular file or a new path; a device, a pipe, a directory or the file
// standard output already goes to is refused at once (exit 1), untouched.
func TestOutputsThatAreNotPlainFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	toFull := filepath.Join(dir, "full")
	require.NoError(t, os.Symlink("/dev/full", toFull))
	stdoutFile := filepath.Join(dir, "stdout.jsonl")
	toStdout := filepath.Join(dir, "to-stdout.jsonl")
	require.NoError(t, os.Symlink(stdoutFile, toStdout))
	weights := filepath.Join(dir, "w.json")
	require.NoError(t, os.Symlink("/dev/null", weights))
	// A link to nothing would have the command create what it points to,
	// wherever that is.
	planted := filepath.Join(dir, "planted")
	dangling := filepath.Join(dir, "dangling.jsonl")
	require.NoError(t, os.Symlink(planted, dangling))
	corpus := filepath.Join("..", "..", "testdata", "runs")

	tests := []struct {
		name string
		args []string
		want string
	}{
		{"screen to a device", []string{"screen", magentic, "-o", "/dev/full"}, "not a regular file (character device)"},
		{"screen resumed from a device", []string{"screen", magentic, "-o", "/dev/zero", "--resume"}, "not a regular file (character device)"},
		{"screen to a pipe", []string{"screen", magentic, "-o", fifo}, "not a regular file (named pipe)"},
		{"screen to a link to its own stdout", []string{"screen", magentic, "-o", toStdout, "--resume"}, "the command's own standard output"},
		{"screen to its own stdout", []string{"screen", magentic, "-o", stdoutFile}, "the command's own standard output"},
		{"report to a link to a device", []string{"report", magentic, "-o", toFull}, "not a regular file (character device)"},
		{"report pages into a file", []string{"report", magentic, "--pages", magentic}, "not a directory"},
		{"export into a device", []string{"export", magentic, "-o", "/dev/null"}, "not a directory"},
		{"fit to a link to a device", []string{"fit", corpus, "-o", weights}, "not a regular file (character device)"},
		{"eval cases to a pipe", []string{"eval", corpus, "--cases", fifo}, "not a regular file (named pipe)"},
		{"screen to a link to nothing", []string{"screen", magentic, "-o", dangling}, "a link to a path that does not exist"},
		{"report to a link to nothing", []string{"report", magentic, "-o", dangling}, "a link to a path that does not exist"},
		{"fit to a link to nothing", []string{"fit", corpus, "-o", dangling}, "a link to a path that does not exist"},
		{"eval cases to a link to nothing", []string{"eval", corpus, "--cases", dangling}, "a link to a path that does not exist"},
		{"export into a link to nothing", []string{"export", magentic, "-o", dangling}, "a link to a path that does not exist"},
		{"report pages into a link to nothing", []string{"report", magentic, "--pages", dangling}, "a link to a path that does not exist"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := os.Create(stdoutFile)
			require.NoError(t, err)
			defer out.Close()
			var stderr bytes.Buffer
			cmd := offattr(tt.args...)
			cmd.Stdout, cmd.Stderr = out, &stderr
			// A guard against a command that waits on its output for
			// good, not a measure of speed.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			done := make(chan error, 1)
			require.NoError(t, cmd.Start())
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
			case <-ctx.Done():
				_ = cmd.Process.Kill()
				t.Fatal("the command waited on its output")
			}
			assert.Equal(t, 1, exitCode(t, err), stderr.String())
			assert.Contains(t, stderr.String(), tt.want)
			fi, err := os.Lstat(toFull)
			require.NoError(t, err)
			assert.NotZero(t, fi.Mode()&os.ModeSymlink, "the link is not replaced")
			assert.NoFileExists(t, planted, "nothing is made where a link points")
			assert.NoDirExists(t, planted, "nothing is made where a link points")
		})
	}
}

// TestOutputThatIsAnInput: an output that is one of the command's inputs,
// or a run file inside a directory it reads, is refused before anything
// is read or written (exit 1), and the input is left as it was.
func TestOutputThatIsAnInput(t *testing.T) {
	original, err := os.ReadFile(magentic)
	require.NoError(t, err)
	tests := []struct {
		name string
		args func(dir, in string) []string
	}{
		{"report over its run", func(_, in string) []string { return []string{"report", in, "-o", in} }},
		{"report over its run through a link", func(dir, in string) []string {
			link := filepath.Join(dir, "link.html")
			require.NoError(t, os.Symlink(in, link))
			return []string{"report", in, "-o", link}
		}},
		{"eval cases over its case", func(_, in string) []string { return []string{"eval", in, "--cases", in} }},
		{"eval cases into the directory it reads", func(dir, _ string) []string {
			return []string{"eval", dir, "--cases", filepath.Join(dir, "cases.jsonl")}
		}},
		{"fit over its run", func(_, in string) []string { return []string{"fit", in, in, "-o", in} }},
		{"screen over its run", func(_, in string) []string { return []string{"screen", in, "-o", in, "--resume"} }},
		{"screen into the directory it reads", func(dir, _ string) []string {
			return []string{"screen", dir, "-o", filepath.Join(dir, "sub", "..", "screen.jsonl")}
		}},
		{"screen over what its glob matches", func(dir, _ string) []string {
			return []string{"screen", filepath.Join(dir, "*.json*"), "-o", filepath.Join(dir, "screen.jsonl")}
		}},
		{"screen into a directory its glob matches", func(dir, _ string) []string {
			return []string{"screen", filepath.Join(dir, "s*"), "-o", filepath.Join(dir, "sub", "screen.jsonl")}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			require.NoError(t, os.Mkdir(filepath.Join(dir, "sub"), 0o755))
			in := filepath.Join(dir, "run.json")
			require.NoError(t, os.WriteFile(in, original, 0o644))
			var stderr bytes.Buffer
			cmd := offattr(tt.args(dir, in)...)
			cmd.Stderr = &stderr
			err := cmd.Run()
			assert.Equal(t, 1, exitCode(t, err), stderr.String())
			assert.Contains(t, stderr.String(), "an input")
			data, err := os.ReadFile(in)
			require.NoError(t, err)
			assert.Equal(t, string(original), string(data), "the input is untouched")
			entries, err := os.ReadDir(dir)
			require.NoError(t, err)
			for _, e := range entries {
				assert.Contains(t, []string{"run.json", "sub", "link.html"}, e.Name(), "nothing is written")
			}
		})
	}
}

// TestOutputThatIsAStandardStream: an output that is the file standard
// error or standard input already is would be replaced under them (a
// rename) or read back: refused, exit 1, the file untouched.
func TestOutputThatIsAStandardStream(t *testing.T) {
	original, err := os.ReadFile(magentic)
	require.NoError(t, err)
	for _, stream := range []string{"standard error", "standard input"} {
		for _, command := range []string{"report", "eval"} {
			t.Run(command+" to "+stream, func(t *testing.T) {
				dir := t.TempDir()
				path := filepath.Join(dir, "stream.json")
				require.NoError(t, os.WriteFile(path, original, 0o644))
				f, err := os.OpenFile(path, os.O_RDWR|os.O_APPEND, 0)
				require.NoError(t, err)
				defer f.Close()
				args := []string{"report", magentic, "-o", path}
				if command == "eval" {
					args = []string{"eval", magentic, "--cases", path}
				}
				var stderr bytes.Buffer
				cmd := offattr(args...)
				cmd.Stderr = &stderr
				if stream == "standard error" {
					cmd.Stderr = f
				} else {
					cmd.Stdin = f
				}
				err = cmd.Run()
				msg := stderr.String()
				if stream == "standard error" {
					data, rerr := os.ReadFile(path)
					require.NoError(t, rerr)
					msg = string(data[min(len(original), len(data)):])
					msg = msg[max(0, len(msg)-300):] // the message, not a page written over it
				}
				assert.Equal(t, 1, exitCode(t, err), msg)
				assert.Contains(t, msg, "it is the command's own "+stream)
				data, err := os.ReadFile(path)
				require.NoError(t, err)
				assert.True(t, strings.HasPrefix(string(data), string(original)), "the file is not replaced")
			})
		}
	}
}

// TestNoRawControlInAnyOutput: a file name, agent names and text full of
// control, bidirectional and invisible characters reach no output raw, in
// any format: text, JSON, JSON lines, CSV (every column), DOT, Mermaid.
func TestNoRawControlInAnyOutput(t *testing.T) {
	bad := "A\x1b[31mX\x07Y\rZ\nW\u202eV\u200bU\u009bT\u2066"
	data, err := json.Marshal(map[string]any{"question": "q" + bad, "ground_truth": "42", "mistake_agent": "Surf" + bad, "mistake_step": "2",
		"history": []map[string]string{
			{"role": "human", "content": "q"},
			{"role": "Orch" + bad, "content": "look it up " + bad},
			{"role": "Surf" + bad, "content": "Error: failed. The result is 41 " + bad},
			{"role": "Orch" + bad, "content": "FINAL ANSWER: 41 " + bad},
		}})
	require.NoError(t, err)
	dir := t.TempDir()
	path := filepath.Join(dir, "run"+bad+".json")
	require.NoError(t, os.WriteFile(path, data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "run2"+bad+".json"), data, 0o644))
	csvOut, bundles := filepath.Join(dir, "s.csv"), filepath.Join(t.TempDir(), "bundles")
	// Outputs named with the same characters: the messages that name them.
	pages, weights := filepath.Join(t.TempDir(), "pages"+bad), filepath.Join(t.TempDir(), "w"+bad+".json")
	for _, args := range [][]string{
		{"analyze", path}, {"analyze", path, "--json"}, {"steps", path}, {"steps", path, "--json"},
		{"graph", path}, {"graph", path, "--format", "dot"}, {"graph", path, "--format", "mermaid"}, {"graph", path, "--format", "json"},
		{"context", path, "--step", "1"}, {"context", path, "--step", "1", "--json"},
		{"screen", path}, {"screen", path, "-o", csvOut}, {"eval", dir}, {"eval", dir, "--json"},
		{"export", path, "-o", bundles},
		{"report", csvOut, "--pages", pages, "-o", filepath.Join(t.TempDir(), "r"+bad+".html")},
		{"fit", dir, "-o", weights},
	} {
		t.Run(strings.Join(args[:1], " ")+" "+strings.Join(args[2:], " "), func(t *testing.T) {
			var stdout, stderr bytes.Buffer
			cmd := offattr(args...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			require.NoError(t, cmd.Run(), stderr.String())
			out := stdout.String() + stderr.String()
			if args[len(args)-1] == csvOut {
				written, err := os.ReadFile(csvOut)
				require.NoError(t, err)
				out += string(written)
			}
			if args[len(args)-1] == bundles {
				files, err := filepath.Glob(filepath.Join(bundles, "*"))
				require.NoError(t, err)
				require.Len(t, files, 2, "the Markdown prompt and its JSON")
				for _, f := range files {
					written, err := os.ReadFile(f)
					require.NoError(t, err)
					out += string(written)
				}
			}
			for _, r := range out {
				if r != '\n' && escape.Unsafe(r) {
					assert.Failf(t, "raw control", "%U in %q", r, out)
					return
				}
			}
		})
	}
}

// longRun writes a Who&When run of n steps: an orchestrator instructing a
// coder, the coder's code, the terminal's output and the orchestrator's
// thought, over and over with other numbers. Analysing 48,000 of them
// takes seconds (context fitting, the cheapest command, about 3 s on the
// 2-core machine; analyze about 13 s).
func longRun(t *testing.T, path string, n int) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(`{"question": "Add up the totals of every order.", "ground_truth": "42", "mistake_agent": "Coder", "mistake_step": "1", "history": [`)
	for i := range n {
		var role, content string
		switch i % 4 {
		case 0:
			role, content = "Orchestrator (-> Coder)", fmt.Sprintf("Next, compute the total of order %d: add the item prices 12.50, %d.25 and 3.75, then report it.", i, i%97)
		case 1:
			role, content = "Coder", fmt.Sprintf("```python\nprices = [12.50, %d.25, 3.75]\nprint(sum(prices))\n```", i%97)
		case 2:
			role, content = "Computer_terminal", fmt.Sprintf("exitcode: %d (execution %s)\nCode output: %d.50", i%3/2, map[bool]string{true: "failed", false: "succeeded"}[i%3 == 2], 16+i%97)
		default:
			role, content = "Orchestrator (thought)", fmt.Sprintf("The total of order %d is %d.50 dollars. We are making progress; on to the next order.", i-3, 16+i%97)
		}
		if i > 0 {
			b.WriteString(",\n")
		}
		m, _ := json.Marshal(map[string]string{"role": role, "content": content})
		b.Write(m)
	}
	b.WriteString("]}\n")
	require.NoError(t, os.WriteFile(path, b.Bytes(), 0o644))
}

// TestInterruptStopsEveryCommand sends SIGINT to each command working on
// a 48,000-step run and checks that it stops soon, exits 130, and leaves
// only whole output behind. The time bound is generous (the machine may be
// shared); the figures themselves are measured by hand (README).
func TestInterruptStopsEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("analyses a 48,000-step run in several processes")
	}
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send on Windows")
	}
	dir := t.TempDir()
	long := filepath.Join(dir, "9.json")
	// Long enough that no command finishes before the signal: at 12,000
	// steps, once extraction had been made faster, context fitting was done
	// in 0.7 s and exited 0 before the signal came.
	longRun(t, long, 48000)
	longData, err := os.ReadFile(long)
	require.NoError(t, err)
	// screen reads runs from standard input as JSON lines: three short
	// runs, then the long one.
	var stream bytes.Buffer
	short, err := os.ReadFile(magentic)
	require.NoError(t, err)
	for _, data := range [][]byte{short, short, short, longData} {
		require.NoError(t, json.Compact(&stream, data))
		stream.WriteByte('\n')
	}
	screenOut := filepath.Join(dir, "screen.jsonl")
	cases := filepath.Join(dir, "cases.jsonl")
	bundles := filepath.Join(dir, "bundles")

	tests := []struct {
		name  string
		args  []string
		stdin []byte // the long run, unless set
		// check looks at what was left behind.
		check func(t *testing.T, stdout []byte)
	}{
		{"analyze", []string{"analyze", "-"}, nil, func(t *testing.T, out []byte) { assert.Empty(t, out) }},
		{"graph", []string{"graph", "-"}, nil, func(t *testing.T, out []byte) { assert.Empty(t, out, "no half graph") }},
		{"context", []string{"context", "-", "--step", "24000", "--budget", "2000"}, nil, func(t *testing.T, out []byte) { assert.Empty(t, out) }},
		{"screen", []string{"screen", "-", "-o", screenOut, "-j", "1"}, stream.Bytes(), func(t *testing.T, _ []byte) {
			data, err := os.ReadFile(screenOut)
			require.NoError(t, err)
			lines := bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n"))
			assert.LessOrEqual(t, len(lines), 3, "the long run was not finished")
			for _, l := range lines {
				assert.True(t, len(data) == 0 || json.Valid(l), "only whole records: %q", l)
			}
			_, err = os.Stat(screenOut + ".lock")
			assert.ErrorIs(t, err, os.ErrNotExist, "the lock is released")
		}},
		{"eval", []string{"eval", "-", "--cases", cases}, nil, func(t *testing.T, out []byte) {
			assert.Empty(t, out)
			_, err := os.Stat(cases)
			assert.ErrorIs(t, err, os.ErrNotExist, "no cases file, whole or half")
		}},
		{"export", []string{"export", "-", "-o", bundles}, nil, func(t *testing.T, out []byte) {
			assert.Empty(t, out)
			entries, err := os.ReadDir(bundles)
			require.NoError(t, err)
			assert.Empty(t, entries, "no half bundle")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel() // each writes its own output
			var stdout, stderr bytes.Buffer
			cmd := offattr(tt.args...)
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			in, err := cmd.StdinPipe()
			require.NoError(t, err)
			require.NoError(t, cmd.Start())
			// The command reads its input as it is written, so once the
			// last of it is written the command is past starting up and
			// into loading: no wait on the clock.
			input := tt.stdin
			if input == nil {
				input = longData
			}
			_, err = in.Write(input)
			require.NoError(t, err, "stderr: %s", stderr.String())
			require.NoError(t, in.Close())
			// Only a guard against a child that never ends: exit 130
			// and "context canceled" below say the signal stopped the
			// work; how soon is not this test's to measure.
			guard := time.AfterFunc(5*time.Minute, func() { _ = cmd.Process.Kill() })
			require.NoError(t, cmd.Process.Signal(syscall.SIGINT))
			err = cmd.Wait()
			require.True(t, guard.Stop(), "%s did not stop after SIGINT; stderr: %s", tt.name, stderr.String())
			assert.Equal(t, 130, exitCode(t, err), "stderr: %s", stderr.String())
			tt.check(t, stdout.Bytes())
			assert.Contains(t, lastLine(stderr.String()), "context canceled")
		})
	}
}

func lastLine(s string) string {
	var last string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		last = sc.Text()
	}
	return last
}

// TestDashAsAnOutput: "-" names standard output, as it does for report -o
// and eval --cases: screen -o - writes its records there; fit (whose
// standard output holds its report), export and report --pages (which
// write directories) refuse it as a usage error. None makes a file
// called "-".
func TestDashAsAnOutput(t *testing.T) {
	in, err := filepath.Abs(magentic)
	require.NoError(t, err)
	corpus, err := filepath.Abs(filepath.Join("..", "..", "testdata", "runs"))
	require.NoError(t, err)
	dir := t.TempDir()
	records := filepath.Join(dir, "s.jsonl")
	screen := offattr("screen", in, "-o", records)
	out, err := screen.CombinedOutput()
	require.NoError(t, err, string(out))
	tests := []struct {
		name   string
		args   []string
		code   int
		stdout string
	}{
		{"screen records", []string{"screen", in, "-o", "-"}, 0, `"file":`},
		{"fit weights", []string{"fit", corpus, "-o", "-"}, 2, ""},
		{"export bundles", []string{"export", in, "-o", "-"}, 2, ""},
		{"report pages", []string{"report", records, "--pages", "-"}, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cwd := t.TempDir()
			var stdout, stderr bytes.Buffer
			cmd := offattr(tt.args...)
			cmd.Dir, cmd.Stdout, cmd.Stderr = cwd, &stdout, &stderr
			assert.Equal(t, tt.code, exitCode(t, cmd.Run()), stderr.String())
			assert.Contains(t, stdout.String(), tt.stdout)
			assert.NoFileExists(t, filepath.Join(cwd, "-"))
			assert.NoDirExists(t, filepath.Join(cwd, "-"))
		})
	}
}

// TestSignalWhileStandardOutputIsBlocked: a command whose standard output
// is a pipe no one reads (a paused pager, a stuck consumer) blocks in its
// write; SIGINT or SIGTERM must still stop it within 2 s, with 130 or 143.
func TestSignalWhileStandardOutputIsBlocked(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no signals to send on Windows")
	}
	long := filepath.Join(t.TempDir(), "long.json")
	longRun(t, long, 4000) // its steps as JSON run far past a pipe's buffer
	tests := []struct {
		name string
		args []string
		sig  syscall.Signal
		code int
	}{
		{"steps", []string{"steps", long, "--json"}, syscall.SIGTERM, 143},
		{"graph", []string{"graph", long, "--format", "json"}, syscall.SIGINT, 130},
		{"context", []string{"context", long, "--step", "3999", "--budget", "1000000"}, syscall.SIGTERM, 143},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, w, err := os.Pipe()
			require.NoError(t, err)
			defer r.Close()
			var stderr bytes.Buffer
			cmd := offattr(tt.args...)
			cmd.Stdout, cmd.Stderr = w, &stderr
			require.NoError(t, cmd.Start())
			w.Close()
			// Its first byte: the command is writing, and with no one
			// reading it soon fills the pipe and waits.
			_, err = r.Read(make([]byte, 1))
			require.NoError(t, err)
			require.NoError(t, cmd.Process.Signal(tt.sig))
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case err = <-done:
				assert.Equal(t, tt.code, exitCode(t, err), stderr.String())
			case <-time.After(2 * time.Minute): // a guard against a hang only
				_ = cmd.Process.Kill()
				<-done
				t.Fatal("the signal did not stop a command blocked on its standard output")
			}
		})
	}
}

// TestOutputThatIsAFlagsInput: the files flags name are inputs too (the
// labels, the weights, the redaction patterns): an output over one is
// refused (exit 1) and the file is left as it was.
func TestOutputThatIsAFlagsInput(t *testing.T) {
	weights, err := json.Marshal(rules.DefaultWeights())
	require.NoError(t, err)
	files := map[string]string{
		"labels.jsonl": `{"trace_id": "0af7651916cd43dd8448eb211c80319c", "span_id": "b7ad6b7169203331", "reason": "x"}` + "\n",
		"weights.json": string(weights),
		"patterns.txt": "# none\n",
	}
	tests := []struct {
		name string
		args func(dir string) []string
	}{
		{"eval cases over its labels", func(dir string) []string {
			return []string{"eval", magentic, "--labels", filepath.Join(dir, "labels.jsonl"), "--cases", filepath.Join(dir, "labels.jsonl")}
		}},
		{"eval cases over its weights", func(dir string) []string {
			return []string{"eval", magentic, "--weights", filepath.Join(dir, "weights.json"), "--cases", filepath.Join(dir, "weights.json")}
		}},
		{"report over its weights", func(dir string) []string {
			return []string{"report", magentic, "--weights", filepath.Join(dir, "weights.json"), "-o", filepath.Join(dir, "weights.json")}
		}},
		{"fit over the weights it starts from", func(dir string) []string {
			corpus := filepath.Join("..", "..", "testdata", "runs")
			return []string{"fit", corpus, "--weights", filepath.Join(dir, "weights.json"), "-o", filepath.Join(dir, "weights.json")}
		}},
		{"screen over its patterns", func(dir string) []string {
			return []string{"screen", magentic, "--redact-patterns", filepath.Join(dir, "patterns.txt"), "-o", filepath.Join(dir, "patterns.txt")}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for name, data := range files {
				require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
			}
			var stderr bytes.Buffer
			cmd := offattr(tt.args(dir)...)
			cmd.Stderr = &stderr
			assert.Equal(t, 1, exitCode(t, cmd.Run()), stderr.String())
			assert.Contains(t, stderr.String(), "an input")
			for name, data := range files {
				got, err := os.ReadFile(filepath.Join(dir, name))
				require.NoError(t, err)
				assert.Equal(t, data, string(got), "%s is untouched", name)
			}
		})
	}
}

// TestUnknownFormatSaysWhatToDo: a file offattr does not recognise gets,
// after the error naming it, a line saying where the formats are listed
// and how to name one.
func TestUnknownFormatSaysWhatToDo(t *testing.T) {
	notes := filepath.Join(t.TempDir(), "notes.txt")
	require.NoError(t, os.WriteFile(notes, []byte("A list of things to do\n"), 0o644))
	for _, args := range [][]string{{"analyze", notes}, {"steps", notes}} {
		var stderr bytes.Buffer
		cmd := offattr(args...)
		cmd.Stderr = &stderr
		assert.Equal(t, 1, exitCode(t, cmd.Run()), "stderr: %s", stderr.String())
		lines := strings.Split(strings.TrimSpace(stderr.String()), "\n")
		require.Len(t, lines, 2, stderr.String())
		assert.Contains(t, lines[0], "load "+notes+": unknown format")
		assert.Contains(t, lines[1], "docs/formats.md")
		assert.Contains(t, lines[1], "--input-format")
	}

	// A labels file is told what to do with instead.
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	require.NoError(t, os.WriteFile(labels, []byte(`{"trace_id": "t1", "span_id": "s1", "reason": "r"}`+"\n"), 0o644))
	var stderr bytes.Buffer
	cmd := offattr("analyze", labels)
	cmd.Stderr = &stderr
	assert.Equal(t, 1, exitCode(t, cmd.Run()), "stderr: %s", stderr.String())
	assert.Equal(t, 1, strings.Count(stderr.String(), "\n"), stderr.String())
	assert.Contains(t, stderr.String(), "with --labels")
}
