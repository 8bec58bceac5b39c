package run

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBedrockAgentEvents: a Bedrock agent's trace events read as its
// steps: the request from the first model input's body, rationales as
// thoughts, invocation inputs as calls and observations as their results,
// a collaborator's events as its own, code that failed as a failed
// result, and the final response as the answer.
func TestBedrockAgentEvents(t *testing.T) {
	tr := func(extra, inner string) string {
		return `{"trace": {"agentId": "AG1", "agentAliasId": "TSTALIASID", "sessionId": "s"` + extra + `, "trace": {"orchestrationTrace": ` + inner + `}}}`
	}
	data := `{"mistake_agent": "AG1", "mistake_step": 2, "events": [` +
		tr("", `{"modelInvocationInput": {"text": "{\"system\":\"s\",\"messages\":[{\"role\":\"user\",\"content\":[{\"type\":\"text\",\"text\":\"Leave 3-7 March.\"}]}]}", "type": "ORCHESTRATION"}}`) + `,` +
		tr("", `{"rationale": {"text": "I will file it."}}`) + `,` +
		tr("", `{"invocationInput": {"invocationType": "ACTION_GROUP", "traceId": "t1", "actionGroupInvocationInput": {"actionGroupName": "Leave", "apiPath": "/requests", "verb": "post", "requestBody": {"content": {"application/json": [{"name": "start", "type": "string", "value": "2027-05-03"}]}}}}}`) + `,` +
		tr("", `{"observation": {"type": "ACTION_GROUP", "actionGroupInvocationOutput": {"text": "{\"id\": 7}"}}}`) + `,` +
		tr(`, "collaboratorName": "calc"`, `{"invocationInput": {"invocationType": "ACTION_CODE_INTERPRETER", "traceId": "t2", "codeInterpreterInvocationInput": {"code": "1/0"}}}`) + `,` +
		tr(`, "collaboratorName": "calc"`, `{"observation": {"type": "ACTION_CODE_INTERPRETER", "codeInterpreterInvocationOutput": {"executionError": "ZeroDivisionError"}}}`) + `,` +
		tr("", `{"observation": {"type": "FINISH", "finalResponse": {"text": "Filed for May."}}}`) + `,
 {"chunk": {"bytes": "Filed for May."}}]}`
	c, err := ParseCase("events.json", []byte(data), Options{})
	require.NoError(t, err)
	var got []string
	for _, s := range c.Run.Steps {
		got = append(got, s.Agent+" "+string(s.Kind)+" "+s.Content)
	}
	assert.Equal(t, []string{
		"user user Leave 3-7 March.",
		"AG1 thought I will file it.",
		`AG1 tool_call POST__Leave__requests({"start":"2027-05-03"})`,
		`AG1 tool_result {"id": 7}`,
		`calc tool_call code interpreter({"code":"1/0"})`,
		"calc tool_result Error: ZeroDivisionError",
		"AG1 message Filed for May.",
	}, got)
	require.NotNil(t, c.Label)
	assert.Equal(t, 2, c.Label.Step)

	_, ok := bedrockAgentEvents([]any{map[string]any{"chunk": map[string]any{"bytes": "hi"}}})
	assert.False(t, ok, "chunks alone")
	_, ok = bedrockAgentEvents([]any{map[string]any{"trace": map[string]any{}}, map[string]any{"role": "user"}})
	assert.False(t, ok, "a message among the events")
}

// TestBedrockAgentEventsMisshapen: a list that looks like a Bedrock
// agent's events but whose chunk is no object (a text in place of
// {"bytes"}) is no such list: it is read as another format or refused,
// never a panic.
func TestBedrockAgentEventsMisshapen(t *testing.T) {
	for _, data := range []string{
		`[{"trace": {"trace": {}}}, {"chunk": "x"}]`,
		`[{"trace": {"trace": {}}}, {"chunk": 5}]`,
	} {
		assert.NotPanics(t, func() {
			_, err := ParseAll(context.Background(), "events.json", []byte(data), Options{})
			assert.Error(t, err, data)
		}, data)
	}
}

// TestBedrockRequestBodyOrder: an API's request body that gives a
// parameter under two media types gives the call the same arguments on
// every reading: its media types read in the order of their names, a
// later value of a name over an earlier.
func TestBedrockRequestBodyOrder(t *testing.T) {
	data := []byte(`[{"trace": {"agentId": "AG1", "trace": {"orchestrationTrace": {"invocationInput": {"invocationType": "ACTION_GROUP", "traceId": "t1",
		"actionGroupInvocationInput": {"actionGroupName": "Leave", "apiPath": "/requests", "verb": "post", "requestBody": {"content": {
			"text/plain": [{"name": "start", "value": "2027-05-04"}],
			"application/json": [{"name": "start", "value": "2027-05-03"}, {"name": "days", "value": "5"}],
			"application/xml": [{"name": "start", "value": "2027-05-05"}]}}}}}}}},
		{"trace": {"agentId": "AG1", "trace": {"orchestrationTrace": {"observation": {"type": "ACTION_GROUP", "actionGroupInvocationOutput": {"text": "{\"id\": 7}"}}}}}}]`)
	for range 32 {
		c, err := ParseCase("events.json", data, Options{})
		require.NoError(t, err)
		require.NotEmpty(t, c.Run.Steps)
		require.Equal(t, `POST__Leave__requests({"days":"5","start":"2027-05-04"})`, c.Run.Steps[0].Content)
	}
}
