package redact

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/offattr/offattr/internal/match"
	"github.com/offattr/offattr/run"
)

// loadPatterns reads a user pattern file: one regexp2 pattern per line,
// blank lines and # comments ignored.
func loadPatterns(set *match.Set, path string) ([]*rule, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("redact patterns %s: %w", path, run.PathCause(err))
	}
	return parsePatterns(set, path, data)
}

// parsePatterns compiles the lines of a pattern file; name is used in errors.
func parsePatterns(set *match.Set, name string, data []byte) ([]*rule, error) {
	var out []*rule
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		// Only line ends are trimmed on the right: a trailing space may be
		// part of a pattern, but a CR from a Windows editor is not.
		text := strings.TrimRight(sc.Text(), "\r")
		trimmed := strings.TrimSpace(text)
		if trimmed == "" || strings.HasPrefix(trimmed, "#") {
			continue
		}
		expr := strings.TrimLeft(text, " \t")
		// No match has a time limit, so a pattern that could take
		// exponential time on some text is refused here, not there
		// (match.Bounded).
		re, err := set.Compile(expr, 0)
		if err != nil {
			return nil, fmt.Errorf("redact patterns %s:%d: %v", name, line, err)
		}
		// A pattern that matches nothing at all would insert placeholders
		// between every character; it is surely a mistake.
		if len(set.Text("").Scan(re, 1)) > 0 {
			return nil, fmt.Errorf("redact patterns %s:%d: pattern %q matches the empty string", name, line, trimmed)
		}
		out = append(out, &rule{name: fmt.Sprintf("%s:%d", name, line), kind: Custom, re: re})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("redact patterns %s: %w", name, err)
	}
	return out, nil
}
