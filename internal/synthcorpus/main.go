// Command synthcorpus writes a synthetic corpus for measuring screen's
// throughput: N runs made from the Who&When cases in SRC, each a prefix of
// a case's history (half to all of it) with a numbered question, so no two
// files are alike and lengths vary around the source mix. It is a
// development tool, not part of offattr.
//
//	go run ./internal/synthcorpus -n 10000 -o /tmp/synth ../shared/whowhen/dev
package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
)

func main() {
	n := flag.Int("n", 10000, "runs to write")
	out := flag.String("o", "synth", "output directory (100 subdirectories)")
	seed := flag.Uint64("seed", 7, "random seed")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: synthcorpus [-n N] [-o DIR] SRC (a directory of Who&When case directories)")
		os.Exit(2)
	}
	if err := write(flag.Arg(0), *out, *n, *seed); err != nil {
		fmt.Fprintf(os.Stderr, "synthcorpus: %s\n", err)
		os.Exit(1)
	}
}

func write(src, out string, n int, seed uint64) error {
	paths, err := filepath.Glob(filepath.Join(src, "*", "*.json"))
	if err != nil {
		return err
	}
	sort.Strings(paths)
	var cases []map[string]any
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var c map[string]any
		if err := json.Unmarshal(data, &c); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		if h, ok := c["history"].([]any); ok && len(h) > 0 {
			cases = append(cases, c)
		}
	}
	if len(cases) == 0 {
		return errors.New("no Who&When cases with a history under " + src)
	}
	rng := rand.New(rand.NewPCG(seed, seed))
	for i := range n {
		c := make(map[string]any, len(cases[i%len(cases)]))
		for k, v := range cases[i%len(cases)] {
			c[k] = v
		}
		h := c["history"].([]any)
		lo := max(1, len(h)/2)
		c["history"] = h[:lo+rng.IntN(len(h)-lo+1)]
		q, _ := c["question"].(string)
		c["question"] = fmt.Sprintf("%s (synthetic %d)", q, i)
		// The label may point past the cut; throughput needs no label.
		delete(c, "mistake_step")
		delete(c, "mistake_agent")
		delete(c, "mistake_reason")
		dir := filepath.Join(out, fmt.Sprintf("%02d", i%100))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		data, err := json.Marshal(c)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%d.json", i)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}
