//go:build unix

package run

import (
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestIsRunFileAtSkipsPipes: a named pipe without an extension is not
// opened to look at its first bytes, which would wait for a writer.
func TestIsRunFileAtSkipsPipes(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "pipe")
	require.NoError(t, syscall.Mkfifo(fifo, 0o600))
	assert.False(t, IsRunFileAt(fifo))
}
