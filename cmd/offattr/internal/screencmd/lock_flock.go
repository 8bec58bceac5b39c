//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package screencmd

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/offattr/offattr/run"
)

// acquire opens the lock file and takes the kernel's exclusive lock on it
// without waiting.
func acquire(path string) (*os.File, error) {
	for range 10 {
		// Not through a link, and only a regular file: the lock file is
		// truncated once held, and must not be anything else by mistake.
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|syscall.O_NOFOLLOW|syscall.O_NONBLOCK, 0o644)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w (it must be a regular file or absent)", path, run.PathCause(err))
		}
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			f.Close()
			return nil, fmt.Errorf("lock %s: not a regular file", path)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			pid := holderOf(f)
			f.Close()
			if errors.Is(err, syscall.EWOULDBLOCK) {
				return nil, &lockedError{pid: pid}
			}
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		// The holder before us removes the file, then unlocks: if that
		// happened between our open and our lock, we hold a lock on a file
		// no one else will open. Try again with the file now there.
		held, err1 := f.Stat()
		now, err2 := os.Stat(path)
		if err1 == nil && err2 == nil && os.SameFile(held, now) {
			return f, nil
		}
		f.Close()
	}
	return nil, fmt.Errorf("lock %s: the lock file keeps being replaced", path)
}
