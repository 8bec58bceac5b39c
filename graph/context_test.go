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
	// There is a check before each of the 9 finders and before the graph
	// is put together: 10. The 12th check is one inside the work (the
	// data and loop finders every 256 steps, the commit every 1024 edges);
	// without those the build would succeed.
	g, err := BuildContext(ctxtest.After(12), r, f)
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, g)

	g, err = BuildContext(context.Background(), r, f)
	require.NoError(t, err)
	assert.Equal(t, len(r.Steps), g.Len())
}
