package screencmd

import (
	"bufio"
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
	var files []string
	var bad []input
	walkErr := filepath.WalkDir(arg, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			bad = append(bad, input{name: path, err: run.PathCause(err)})
			if d != nil && d.IsDir() && path != arg {
				return fs.SkipDir
			}
			return nil
		}
		if path != arg && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.IsDir() && isRunFile(d.Name()) {
			files = append(files, path)
		}
		return nil
	})
	if walkErr != nil {
		bad = append(bad, input{name: arg, err: run.PathCause(walkErr)})
	}
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

func isRunFile(name string) bool {
	ext := strings.ToLower(filepath.Ext(name))
	return ext == ".json" || ext == ".jsonl"
}

// streamInputs reads a JSONL stream of runs, one run per non-blank line,
// naming each "-:LINE" so that records, --resume and --shard can refer to
// it. It stops early when yield returns false.
func streamInputs(r io.Reader, yield func(input) bool) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for line := 1; ; line++ {
		data, err := br.ReadBytes('\n')
		if len(strings.TrimSpace(string(data))) > 0 {
			if !yield(input{name: fmt.Sprintf("%s:%d", stdinArg, line), data: data}) {
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
