package run

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSolutionRecords reads the records of process-supervision datasets:
// the problem as the user's step, each solution step as the solver's,
// and the first step named wrong as the label, one step on for the
// problem before it.
func TestSolutionRecords(t *testing.T) {
	const shepherd = `{"input": "Tom has 3 bags of 4 apples. How many apples? Step 1: 3 * 4 = 13. ки\nStep 2: The answer is: 13 ки", ` +
		`"label": "Tom has 3 bags of 4 apples. How many apples? Step 1: 3 * 4 = 13. -\nStep 2: The answer is: 13 -", "task": "GSM8K"}`
	const prm = `{"labeler": "x", "generation": 3, "question": {"problem": "What is 2 + 3 * 4?", "ground_truth_answer": "14",
		"pre_generated_steps": ["First, 2 + 3 = 5.", "Then 5 * 4 = 20.", "# Answer\n\n20"]},
		"label": {"steps": [
			{"completions": [{"text": "We add first.", "rating": 0}, {"text": "First, 2 + 3 = 5.", "rating": -1}], "human_completion": null, "chosen_completion": null}],
		"finish_reason": "found_error"}}`
	for _, tc := range []struct {
		name, data string
		question   string
		steps      []string
		truth      string
		label      *Label
	}{
		{"a ProcessBench record", `{"id": "gsm8k-1", "generator": "Qwen2-7B-Instruct", "problem": "Tom has 3 bags of 4 apples. How many apples?",
			"steps": ["Each bag has 4 apples.", "3 x 4 = 13.", "The answer is 13."], "final_answer_correct": false, "label": 1}`,
			"Tom has 3 bags of 4 apples. How many apples?", []string{"Tom has 3 bags of 4 apples. How many apples?", "Each bag has 4 apples.", "3 x 4 = 13.", "The answer is 13."}, "",
			&Label{Agent: "assistant", Step: 2}},
		{"a ProcessBench record without a wrong step is unlabelled", `{"problem": "What is 1 + 1?", "steps": ["1 + 1 = 2."], "label": -1}`,
			"What is 1 + 1?", []string{"What is 1 + 1?", "1 + 1 = 2."}, "", nil},
		{"a record in ProcessBench's shape that names its problem question", `{"question": "What is 2 + 2?", "steps": ["2 + 2 = 5.", "The answer is 5."], "label": 0}`,
			"What is 2 + 2?", []string{"What is 2 + 2?", "2 + 2 = 5.", "The answer is 5."}, "", &Label{Agent: "assistant", Step: 1}},
		{"a Math-Shepherd record: the first step marked -", shepherd,
			"Tom has 3 bags of 4 apples. How many apples?", []string{"Tom has 3 bags of 4 apples. How many apples?", "Step 1: 3 * 4 = 13.", "Step 2: The answer is: 13"}, "",
			&Label{Agent: "assistant", Step: 1}},
		{"a PRM800K record: the completion rated wrong, then the rest of the solution the model wrote", prm,
			"What is 2 + 3 * 4?", []string{"What is 2 + 3 * 4?", "First, 2 + 3 = 5.", "Then 5 * 4 = 20.", "# Answer\n\n20"}, "14",
			&Label{Agent: "assistant", Step: 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := ParseCase("rec.json", []byte(tc.data), Options{})
			require.NoError(t, err)
			assert.Equal(t, tc.question, c.Run.Question)
			assert.Equal(t, tc.truth, c.Run.GroundTruth)
			var texts []string
			for i, s := range c.Run.Steps {
				texts = append(texts, s.Content)
				want := KindMessage
				if i == 0 {
					want = KindUser
				}
				assert.Equal(t, want, s.Kind, "step %d", i)
			}
			assert.Equal(t, tc.steps, texts)
			assert.Equal(t, tc.label, c.Label)
		})
	}

	t.Run("JSON lines and a list of records are a run each, named by its id or its place", func(t *testing.T) {
		lines := `{"id": "a-1", "problem": "What is 2 + 2?", "steps": ["2 + 2 = 5."], "label": 0}` + "\n" +
			`{"problem": "What is 3 + 3?", "steps": ["3 + 3 = 6."], "label": -1}` + "\n"
		for _, data := range []string{lines, "[" + `{"id": "a-1", "problem": "What is 2 + 2?", "steps": ["2 + 2 = 5."], "label": 0}, {"problem": "What is 3 + 3?", "steps": ["3 + 3 = 6."], "label": -1}` + "]"} {
			cs, err := ParseAll(context.Background(), "recs.jsonl", []byte(data), Options{})
			require.NoError(t, err)
			require.Len(t, cs, 2)
			assert.Equal(t, "recs.jsonl#a-1", cs[0].Run.Source)
			assert.Equal(t, "recs.jsonl#record-2", cs[1].Run.Source)
			assert.Equal(t, &Label{Agent: "assistant", Step: 1}, cs[0].Label)
			assert.Nil(t, cs[1].Label)
		}
	})

	for _, tc := range []struct{ name, data, err string }{
		{"a label past the last step", `{"problem": "What is 2 + 2?", "steps": ["2 + 2 = 5."], "label": 3}`, "names no step"},
		{"a label that is no number", `{"problem": "What is 2 + 2?", "steps": ["2 + 2 = 5."], "label": "two"}`, "not a step's number"},
		{"a Math-Shepherd mark that is neither + nor -", `{"input": "Q? Step 1: 2 + 2 = 4. ки", "label": "Q? Step 1: 2 + 2 = 4. ?"}`, "not + or -"},
		{"a Math-Shepherd label shorter than its input", `{"input": "Q? Step 1: 2 + 2 = 4. ки", "label": "Q?"}`, "shorter"},
		{"a second record of another shape", `{"problem": "Q?", "steps": ["A."], "label": 0}` + "\n" + `{"problem": "Q?", "steps": "A."}`, "record 2"},
	} {
		t.Run(tc.name+" is an error, not a panic", func(t *testing.T) {
			_, err := ParseAll(context.Background(), "rec.jsonl", []byte(tc.data), Options{})
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.err)
		})
	}
}
