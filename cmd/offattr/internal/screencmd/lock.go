package screencmd

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// One writer per output: a screen holds an exclusive lock on OUTPUT.lock,
// beside its records file, from before it reads what the file holds until
// it has closed it. A second screen on the same file (a second --resume, a
// shard given the wrong -o) stops before touching it, naming the holder,
// so no record is written twice and none is cut off.
//
// The lock is the kernel's (flock) where the system has it: it ends with
// the process that held it, so a screen killed with -9 leaves no stale
// lock, only a lock file that the next screen takes over. Elsewhere the
// lock file is created exclusively, and a file whose process is gone is
// taken over.

// ErrLocked is what a second writer gets.
var ErrLocked = errors.New("output is being written by another screen")

// lockedError names the output and the holder.
type lockedError struct {
	output string
	pid    int // 0 when the lock file does not say
}

func (e *lockedError) Error() string {
	holder := "another process"
	if e.pid > 0 {
		holder = fmt.Sprintf("process %d", e.pid)
	}
	return fmt.Sprintf("%s is being written by another offattr screen (%s, lock %s): wait for it to finish, or stop it and run again with --resume",
		e.output, holder, lockPath(e.output))
}

func (e *lockedError) Is(target error) bool { return target == ErrLocked }

// lockPath is the lock file of a records file.
func lockPath(output string) string { return output + ".lock" }

// outputLock is a held lock; release gives it up.
type outputLock struct {
	path string
	f    *os.File
}

// lockOutput takes the lock on output or says who holds it.
func lockOutput(output string) (*outputLock, error) {
	path := lockPath(output)
	f, err := acquire(path)
	if err != nil {
		var le *lockedError
		if errors.As(err, &le) {
			le.output = output
		}
		return nil, err
	}
	// Who holds it, for the message a second writer prints.
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &outputLock{path: path, f: f}, nil
}

// release removes the lock file and then lets the lock go: removed first,
// so that a screen waiting on this file finds it gone and takes a new one.
func (l *outputLock) release() error {
	if l == nil || l.f == nil {
		return nil
	}
	rmErr := os.Remove(l.path)
	err := l.f.Close()
	l.f = nil
	if rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
		return fmt.Errorf("remove lock %s: %w", l.path, rmErr)
	}
	return err
}

// holderOf reads the pid a lock file names, 0 if none.
func holderOf(f *os.File) int {
	buf := make([]byte, 32)
	n, _ := f.ReadAt(buf, 0)
	pid, err := strconv.Atoi(strings.TrimSpace(string(buf[:n])))
	if err != nil || pid <= 0 {
		return 0
	}
	return pid
}
