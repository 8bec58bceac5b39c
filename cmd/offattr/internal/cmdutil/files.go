package cmdutil

import (
	"fmt"
	"hash/fnv"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/run"
)

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// RunName is the name of the files a command writes for one run (export's
// bundles, report's pages): the run's base name and a hash of its whole
// path, so readable, distinct for runs/1.json and other/1.json, and the
// same for one run whichever command wrote it. It holds only letters,
// digits, '.', '_' and '-', so it is safe in a path and a URL. With
// redaction (patterns not nil) the base name is masked as the run's text
// is (frank@example.com.json is EMAIL_1-…); the hash, of the path as it
// is, still tells such runs apart.
func RunName(path string, patterns *redact.Patterns) string {
	file, _ := run.SplitRef(path) // the traces of one file keep its name
	shown := patterns.NewRedactor().String(file)
	base := strings.TrimSuffix(filepath.Base(shown), filepath.Ext(shown))
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
