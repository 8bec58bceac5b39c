package cmdutil

import (
	"fmt"
	"hash/fnv"
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
