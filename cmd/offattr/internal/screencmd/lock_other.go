//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package screencmd

import (
	"errors"
	"fmt"
	"os"
)

// acquire creates the lock file, failing if it exists. A lock file whose
// process is gone (os.FindProcess fails for it where the system can tell,
// as on Windows) is stale: it is removed and taken.
func acquire(path string) (*os.File, error) {
	for range 2 {
		f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, os.ErrExist) {
			return nil, fmt.Errorf("lock %s: %w", path, err)
		}
		old, err := os.Open(path)
		if err != nil {
			continue // removed meanwhile: try again
		}
		pid := holderOf(old)
		old.Close()
		if pid > 0 {
			if _, err := os.FindProcess(pid); err == nil {
				return nil, &lockedError{pid: pid}
			}
		}
		if pid == 0 {
			return nil, &lockedError{}
		}
		if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("remove stale lock %s: %w", path, err)
		}
	}
	return nil, fmt.Errorf("lock %s: the lock file keeps being replaced", path)
}
