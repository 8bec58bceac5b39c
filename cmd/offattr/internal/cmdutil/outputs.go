package cmdutil

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/run"
)

// ErrNotRegular is what writing to a path that is neither a regular file
// nor a new path gets (errors.Is): a device, a pipe, a socket, a
// directory, or a link to one of them. Nothing is written to it.
var ErrNotRegular = errors.New("not a regular file")

// ErrIsStdout is what writing to a file that is also the command's own
// standard output gets: two writers on one file would interleave, and
// reading it back (--resume) would wait on itself.
var ErrIsStdout = errors.New("the command's own standard output")

// CheckOutput says whether a command may write its output to path: a
// regular file (or a link to one), or a path that does not exist yet in a
// directory that does; not a link to a path that does not exist, which
// would have the command make a file wherever the link points. For
// anything else, or for the file standard output already goes to, it
// returns an error naming the path and what it is; the caller writes
// nothing. A command's outputs should go through it before any is opened.
func (s *IOStreams) CheckOutput(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) {
		if err := checkNotDangling(path); err != nil {
			return err
		}
		return checkParent(path)
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", escape.Line(path), run.PathCause(err))
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("write %s: %w (%s): offattr writes only to a regular file, a new path or standard output (leave out the flag to write there)", escape.Line(path), ErrNotRegular, kind(fi.Mode()))
	}
	if s == nil {
		return nil
	}
	if sameFile(fi, s.outFile) {
		return fmt.Errorf("write %s: it is %w; leave out the flag to write to standard output, or redirect it elsewhere", escape.Line(path), ErrIsStdout)
	}
	if sameFile(fi, s.errFile) {
		return fmt.Errorf("write %s: it is %w; redirect standard error elsewhere", escape.Line(path), ErrIsStderr)
	}
	if sameFile(fi, s.inFile) {
		return fmt.Errorf("write %s: it is the command's own standard input, %w; write the output elsewhere", escape.Line(path), ErrIsInput)
	}
	return nil
}

// sameFile reports whether fi is the file f is open on.
func sameFile(fi fs.FileInfo, f *os.File) bool {
	if f == nil {
		return false
	}
	other, err := f.Stat()
	return err == nil && os.SameFile(fi, other)
}

// ErrIsStderr is what writing to the file standard error goes to gets:
// replacing it would leave the command's messages in a file no one can
// open.
var ErrIsStderr = errors.New("the command's own standard error")

// ErrIsInput is what writing over one of the command's own inputs gets
// (errors.Is), or a run file into a directory it reads: the input would be
// lost, or read back as a run.
var ErrIsInput = errors.New("an input of the command")

// CheckNotInput says whether a command may write output beside its
// inputs: output must not be one of the input files (or a link to one),
// nor a run file (run.IsRunFile) that reading one of the input
// directories, or expanding one of the input globs, would find. Hidden
// names are never read as runs. It returns an error naming both; the
// caller writes nothing.
func CheckNotInput(output string, inputs []string) error {
	if output == "" || output == "-" {
		return nil
	}
	o := outputFile{path: output, dir: resolvedDir(output)}
	o.fi, _ = os.Stat(output)
	o.run = run.IsRunFile(output) && !strings.HasPrefix(filepath.Base(output), ".")
	for _, in := range inputs {
		if err := o.notInput(in, in); err != nil {
			return err
		}
	}
	return nil
}

// Inputs is paths and each of files a flag gave, for CheckNotInput.
func Inputs(paths []string, files ...string) []string {
	out := append([]string(nil), paths...)
	for _, f := range files {
		if f != "" {
			out = append(out, f)
		}
	}
	return out
}

// outputFile is an output path as CheckNotInput compares it with inputs.
type outputFile struct {
	path, dir string
	fi        fs.FileInfo // nil when it does not exist yet
	run       bool        // a name a directory's or a glob's reading takes
}

