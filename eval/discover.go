package eval

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run"
)

// Subset is a named group of labelled case files.
type Subset struct {
	Name  string
	Files []string
}

// Discover turns eval's PATH arguments into subsets: a directory of case
// files is one subset named by its base name; a directory whose
// subdirectories hold case files gives one subset per subdirectory; a file
// is a subset of one, named by its directory, and "-" (standard input) a
// subset of one named "stdin". Symbolic links to directories are followed.
// Telemetry files are found like any other (*.json, *.jsonl); each of
// their labelled traces is a case.
func Discover(paths []string) ([]Subset, error) {
	var out []Subset
	for _, p := range paths {
		if p == run.Stdin {
			out = append(out, Subset{Name: "stdin", Files: []string{p}})
			continue
		}
		file, _ := run.SplitRef(p) // FILE#TRACEID is one trace of FILE
		info, err := os.Stat(file)
		if err != nil {
			return nil, fmt.Errorf("eval %s: %w", p, run.PathCause(err))
		}
		if !info.IsDir() {
			out = append(out, Subset{Name: filepath.Base(filepath.Dir(p)), Files: []string{p}})
			continue
		}
		entries, err := os.ReadDir(p)
		if err != nil {
			return nil, fmt.Errorf("eval %s: %w", p, run.PathCause(err))
		}
		var files []string
		var subs []Subset
		for _, e := range entries {
			full := filepath.Join(p, e.Name())
			switch {
			case isDir(full, e):
				inner, err := caseFiles(full)
				if err != nil {
					return nil, err
				}
				if len(inner) > 0 {
					subs = append(subs, Subset{Name: e.Name(), Files: inner})
				}
			case run.IsRunFileAt(full):
				files = append(files, full)
			}
		}
		if len(files) > 0 {
			sortCases(files)
			out = append(out, Subset{Name: filepath.Base(filepath.Clean(p)), Files: files})
		}
		out = append(out, subs...)
		if len(files) == 0 && len(subs) == 0 {
			return nil, fmt.Errorf("eval %s: no case files (*.json, *.jsonl) here or in its subdirectories", p)
		}
	}
	return out, nil
}

func caseFiles(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("eval %s: %w", dir, run.PathCause(err))
	}
	var files []string
	for _, e := range entries {
		if full := filepath.Join(dir, e.Name()); !isDir(full, e) && run.IsRunFileAt(full) {
			files = append(files, full)
		}
	}
	sortCases(files)
	return files, nil
}

// isDir reports whether the entry at path is a directory, or a symbolic
// link to one. Subsets are one level deep, so a link cannot loop here.
func isDir(path string, e os.DirEntry) bool {
	if e.Type()&os.ModeSymlink == 0 {
		return e.IsDir()
	}
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// sortCases orders files numerically where their names are numbers ("9"
// before "10"), so tables and --cases lines follow the benchmark's order.
func sortCases(files []string) {
	key := func(f string) (int, bool) {
		base := strings.TrimSuffix(filepath.Base(f), ".gz")
		n, err := strconv.Atoi(strings.TrimSuffix(base, filepath.Ext(base)))
		return n, err == nil
	}
	sort.SliceStable(files, func(i, j int) bool {
		a, aok := key(files[i])
		b, bok := key(files[j])
		if aok && bok {
			return a < b
		}
		if aok != bok {
			return aok
		}
		return files[i] < files[j]
	})
}
