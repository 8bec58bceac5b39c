package eval

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
)

func TestEvaluateRedactsCasesAndLabels(t *testing.T) {
	dir := t.TempDir()
	kase := map[string]any{
		"question": "Mail the report to bob@example.com.", "ground_truth": "sent",
		"history": []map[string]string{
			{"role": "human", "content": "Mail the report to bob@example.com."},
			{"role": "Mailer", "content": "Login failed for bob@example.com with password=Hunter22 from 10.2.3.4"},
			{"role": "Checker", "content": "FINAL ANSWER: sent"},
		},
		"mistake_agent": "Mailer", "mistake_step": "1",
		"mistake_reason": "Mailer used bob@example.com's old password=Hunter22.",
	}
	data, err := json.Marshal(kase)
	require.NoError(t, err)
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "S"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "S", "bob@example.com.json"), data, 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "S", "dave@woodgrove.com.json"), []byte(`{"history": [{"role": "x", "content": "hi"}], "mistake_agent": "x", "mistake_step": "ask carol@example.org"}`), 0o644))
	subsets, err := Discover([]string{dir})
	require.NoError(t, err)
	p, err := redact.Compile(redact.Options{})
	require.NoError(t, err)

	var seen []string
	analyze := func(_ context.Context, r *run.Run) (engine.Result, error) {
		for _, s := range r.Steps {
			seen = append(seen, s.Content)
		}
		return engine.Result{Attribution: rules.Attribution{Agent: r.Steps[1].Agent, Step: 1, Confidence: 0.5}}, nil
	}
	var cases, warn bytes.Buffer
	rep, err := Evaluate(context.Background(), subsets, analyze, Options{Redact: p, Cases: &cases, Warn: &warn})
	require.NoError(t, err)

	assert.InDelta(t, 1.0, rep.Subsets[0].AgentAccuracy*2, 1e-9, "the masked label still names the masked answer's agent (1 of 2: the other case is broken)")
	written := cases.String() + warn.String() + strings.Join(seen, "\n")
	for _, secret := range []string{"bob@example.com", "Hunter22", "10.2.3.4", "carol@example.org", "woodgrove"} {
		assert.NotContains(t, written, secret)
	}
	assert.Contains(t, cases.String(), `"reason":"Mailer used [EMAIL_1]'s old password=[PASSWORD_`, "the label's reason, in the run's placeholders")
	assert.Contains(t, warn.String(), `S/[EMAIL_1].json: mistake_step "ask [EMAIL_2]" is not a step index`, "messages are masked too")
	assert.Contains(t, cases.String(), `S/[EMAIL_1].json","subset":"S","label"`, "the file's name is masked as its text")
	assert.Contains(t, cases.String(), `S/[EMAIL_1].json","subset":"S","error"`, "so is a broken file's")
}
