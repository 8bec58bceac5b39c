package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAgentScopeToolResult: AgentScope's messages (each Msg.to_dict(),
// as a memory's state_dict lists them) give a tool's result as a block of the system's
// message, {"type": "tool_result", "id", "name", "output"}, its output a
// text or a list of blocks: the result of the call whose id it has.
func TestAgentScopeToolResult(t *testing.T) {
	for name, output := range map[string]string{
		"blocks": `[{"type": "text", "text": "<returncode>1</returncode><stdout></stdout><stderr>FileNotFoundError: sales.csv</stderr>"}]`,
		"text":   `"<returncode>1</returncode><stdout></stdout><stderr>FileNotFoundError: sales.csv</stderr>"`,
	} {
		t.Run(name, func(t *testing.T) {
			data := `[
 {"id": "a", "name": "user", "role": "user", "content": "What was March's revenue?", "metadata": null, "timestamp": "2025-09-02 11:04:01.512"},
 {"id": "b", "name": "DataAnalyst", "role": "assistant", "content": [{"type": "tool_use", "id": "call_1", "name": "execute_python_code", "input": {"code": "print(1)"}}], "metadata": null, "timestamp": "2025-09-02 11:04:06.221"},
 {"id": "c", "name": "system", "role": "system", "content": [{"type": "tool_result", "id": "call_1", "name": "execute_python_code", "output": ` + output + `}], "metadata": null, "timestamp": "2025-09-02 11:04:07.019"},
 {"id": "d", "name": "DataAnalyst", "role": "assistant", "content": [{"type": "text", "text": "Revenue was 184,250 USD."}], "metadata": null, "timestamp": "2025-09-02 11:04:10.402"}]`
			r, err := Parse("memory.json", []byte(data), Options{})
			require.NoError(t, err)
			require.Len(t, r.Steps, 4)
			res := r.Steps[2]
			assert.Equal(t, KindToolResult, res.Kind)
			assert.Equal(t, "DataAnalyst", res.Agent)
			assert.Contains(t, res.Content, "FileNotFoundError: sales.csv")
			assert.Equal(t, "call_1", res.ToolCallID())
		})
	}
}