// notInput checks the output against in, an input argument or a path its
// glob (arg) matches.
func (o outputFile) notInput(in, arg string) error {
	fi, err := os.Stat(in)
	if err != nil {
		if in != arg || !strings.ContainsAny(in, "*?[") {
			return nil // not a file: the command says so when it reads it
		}
		if ok, _ := filepath.Match(filepath.Clean(in), filepath.Clean(o.path)); ok && o.run {
			return fmt.Errorf("write %s: %s matches it, so it would be read as %w; write the output elsewhere", escape.Line(o.path), escape.Line(arg), ErrIsInput)
		}
		matches, _ := filepath.Glob(in)
		for _, m := range matches {
			if err := o.notInput(m, arg); err != nil {
				return err
			}
		}
		return nil
	}
	if o.fi != nil && os.SameFile(fi, o.fi) {
		return fmt.Errorf("write %s: it is %w (%s); write the output elsewhere", escape.Line(o.path), ErrIsInput, escape.Line(arg))
	}
	if fi.IsDir() && o.run && o.dir != "" {
		root, err := filepath.EvalSymlinks(in)
		if err != nil {
			return nil
		}
		if root, err = filepath.Abs(root); err == nil && within(o.dir, root) {
			return fmt.Errorf("write %s: it lies in %s, which the command reads for runs, so it would be read as %w; write the output elsewhere", escape.Line(o.path), escape.Line(in), ErrIsInput)
		}
	}
	return nil
}

// resolvedDir is the absolute path, links resolved, of the directory path
// is in; "" when that cannot be found.
func resolvedDir(path string) string {
	dir, err := filepath.EvalSymlinks(filepath.Dir(path))
	if err != nil {
		return ""
	}
	if dir, err = filepath.Abs(dir); err != nil {
		return ""
	}
	return dir
}

// within reports whether dir is root or below it.
func within(dir, root string) bool {
	rel, err := filepath.Rel(root, dir)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// checkParent says whether a new file can be made at path: its directory
// must be one.
func checkParent(path string) error {
	dir := filepath.Dir(path)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("write %s: its directory %s does not exist", escape.Line(path), escape.Line(dir))
	case err != nil:
		return fmt.Errorf("write %s: %w", escape.Line(path), run.PathCause(err))
	case !fi.IsDir():
		return fmt.Errorf("write %s: its directory %s is a %s", escape.Line(path), escape.Line(dir), kind(fi.Mode()))
	}
	return nil
}

// CheckDir says whether a command may write files into dir: a directory
// (or a link to one), or a path that does not exist yet (not a link to
// one).
func CheckDir(dir string) error {
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return checkNotDangling(dir)
	case err != nil:
		return fmt.Errorf("write into %s: %w", escape.Line(dir), run.PathCause(err))
	case !fi.IsDir():
		return fmt.Errorf("write into %s: it is a %s, not a directory", escape.Line(dir), kind(fi.Mode()))
	}
	return nil
}

// checkNotDangling refuses a path that does not exist but for a link
// standing by its name: writing there would make whatever the link points
// to.
func checkNotDangling(path string) error {
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		return fmt.Errorf("write %s: %w: it is a link to a path that does not exist; name the file itself", escape.Line(path), ErrNotRegular)
	}
	return nil
}

// kind names what a file is, for the messages above.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeDevice != 0 && m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "block device"
	case m&fs.ModeNamedPipe != 0:
		return "named pipe"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m.IsDir():
		return "directory"
	case m.IsRegular():
		return "regular file"
	}
	return "special file"
}

// WriteFileAtomic writes through a temporary file in the same directory,
// so an interrupted command never leaves half a file. It replaces only a
// regular file: a path that is a device, a pipe or anything else is an
// ErrNotRegular, and a link to a regular file is followed, so the file it
// points to is replaced and the link kept.
func WriteFileAtomic(path string, data []byte) error {
	return writeAtomic(path, data, true)
}

// WriteOwnFile is WriteFileAtomic for a file offattr names itself in a
// directory the user gave (a bundle, a page): a link by that name is not
// followed but refused, since the user named no file behind it and it may
// point anywhere.
func WriteOwnFile(path string, data []byte) error {
	return writeAtomic(path, data, false)
}

