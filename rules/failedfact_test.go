package rules

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestValueFromAFailedCall: a value the answer states that first came in
// the output of a tool's call that reports it failed (an MCP result with
// isError: a timeout beside yesterday's cached reading) was stated as a
// fact by the step that took it up, not chosen by the call; the same
// value in an output that did not fail, or printed by a command line the
// agent ran, stays the call's.
func TestValueFromAFailedCall(t *testing.T) {
	const head = `{"role": "user", "content": "What's the current wait time at the Ysleta port of entry for passenger vehicles?"}
{"server": "border", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "NAME", "arguments": ARGS}}}
{"server": "border", "message": {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "OUTPUT"}], "isError": FAILED}}}
{"role": "assistant", "content": "The current wait at the Ysleta port of entry for passenger vehicles is about 95 minutes."}
`
	for _, tc := range []struct {
		name, tool, args, output, failed string
		want                             int // the step data_flow_origin names, -1 for any but the answer
	}{
		{"a failed call's output", "get_wait_times", `{"port": "Ysleta", "lane": "passenger"}`,
			"Upstream feed timed out after 5000 ms; last cached reading (2026-11-21 17:00): passenger 95 min.", "true", 3},
		{"an output that did not fail", "get_wait_times", `{"port": "Ysleta", "lane": "passenger"}`,
			"Ysleta, 2026-11-22 10:00: passenger 95 min.", "false", 1},
		{"a command line's failed output", "bash", `{"command": "python wait.py --port Ysleta"}`,
			"wait.py exited 1 after printing: passenger 95 min.", "true", -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.NewReplacer("NAME", tc.tool, "ARGS", tc.args, "OUTPUT", tc.output, "FAILED", tc.failed).Replace(head)
			c, err := run.ParseCase("log.jsonl", []byte(data), run.Options{})
			require.NoError(t, err)
			got := steps(DataFlowOrigin.Run(inputOf(t, c.Run)), true)
			if tc.want < 0 {
				assert.NotContains(t, got, 3)
				return
			}
			assert.Equal(t, []int{tc.want}, got)
		})
	}
}
