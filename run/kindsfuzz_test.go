package run

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// kindsSeeds returns one small file of testdata/kinds for each shape of
// its first record (its top-level keys), so that every reader the
// constructed kinds reach is seeded without fuzzing a thousand near
// copies.
func kindsSeeds(tb testing.TB) [][]byte {
	tb.Helper()
	root := filepath.Join("..", "testdata", "kinds")
	seen := map[string]bool{}
	var seeds [][]byte
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if strings.HasSuffix(name, ".case.json") || !(strings.HasSuffix(name, ".json") || strings.HasSuffix(name, ".jsonl")) {
			return nil
		}
		if info, err := d.Info(); err != nil || info.Size() > 64<<10 {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		first := data
		if strings.HasSuffix(name, ".jsonl") {
			first, _, _ = bytes.Cut(data, []byte("\n"))
		}
		var v any
		if json.Unmarshal(first, &v) != nil {
			return nil
		}
		if list, ok := v.([]any); ok && len(list) > 0 {
			v = list[0]
		}
		var keys []string
		if m, ok := v.(map[string]any); ok {
			for k := range m {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		shape := strings.Join(keys, ",")
		if !seen[shape] {
			seen[shape] = true
			seeds = append(seeds, data)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return seeds
}

// FuzzParseKinds reads fuzzed files seeded from the constructed kinds'
// runs, whose readers (low-code platforms, ChatDev, harness sessions,
// gateway call logs) FuzzParse's seeds do not reach.
func FuzzParseKinds(f *testing.F) {
	for _, data := range kindsSeeds(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) { checkParsed(t, data, FormatAuto) })
}
