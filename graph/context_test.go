package graph

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/internal/ctxtest"
)

func TestBuildContextStops(t *testing.T) {
	r, f := synthRun(2000, 1)
	// Before each of the 9 finders and the commit there is a check, and in
	// the loop finder one every 256 steps (8 here): without those, 12
	// checks would never be reached and the build would succeed.
	g, err := BuildContext(ctxtest.After(12), r, f)
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, g)

	g, err = BuildContext(context.Background(), r, f)
	require.NoError(t, err)
	assert.Equal(t, len(r.Steps), g.Len())
}
