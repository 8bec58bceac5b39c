package extract

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/internal/ctxtest"
	"github.com/offattr/offattr/run"
)

func TestRunContextStops(t *testing.T) {
	r := &run.Run{Question: "Sum 2 and 3."}
	for i := range 50 {
		r.Steps = append(r.Steps, run.Step{Index: i, Agent: "a", Kind: run.KindMessage, Content: fmt.Sprintf("Step %d: the value is %d.", i, i*7)})
	}
	// One check a step: the 10th is mid-run.
	f, err := RunContext(ctxtest.After(10), r)
	require.ErrorIs(t, err, context.Canceled)
	assert.Nil(t, f)

	f, err = RunContext(context.Background(), r)
	require.NoError(t, err)
	assert.Equal(t, Run(r), f, "uncancelled, it is Run")
}
