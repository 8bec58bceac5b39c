package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

func TestRunReturnsRedactedCopy(t *testing.T) {
	in := &run.Run{
		Source:      "runs/17.json",
		Question:    "Email bob@example.com the report for 2024.",
		GroundTruth: "42",
		Steps: []run.Step{
			{Index: 0, Agent: "Orchestrator", Kind: run.KindInstruction, Target: "Coder",
				Content: "Use the DB; the admin password is Sup3rS3cret."},
			{Index: 1, Agent: "Coder", Kind: run.KindToolCall, Content: "connecting",
				ToolCalls: []run.ToolCall{{Name: "sql", Arguments: `{"dsn":"postgres://admin:Sup3rS3cret@10.0.4.2/db"}`}}},
			{Index: 2, Agent: "Coder", Kind: run.KindMessage, Content: "Sent to bob@example.com from 10.0.4.2, step 1 done."},
		},
	}
	r := newRedactor(t)
	out := r.Run(in)
	require.NotNil(t, out)

	assert.Equal(t, "Email [EMAIL_1] the report for 2024.", out.Question)
	assert.Equal(t, "42", out.GroundTruth)
	// The password is learnt from step 1's URL and masked in step 0 too.
	assert.Equal(t, "Use the DB; the admin password is [PASSWORD_1].", out.Steps[0].Content)
	assert.Equal(t, `{"dsn":"postgres://admin:[PASSWORD_1]@[IP_1]/db"}`, out.Steps[1].ToolCalls[0].Arguments)
	assert.Equal(t, "sql", out.Steps[1].ToolCalls[0].Name)
	assert.Equal(t, "Sent to [EMAIL_1] from [IP_1], step 1 done.", out.Steps[2].Content)
	assert.Equal(t, "leaked [PASSWORD_1]", r.String("leaked Sup3rS3cret"), "later text gets the run's placeholders")
	assert.Equal(t, "Coder", out.Steps[2].Agent)
	assert.Equal(t, "runs/17.json", out.Source)

	// The input is untouched.
	assert.Equal(t, "Use the DB; the admin password is Sup3rS3cret.", in.Steps[0].Content)
	assert.Contains(t, in.Steps[1].ToolCalls[0].Arguments, "Sup3rS3cret")

	assert.Nil(t, r.Run(nil))
}
