package spans

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// literalStepsFile holds steps as Literal AI's JavaScript SDK ingests them: a
// root run, a model call inside it naming its root run, and a tool step
// that names only its parent, as a step listed on its own may.
const literalStepsFile = `{"id":"r","name":"researcher","type":"run","startTime":"2026-11-27T15:05:04.950Z","endTime":"2026-11-27T15:05:05.036Z","createdAt":"2026-11-27T15:05:04.949Z","input":{"content":"Weather in Oslo?"},"output":{"content":"7 °F."}}
{"id":"m","parentId":"r","rootRunId":"r","name":"gpt-4o-mini","type":"llm","startTime":"2026-11-27T15:05:04.960Z","input":{"content":[{"role":"user","content":"Weather in Oslo?"}]},"output":{"role":"assistant","content":"7 °F."}}
{"id":"w","parentId":"m","name":"get_weather","type":"tool","startTime":"2026-11-27T15:05:04.970Z","input":{"city":"Olso"},"error":"unknown city: Olso"}
`

// TestLiteralAI: a step is of the trace of its root run, a root run of its
// own; a value kept as {"content": …} is what it holds, and an error the
// step's status.
func TestLiteralAI(t *testing.T) {
	// A file is known by its first step; a root run's alone says too
	// little (no parent, root run or thread).
	assert.Equal(t, LiteralAI, Detect([]byte(`{"id":"m","parentId":"r","rootRunId":"r","type":"llm","startTime":"2026-11-27T15:05:04.960Z"}`)))
	assert.Equal(t, LiteralAI, Detect([]byte(`[{"id":"w","parentId":"m","type":"tool","startTime":"2026-11-27T15:05:04.970Z"}]`)))

	ss, err := Decode(context.Background(), []byte(literalStepsFile), LiteralAI)
	require.NoError(t, err)
	require.Len(t, ss, 3)
	root, llm, tool := ss[0], ss[1], ss[2]
	assert.Equal(t, "r", root.TraceID)
	assert.Equal(t, "", root.ParentID)
	assert.Equal(t, "RUN", root.Attrs.Str("openinference.span.kind"))
	assert.Equal(t, "Weather in Oslo?", root.Attrs.Str("input"))
	assert.Equal(t, "7 °F.", root.Attrs.Str("output"))
	assert.Equal(t, "r", llm.TraceID)
	assert.JSONEq(t, `[{"role":"user","content":"Weather in Oslo?"}]`, llm.Attrs.Str("input"))
	assert.Equal(t, "r", tool.TraceID, "a step naming only its parent is of its parents' root")
	assert.Equal(t, "m", tool.ParentID)
	assert.Equal(t, Status{Code: StatusError, Message: "unknown city: Olso"}, tool.Status)
}

func TestLiteralAIBadFiles(t *testing.T) {
	_, err := Decode(context.Background(), []byte(`{"name":"x","type":"run","startTime":"2026-11-27T15:05:04.950Z"}`), LiteralAI)
	assert.ErrorContains(t, err, "line 1: a Literal AI step with no id")
	_, err = Decode(context.Background(), []byte(`{"steps":[3]}`), LiteralAI)
	assert.ErrorContains(t, err, "a Literal AI step is a JSON object")
}

func FuzzLiteralAI(f *testing.F) {
	fuzzSeeds(f, "../traces/literalai-js.jsonl")
	f.Add([]byte(literalStepsFile))
	fuzzDecode(f, LiteralAI)
}
