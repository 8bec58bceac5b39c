package run_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestJoinSessions: an instrumentation that loses its context between
// spans (OpenLLMetry's with LangGraph.js) writes each span as a trace of
// its own; the spans that name one session are one run, in time order,
// each step keeping its own trace. Traces that name no session, or name
// different ones, stay apart, and so do the traces of a file whose traces
// are whole.
func TestJoinSessions(t *testing.T) {
	chat := func(trace, id string, start float64, key, value, text string) span {
		attrs := map[string]any{"gen_ai.operation.name": "chat",
			"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"` + text + `"}]}]`}
		if key != "" {
			attrs[key] = value
		}
		return span{trace: trace, id: id, name: "chat", start: start, attrs: attrs}
	}
	tests := []struct {
		name string
		path string // a fixture, else spans
		ss   []span
		want [][]string // each run's steps
	}{
		{
			name: "OpenLLMetry with LangGraph.js: a trace a span, one session_id",
			path: filepath.Join("..", "testdata", "traces", "traceloop-langgraph-js.jsonl"),
			want: [][]string{{
				"user user: What was Q3 revenue, in EUR?",
				"revenue-report message: Q3 revenue was 4.2M USD (source: the Q3 filing).",
				"user user: Convert the figure to EUR.",
				"revenue-report message: Q3 revenue was 4.2M EUR.",
			}},
		},
		{
			name: "one conversation id, written out of order",
			ss: []span{
				chat("t2", "b", 2, "gen_ai.conversation.id", "c1", "second"),
				chat("t1", "a", 1, "gen_ai.conversation.id", "c1", "first"),
			},
			want: [][]string{{"assistant message: first", "assistant message: second"}},
		},
		{
			name: "LangGraph's thread_id in the metadata",
			ss: []span{
				chat("t1", "a", 1, "metadata", `{"thread_id": "th-1"}`, "first"),
				chat("t2", "b", 2, "metadata", `{"thread_id": "th-1"}`, "second"),
			},
			want: [][]string{{"assistant message: first", "assistant message: second"}},
		},
		{
			name: "no session: apart",
			ss:   []span{chat("t1", "a", 1, "", "", "first"), chat("t2", "b", 2, "", "", "second")},
			want: [][]string{{"assistant message: first"}, {"assistant message: second"}},
		},
		{
			name: "two sessions: apart, and a user id is no session",
			ss: []span{
				chat("t1", "a", 1, "session.id", "s1", "first"),
				chat("t2", "b", 2, "session.id", "s2", "second"),
				chat("t3", "c", 3, "traceloop.association.properties.user_id", "u1", "third"),
				chat("t4", "d", 4, "traceloop.association.properties.user_id", "u1", "fourth"),
			},
			want: [][]string{{"assistant message: first"}, {"assistant message: second"}, {"assistant message: third"}, {"assistant message: fourth"}},
		},
		{
			name: "a trace of two spans: every trace stays whole",
			ss: []span{
				chat("t1", "a", 1, "session.id", "s1", "first"),
				chat("t1", "a2", 1.5, "session.id", "s1", "again"),
				chat("t2", "b", 2, "session.id", "s1", "second"),
			},
			want: [][]string{{"assistant message: first", "assistant message: again"}, {"assistant message: second"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := tt.path
			if path == "" {
				path = writeSpans(t, tt.ss...)
			}
			cases, err := run.LoadAll(context.Background(), path, run.Options{})
			require.NoError(t, err)
			var got [][]string
			for _, c := range cases {
				got = append(got, steps(c.Run))
			}
			assert.Equal(t, tt.want, got)
		})
	}
	t.Run("each step keeps its own trace", func(t *testing.T) {
		c := loadOne(t, filepath.Join("..", "testdata", "traces", "traceloop-langgraph-js.jsonl"), "")
		assert.Equal(t, "a370d181a4934232ce952192d8e54765", c.Run.TraceID)
		var traces []string
		for _, s := range c.Run.Steps {
			traces = append(traces, s.TraceID())
		}
		assert.Equal(t, []string{"16a4775652690eb315161ea3ccde0717", "16a4775652690eb315161ea3ccde0717", "dcabb9cb1820a606c94c0e1b4bd40935", "dcabb9cb1820a606c94c0e1b4bd40935"}, traces)
	})
}