func writeAtomic(path string, data []byte, follow bool) error {
	f, err := createAtomic(path, follow)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Abort()
		return fmt.Errorf("write %s: %w", path, err)
	}
	return f.Commit()
}

// AtomicFile is an output written as it goes into a temporary file beside
// it, which Commit puts in its place and Abort removes: a command
// interrupted, or failing, leaves the path as it was, never half a file.
// What it replaces is as for WriteFileAtomic, and keeps its permissions.
type AtomicFile struct {
	*os.File
	path   string
	follow bool // a link to a regular file may be followed
}

// CreateAtomic starts an AtomicFile for path, which the user named.
func CreateAtomic(path string) (*AtomicFile, error) {
	return createAtomic(path, true)
}

func createAtomic(path string, follow bool) (*AtomicFile, error) {
	target, err := renameTarget(path, follow)
	if err != nil {
		return nil, err
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), ".tmp-"+filepath.Base(target))
	if err != nil {
		// The cause without the temporary file's name, which the user
		// never gave.
		return nil, fmt.Errorf("write %s: %w", path, run.PathCause(err))
	}
	// A file replaced keeps its permissions: a temporary file is private.
	if fi, err := os.Stat(target); err == nil {
		if err := tmp.Chmod(fi.Mode().Perm()); err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
			return nil, fmt.Errorf("write %s: %w", path, err)
		}
	}
	pending.Store(tmp.Name(), struct{}{})
	return &AtomicFile{File: tmp, path: path, follow: follow}, nil
}

// pending holds the names of the temporary files of AtomicFiles neither
// committed nor aborted.
var pending sync.Map

// RemovePending removes the temporary file of every AtomicFile neither
// committed nor aborted, for a process that must exit without waiting for
// its commands to finish: what they were writing is not left behind.
func RemovePending() {
	pending.Range(func(name, _ any) bool {
		os.Remove(name.(string))
		return true
	})
}

// Commit closes the file and puts it in place of the path.
func (f *AtomicFile) Commit() error {
	defer pending.Delete(f.Name())
	defer os.Remove(f.Name()) // once renamed, there is nothing by this name
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	// Checked again just before the rename: the path may have changed
	// while the data was written.
	target, err := renameTarget(f.path, f.follow)
	if err != nil {
		return err
	}
	if err := os.Rename(f.Name(), target); err != nil {
		return fmt.Errorf("write %s: %w", f.path, err)
	}
	return nil
}

// Abort closes and removes the file, leaving the path as it was.
func (f *AtomicFile) Abort() {
	f.Close()
	os.Remove(f.Name())
	pending.Delete(f.Name())
}

// renameTarget is the path a rename may replace for path: path itself when
// it is new or a regular file, the file a link points to when that is a
// regular file and follow is set; anything else is refused.
func renameTarget(path string, follow bool) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return path, nil
	}
	if err != nil {
		return "", fmt.Errorf("write %s: %w", escape.Line(path), run.PathCause(err))
	}
	if fi.Mode().IsRegular() {
		return path, nil
	}
	if fi.Mode()&fs.ModeSymlink != 0 && !follow {
		return "", fmt.Errorf("write %s: %w (a link): offattr names this file itself, and writes it only where no link stands", escape.Line(path), ErrNotRegular)
	}
	if fi.Mode()&fs.ModeSymlink != 0 {
		resolved, err := filepath.EvalSymlinks(path)
		if err == nil {
			if rfi, err := os.Stat(resolved); err == nil && rfi.Mode().IsRegular() {
				return resolved, nil
			}
		} else if errors.Is(err, fs.ErrNotExist) {
			return "", checkNotDangling(path)
		}
	}
	st, err := os.Stat(path)
	what := "special file"
	if err == nil {
		what = kind(st.Mode())
	}
	return "", fmt.Errorf("write %s: %w (%s): offattr writes only to a regular file, a new path or standard output (leave out the flag to write there)", escape.Line(path), ErrNotRegular, what)
}
