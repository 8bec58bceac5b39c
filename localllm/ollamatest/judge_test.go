package ollamatest

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func analystRequest(t *testing.T, steps []int, text string) *api.ChatRequest {
	t.Helper()
	props := map[string]any{"vote": map[string]any{"type": "object"}}
	for _, s := range steps {
		props[fmt.Sprintf("step_%d", s)] = map[string]any{"type": "object"}
	}
	format, err := json.Marshal(map[string]any{"type": "object", "properties": props})
	require.NoError(t, err)
	return &api.ChatRequest{Format: format, Messages: []api.Message{{Role: "system", Content: "s"}, {Role: "user", Content: text}}}
}

func readerRequest(t *testing.T, steps []int, text string) *api.ChatRequest {
	t.Helper()
	enum := make([]any, len(steps))
	for i, s := range steps {
		enum[i] = s
	}
	item := map[string]any{"type": "object", "properties": map[string]any{"step": map[string]any{"type": "integer", "enum": enum}}}
	format, err := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{"suspects": map[string]any{"type": "array", "items": item}}})
	require.NoError(t, err)
	return &api.ChatRequest{Format: format, Messages: []api.Message{{Role: "user", Content: text}}}
}

func votedStep(t *testing.T, content string) (int, float64) {
	t.Helper()
	var a struct {
		Vote struct {
			Step       int     `json:"step"`
			Confidence float64 `json:"confidence"`
		} `json:"vote"`
		Suspects []struct {
			Step       int     `json:"step"`
			Confidence float64 `json:"confidence"`
		} `json:"suspects"`
	}
	require.NoError(t, json.Unmarshal([]byte(content), &a), content)
	if len(a.Suspects) > 0 {
		require.Len(t, a.Suspects, 1)
		return a.Suspects[0].Step, a.Suspects[0].Confidence
	}
	return a.Vote.Step, a.Vote.Confidence
}

// TestJudgeIsRightAsOftenAsItsAccuracy asks a thousand different requests
// of judges of known accuracy: the label is named about p of the time when
// shown, never when not shown, and a wrong step with the same confidence.
func TestJudgeIsRightAsOftenAsItsAccuracy(t *testing.T) {
	for _, p := range []float64{0, 0.3, 0.5, 1} {
		t.Run(fmt.Sprint(p), func(t *testing.T) {
			j := NewJudge(p, 1)
			j.Expect(4)
			right, wrongSteps := 0, map[int]int{}
			const n = 1000
			for i := range n {
				req := analystRequest(t, []int{2, 4, 6, 8}, fmt.Sprintf("run %d", i))
				if i%2 == 1 {
					req = readerRequest(t, []int{2, 4, 6, 8}, fmt.Sprintf("run %d", i))
				}
				step, conf := votedStep(t, j.Reply(req, i).Content)
				assert.Equal(t, 0.8, conf, "the same confidence, right or wrong")
				if step == 4 {
					right++
				} else {
					wrongSteps[step]++
				}
			}
			assert.InDelta(t, p, float64(right)/n, 0.05)
			if p < 1 {
				assert.Len(t, wrongSteps, 3, "mistakes are spread over the other shown steps")
			}
			hidden, _ := votedStep(t, j.Reply(analystRequest(t, []int{1, 3}, "x"), 0).Content)
			assert.Contains(t, []int{1, 3}, hidden, "a label not shown cannot be named")
		})
	}
}

func TestJudgeIsDeterministic(t *testing.T) {
	a, b := NewJudge(0.5, 9), NewJudge(0.5, 9)
	a.Expect(6)
	b.Expect(6)
	other := NewJudge(0.5, 10)
	other.Expect(6)
	differs := false
	for i := range 50 {
		req := analystRequest(t, []int{2, 4, 6, 8}, fmt.Sprintf("run %d", i))
		assert.Equal(t, a.Reply(req, 1).Content, b.Reply(req, 7).Content, "the same request, the same answer")
		differs = differs || a.Reply(req, 1).Content != other.Reply(req, 1).Content
	}
	assert.True(t, differs, "another seed answers otherwise")
	a.Forget()
	for i := range 50 {
		step, _ := votedStep(t, a.Reply(analystRequest(t, []int{2, 6}, fmt.Sprint(i)), 0).Content)
		assert.Contains(t, []int{2, 6}, step)
	}
}

func TestSharedJudgeAnswersAsOne(t *testing.T) {
	j := NewJudge(0.3, 5)
	j.Shared = true
	j.Expect(4)
	for i := range 30 {
		a, b := analystRequest(t, []int{2, 4, 6, 8}, fmt.Sprint(i)), analystRequest(t, []int{2, 4, 6, 8}, fmt.Sprint(i))
		b.Messages[0].Content = "another role"
		assert.Equal(t, j.Reply(a, 0).Content, j.Reply(b, 0).Content, "analysts of one panel agree")
	}
}
