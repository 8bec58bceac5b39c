package screencmd

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/offattr/offattr/run"
)

// input is one thing to screen: a run file, a line of the stdin stream, or
// a bad argument that is recorded as a failure so nothing goes missing.
type input struct {
	name string
	data []byte // a stream line's bytes; files are read by the worker
	err  error  // set for an argument that names no run
}

// stdinArg is the argument that reads a JSONL stream of runs.
const stdinArg = "-"

// expandPath turns one non-stdin argument into inputs in a stable order: a
// file is itself; a directory gives every *.json and *.jsonl below it; a
// glob gives what it matches. An argument naming nothing is one failed input.
func expandPath(arg string) []input {
	if _, err := os.Lstat(arg); err != nil && strings.ContainsAny(arg, "*?[") {
		matches, gerr := filepath.Glob(arg)
		if gerr != nil {
			return []input{{name: arg, err: fmt.Errorf("bad pattern: %w", gerr)}}
		}
		if len(matches) == 0 {
			return []input{{name: arg, err: errors.New("no files match")}}
		}
		sortNatural(matches)
		var out []input
		for _, m := range matches {
			if info, err := os.Stat(m); err == nil && !info.IsDir() && !info.Mode().IsRegular() {
				// Matched, not named: reading a named pipe would wait
				// for a writer for ever.
				out = append(out, input{name: m, err: errNotRegular})
				continue
			}
			out = append(out, expandPath(m)...)
		}
		return out
	}
	info, err := os.Stat(arg)
	if err != nil {
		return []input{{name: arg, err: run.PathCause(err)}}
	}
	if !info.IsDir() {
		return []input{{name: arg}}
	}
	files, bad := walkRuns(arg)
	sortNatural(files)
	out := make([]input, 0, len(files)+len(bad))
	for _, f := range files {
		out = append(out, input{name: f})
	}
	out = append(out, bad...)
	if len(out) == 0 {
		return []input{{name: arg, err: errors.New("no run files (*.json, *.jsonl) in this directory")}}
	}
	return out
}

// errNotRegular is why a named pipe, a device or a socket that a directory
// or a glob holds is not read; one given by name is (a shell's <(...) is a
// pipe).
var errNotRegular = fmt.Errorf("%w: name it alone to read it", run.ErrNotRegular)

// walkRuns lists the run files below root, skipping hidden entries (but
// aider's chat history, which aider hides in a project) and
// following symbolic links: a link to a directory is walked like one, a
// link to a run file is that file. Each directory is walked once, by its
// real path, so a link cycle (a -> ..) ends and a directory linked twice
// gives its runs once. Logs that another's reading reads (a Claude Code
// session's sub-agents, a Codex sub-agent's rollout beside its parent's)
// are left to it. What cannot be read is returned as failed inputs:
// nothing below root goes missing without a record.
func walkRuns(root string) (files []string, bad []input) {
	walked := map[string]bool{}
	var rollouts run.Rollouts
	var walk func(dir string)
	walk = func(dir string) {
		real, err := filepath.EvalSymlinks(dir)
		if err != nil {
			bad = append(bad, input{name: dir, err: run.PathCause(err)})
			return
		}
		if walked[real] {
			return
		}
		walked[real] = true
		entries, err := os.ReadDir(dir)
		if err != nil {
			bad = append(bad, input{name: dir, err: run.PathCause(err)})
			return
		}
		for _, e := range entries {
			if strings.HasPrefix(e.Name(), ".") && e.Name() != run.AiderHistory {
				continue // aider's history is hidden in the project it ran in
			}
			path := filepath.Join(dir, e.Name())
			isDir, mode := e.IsDir(), e.Type()
			if mode&fs.ModeSymlink != 0 {
				info, err := os.Stat(path)
				if err != nil {
					if run.IsRunFile(e.Name()) {
						bad = append(bad, input{name: path, err: run.PathCause(err)})
					}
					continue
				}
				isDir, mode = info.IsDir(), info.Mode().Type()
			}
			switch {
			case !isDir && !mode.IsRegular():
				// A named pipe, a device or a socket is not read (a pipe
				// would wait for a writer for ever); one named as a run
				// is recorded.
				if run.IsRunFile(e.Name()) {
					bad = append(bad, input{name: path, err: errNotRegular})
				}
			case isDir && run.IsSessionDir(path):
				// Its logs are read with the session's.
			case isDir:
				walk(path)
			case rollouts.IsSubagent(path):
				// Read with its parent's rollout, beside it.
			case run.IsRunFileAt(path):
				files = append(files, path)
			}
		}
	}
	walk(root)
	return files, bad
}

// streamInputs reads a JSONL stream of runs, one run per non-blank line,
// naming each "-:LINE" so that records, --resume and --shard can refer to
// it. A line longer than max bytes (max > 0) is skipped to its end and
// recorded as a failure, so one runaway line costs no memory. It stops
// early when yield returns false.
func streamInputs(r io.Reader, max int64, yield func(input) bool) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for line := 1; ; line++ {
		data, long, err := readLine(br, max)
		name := fmt.Sprintf("%s:%d", stdinArg, line)
		switch {
		case long > 0:
			if !yield(input{name: name, err: &run.TooLargeError{Size: long, Limit: max}}) {
				return nil
			}
		case len(bytes.TrimSpace(data)) > 0:
			if !yield(input{name: name, data: data}) {
				return nil
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read standard input: %w", err)
		}
	}
}

// readLine reads one line with its newline. When it is longer than max
// (max > 0) the rest is read and dropped, and long is its length.
func readLine(br *bufio.Reader, max int64) (data []byte, long int64, err error) {
	for {
		chunk, err := br.ReadSlice('\n')
		if long == 0 && (max <= 0 || int64(len(data)+len(chunk)) <= max) {
			data = append(data, chunk...)
		} else {
			if long == 0 {
				long = int64(len(data))
				data = nil
			}
			long += int64(len(chunk))
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			return data, long, err
		}
	}
}

// sortNatural sorts paths so that runs/2.json comes before runs/10.json.
func sortNatural(paths []string) {
	sort.SliceStable(paths, func(i, j int) bool { return naturalLess(paths[i], paths[j]) })
}

// naturalLess compares strings with digit runs taken as numbers.
func naturalLess(a, b string) bool {
	for a != "" && b != "" {
		da, db := isDigit(a[0]), isDigit(b[0])
		if da && db {
			na, ra := digitRun(a)
			nb, rb := digitRun(b)
			ta, tb := strings.TrimLeft(na, "0"), strings.TrimLeft(nb, "0")
			if len(ta) != len(tb) {
				return len(ta) < len(tb)
			}
			if ta != tb {
				return ta < tb
			}
			if na != nb {
				return na < nb
			}
			a, b = ra, rb
			continue
		}
		if a[0] != b[0] {
			return a[0] < b[0]
		}
		a, b = a[1:], b[1:]
	}
	return len(a) < len(b)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func digitRun(s string) (run, rest string) {
	i := 0
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	return s[:i], s[i:]
}
