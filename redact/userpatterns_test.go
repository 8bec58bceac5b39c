package redact

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	require.NoError(t, os.WriteFile(path, []byte(content), 0o600))
	return path
}

func TestPatternsFile(t *testing.T) {
	path := writeFile(t, "patterns.txt", strings.Join([]string{
		"# employee ids",
		`\bEMP-\d{6}\b`,
		"",
		"   # indented comment",
		`project (?<secret>Blue\w+)`,
		"internal\\.corp\r", // a Windows line end is not part of the pattern
	}, "\n"))
	r, err := New(Options{PatternsFile: path})
	require.NoError(t, err)

	tests := []struct{ in, want string }{
		{"badge EMP-004211 and EMP-004211", "badge [CUSTOM_1] and [CUSTOM_1]"},
		{"project Bluebird ships", "project [CUSTOM_2] ships"},
		{"host api.internal.corp", "host api.[CUSTOM_3]"},
		{"mail ops@example.com", "mail [EMAIL_1]"}, // built-ins still run
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, r.String(tt.in))
	}
}

func TestPatternsFileErrors(t *testing.T) {
	tests := []struct {
		name, content, want string
	}{
		{"bad pattern", "ok\n# fine\n(unclosed\n", "bad.txt:3: "},
		{"empty match", "\nx*\n", `bad.txt:2: pattern "x*" matches the empty string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := writeFile(t, "bad.txt", tt.content)
			_, err := New(Options{PatternsFile: path})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tt.want)
			assert.NotContains(t, err.Error(), "\n", "one-line error")
		})
	}

	_, err := New(Options{PatternsFile: filepath.Join(t.TempDir(), "missing.txt")})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "missing.txt: no such file or directory")
}

// TestUnboundedPatternIsRefused: no match has a time limit, so a user
// pattern that could backtrack without bound is refused when loaded, with
// the file and line, rather than left to run for ever on some text.
func TestUnboundedPatternIsRefused(t *testing.T) {
	path := writeFile(t, "slow.txt", "# mine\n"+`^(a+)+$`+"\n")
	_, err := New(Options{PatternsFile: path})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "slow.txt:2")
	assert.Contains(t, err.Error(), "backtrack without bound")
}
