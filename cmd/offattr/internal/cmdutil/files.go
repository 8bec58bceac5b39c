package cmdutil

import (
	"fmt"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/offattr/offattr/run"
)

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// RunName is the name of the files a command writes for one run (export's
// bundles, report's pages): the run's base name and a hash of its whole
// path, so readable, distinct for runs/1.json and other/1.json, and the
// same for one run whichever command wrote it. It holds only letters,
// digits, '.', '_' and '-', so it is safe in a path and a URL.
func RunName(path string) string {
	file, _ := run.SplitRef(path) // the traces of one file keep its name
	base := strings.TrimSuffix(filepath.Base(file), filepath.Ext(file))
	if file == run.Stdin {
		base = "stdin"
	}
	base = strings.Trim(unsafeName.ReplaceAllString(base, "_"), "._")
	if base == "" {
		base = "run"
	}
	h := fnv.New32a()
	h.Write([]byte(path))
	return fmt.Sprintf("%s-%08x", base, h.Sum32())
}

// WriteFileAtomic writes through a temporary file in the same directory,
// so an interrupted command never leaves half a file.
func WriteFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path))
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
