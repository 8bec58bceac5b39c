//go:build unix

package cmdutil

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestLabelsFromADeviceAreBound: --labels naming a device that never ends
// is refused once it passes --max-input, not read until memory runs out.
func TestLabelsFromADeviceAreBound(t *testing.T) {
	l := LoadFlags{Format: "auto", Labels: "/dev/zero", MaxInput: 1 << 20}
	_, err := l.Options()
	require.ErrorIs(t, err, run.ErrTooLarge)
	assert.ErrorContains(t, err, "labels /dev/zero: input is larger than the 1 MiB limit")
}
