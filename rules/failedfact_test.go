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

// TestNoneFromAFailedCall: an answer that tells there is none ("0
// invoices", "no overdue invoices") after a query whose call reports it
// failed (a timeout beside "rows returned: 0") took the failure for a
// count; the same words after a query that did not fail, an answer
// that tells a count, or one that tells the failure beside its "no"
// (it has no count because the call failed), are no such finding.
func TestNoneFromAFailedCall(t *testing.T) {
	const head = `{"role": "user", "content": "How many invoices are more than 60 days overdue for the Northwind account?"}
{"server": "postgres", "message": {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "query", "arguments": {"sql": "SELECT count(*) FROM invoices WHERE account = 'Northwind' AND status = 'open'"}}}}
{"server": "postgres", "message": {"jsonrpc": "2.0", "id": 1, "result": {"content": [{"type": "text", "text": "OUTPUT"}], "isError": FAILED}}}
{"role": "assistant", "content": "ANSWER"}
`
	for _, tc := range []struct {
		name, output, failed, answer string
		want                         []int
	}{
		{"a count of nought from a timeout", "canceling statement due to statement timeout (30000 ms); rows returned: 0", "true",
			"None: Northwind has 0 invoices more than 60 days overdue.", []int{3}},
		{"an absence from a timeout", "canceling statement due to statement timeout (30000 ms); rows returned: 0", "true",
			"Northwind has no overdue invoices.", []int{3}},
		{"a count of nought from a query that did not fail", "count: 0", "false",
			"None: Northwind has 0 invoices more than 60 days overdue.", nil},
		{"a question back after a timeout", "canceling statement due to statement timeout (30000 ms); rows returned: 0", "true",
			"The query timed out. Shall I try again with a narrower date range?", nil},
		{"an absence of an answer told beside the failure", "canceling statement due to statement timeout (30000 ms); rows returned: 0", "true",
			"The query failed, so I have no count of overdue invoices for Northwind.", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			data := strings.NewReplacer("OUTPUT", tc.output, "FAILED", tc.failed, "ANSWER", tc.answer).Replace(head)
			c, err := run.ParseCase("log.jsonl", []byte(data), run.Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.want, stepsFor(DataFlowOrigin.Run(inputOf(t, c.Run)), "tells that there is none"))
		})
	}
}
