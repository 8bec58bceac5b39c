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
	// Unread are what the subset holds that cannot be read as a case: a
	// subdirectory that cannot be listed, a named pipe, a device or a
	// socket named as a case file. Each is a failed case, so that nothing
	// under a path goes missing without a record.
	Unread []Unread
}

// Unread is one entry that cannot be read as a case, and why.
type Unread struct {
	Path string
	Err  error
}

// ErrNotRegular is why a named pipe, a device or a socket that a directory
// holds under a case file's name is not read: a pipe would hold the whole
// evaluation until a writer came. One named alone is read (a shell's
// <(...) is a pipe).
var ErrNotRegular = fmt.Errorf("%w: name it alone to read it", run.ErrNotRegular)

// Discover turns eval's PATH arguments into subsets: a directory of case
// files is one subset named by its base name; a directory whose
// subdirectories hold case files gives one subset per subdirectory; a file
// is a subset of one, named by its directory, and "-" (standard input) a
// subset of one named "stdin". Symbolic links to directories are followed.
// Telemetry files are found like any other (*.json, *.jsonl); each of
// their labelled traces is a case.
// A directory that cannot be listed (named or a subdirectory), or a pipe
// among the case files, is recorded in its subset's Unread, and the rest
// go on: the command fails at its end, its work done on the rest. A path
// that does not exist, or holds no case file, is an error of the command
// line.
func Discover(paths []string) ([]Subset, error) {
	return discover(paths, os.ReadDir)
}

// discover is Discover listing directories with readDir.
func discover(paths []string, readDir func(string) ([]os.DirEntry, error)) ([]Subset, error) {
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
		top := Subset{Name: filepath.Base(filepath.Clean(p))}
		entries, err := readDir(p)
		if err != nil {
			top.Unread = unreadDir(p, err)
			out = append(out, top)
			continue
		}
		var subs []Subset
		for _, e := range entries {
			full := filepath.Join(p, e.Name())
			switch {
			case isDir(full, e):
				inner := Subset{Name: e.Name()}
				inner.Files, inner.Unread = caseFiles(full, readDir)
				if len(inner.Files) > 0 || len(inner.Unread) > 0 {
					subs = append(subs, inner)
				}
			case notRegular(full, e):
				top.Unread = append(top.Unread, notRegularCase(full))
			case run.IsRunFileAt(full):
				top.Files = append(top.Files, full)
			}
		}
		if len(top.Files) > 0 || len(top.Unread) > 0 {
			sortCases(top.Files)
			out = append(out, top)
		}
		out = append(out, subs...)
		if len(top.Files) == 0 && len(top.Unread) == 0 && len(subs) == 0 {
			return nil, fmt.Errorf("eval %s: no case files (*.json, *.jsonl) here or in its subdirectories", p)
		}
	}
	return out, nil
}

// unreadDir is the record of a directory that cannot be listed.
func unreadDir(dir string, err error) []Unread {
	return []Unread{{Path: dir, Err: fmt.Errorf("eval %s: %w", dir, run.PathCause(err))}}
}

// caseFiles lists the case files of a subset's directory, and what in it
// cannot be read: the directory itself when it cannot be listed.
func caseFiles(dir string, readDir func(string) ([]os.DirEntry, error)) (files []string, unread []Unread) {
	entries, err := readDir(dir)
	if err != nil {
		return nil, unreadDir(dir, err)
	}
	for _, e := range entries {
		full := filepath.Join(dir, e.Name())
		switch {
		case isDir(full, e):
		case notRegular(full, e):
			unread = append(unread, notRegularCase(full))
		case run.IsRunFileAt(full):
			files = append(files, full)
		}
	}
	sortCases(files)
	return files, unread
}

// notRegularCase is the record of a pipe, a device or a socket at path
// under a case file's name (notRegular).
func notRegularCase(path string) Unread {
	return Unread{Path: path, Err: fmt.Errorf("eval %s: %w", path, ErrNotRegular)}
}

// notRegular reports whether the entry at path, a link followed, is a
// named pipe, a device or a socket under a case file's name: one under
// another name is no case, as a directory's other files are not.
func notRegular(path string, e os.DirEntry) bool {
	if !run.IsRunFile(e.Name()) {
		return false
	}
	mode := e.Type()
	if mode&os.ModeSymlink != 0 {
		info, err := os.Stat(path)
		if err != nil {
			return false // a dangling link is read, and fails, as a case
		}
		mode = info.Mode().Type()
	}
	return !mode.IsDir() && !mode.IsRegular()
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
