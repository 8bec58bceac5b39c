package hierarchy

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/internal/ctxtest"
)

func TestFitContextStops(t *testing.T) {
	r := load(t, "orchestrated.json")
	c, err := Build(r, nil, 7)
	require.NoError(t, err)
	ctx := ctxtest.After(3) // the third check of degrading
	_, err = FitContext(ctx, c, 300)
	// Uncancelled, this fit succeeds (below): the error is the stop.
	require.ErrorIs(t, err, context.Canceled, "stopped while degrading, not reported as a budget too small")

	fitted, err := FitContext(context.Background(), c, 300)
	require.NoError(t, err)
	plain, err := Fit(c, 300)
	require.NoError(t, err)
	assert.Equal(t, plain, fitted)

	_, err = BuildWithinContext(ctxtest.After(1), r, nil, 7, 300)
	require.ErrorIs(t, err, context.Canceled, "extraction stops too")
}
