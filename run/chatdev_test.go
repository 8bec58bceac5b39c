package run

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// chatDevSample is a short ChatDev run log: the preprocessing record with
// the task, a phase's parameters, its start and one turn each after the
// speaker's role prompt, token usage and the seminar's conclusion.
const chatDevSample = `[2024-14-03 10:12:01 INFO] **[Preprocessing]**

**ChatDev Starts** (20240314101201)

**task_prompt**: Print the letter grade of each score: A for 90 and above.

**project_name**: GradeTool

[2024-14-03 10:12:02 INFO] System: **[chatting]**

| Parameter | Value |
| --- | --- |
| **phase_name** | Coding |

[2024-14-03 10:12:02 INFO] Chief Technology Officer: **[Start Chat]**

[ChatDev is a software company powered by multiple intelligent agents.
You are Chief Technology Officer.]

Write the program in Python.

[2024-14-03 10:12:09 INFO] **[OpenAI_Usage_Info Receive]**
prompt_tokens: 980
completion_tokens: 240

[2024-14-03 10:12:09 INFO] Programmer: **Programmer<->Chief Technology Officer on : Coding, turn 0**

[ChatDev is a software company powered by multiple intelligent agents.
You are Programmer.]

grading.py
` + "```python\ndef letter_grade(score):\n    return \"A\" if score > 90 else \"B\"\n```" + `

[2024-14-03 10:12:09 INFO] **[Seminar Conclusion]**:

 grading.py

[2024-14-03 10:12:15 INFO] Code Reviewer: **Code Reviewer<->Programmer on : CodeReviewComment, turn 0**

[You are Code Reviewer.]

The grade bands follow the task. <INFO> Finished
`

// TestChatDevLog: ChatDev's run log reads as its turns, each its
// speaker's words without the role prompt before them, the task from the
// preprocessing record; the records no one speaks are no steps. The same
// log held in a dataset's record, beside its label, is a labelled case,
// and a .log file of it is a run file.
func TestChatDevLog(t *testing.T) {
	r, err := Parse("run.log", []byte(chatDevSample), Options{})
	require.NoError(t, err)
	assert.Equal(t, "Print the letter grade of each score: A for 90 and above.", r.Question)
	var agents, texts []string
	for _, s := range r.Steps {
		agents = append(agents, s.Agent)
		texts = append(texts, s.Content)
	}
	assert.Equal(t, []string{"Chief Technology Officer", "Programmer", "Code Reviewer"}, agents)
	assert.Equal(t, "Write the program in Python.", texts[0])
	assert.Contains(t, texts[1], "score > 90")
	assert.NotContains(t, texts[1], "You are Programmer")

	record, err := json.Marshal(map[string]any{"mas_name": "ChatDev", "trace": map[string]any{"trajectory": chatDevSample},
		"mistake_agent": "Programmer", "mistake_step": 1})
	require.NoError(t, err)
	c, err := ParseCase("record.json", record, Options{})
	require.NoError(t, err)
	require.NotNil(t, c.Label)
	assert.Equal(t, "Programmer", c.Label.Agent)
	assert.Equal(t, 1, c.Label.Step)
	assert.Len(t, c.Run.Steps, 3)

	path := filepath.Join(t.TempDir(), "GradeTool_DefaultOrganization_20240314101201.log")
	require.NoError(t, os.WriteFile(path, []byte(chatDevSample), 0o644))
	assert.True(t, IsRunFileAt(path))
}

// TestChatDevLogHeadOfBigFile: whether a file begins as ChatDev's log is
// told from its first bytes: a file of another format is none, even
// where a record's head stands further in. That a big file is not
// searched whole is BenchmarkChatDevLogHead's to show.
func TestChatDevLogHeadOfBigFile(t *testing.T) {
	head := "[2024-14-03 10:12:01 CRITICAL] **[Preprocessing]**\n\n**task_prompt**: x\n"
	for name, data := range chatDevOtherFiles(1000) {
		assert.False(t, chatDevLogHead(data), name)
		assert.False(t, chatDevLogHead(append(data, head...)), "%s, a record's head after it", name)
	}
	assert.True(t, chatDevLogHead([]byte(head+strings.Repeat("y", 1000))))
}

// BenchmarkChatDevLogHead tells whether big files of other formats begin
// as ChatDev's log.
func BenchmarkChatDevLogHead(b *testing.B) {
	for name, data := range chatDevOtherFiles(2000000) {
		b.Run(strings.ReplaceAll(name, " ", "-"), func(b *testing.B) {
			for b.Loop() {
				if chatDevLogHead(data) {
					b.Fatal("read as ChatDev's log")
				}
			}
		})
	}
}

// chatDevOtherFiles are files of other formats than ChatDev's log, of
// about n lines.
func chatDevOtherFiles(n int) map[string][]byte {
	return map[string][]byte{
		"JSON lines":           []byte(strings.Repeat(`{"a": [1, 2, "x"]}`+"\n", 3*n/2)),
		"a log of other lines": []byte(strings.Repeat("[2024-14-03 10:12:01 INFO]x\n", n)),
	}
}

// TestChatDevLogOfEmptyTurns: a ChatDev log whose every turn is its role
// prompt alone fails as such, not as JSON that does not parse.
func TestChatDevLogOfEmptyTurns(t *testing.T) {
	log := "[2024-14-03 10:12:01 INFO] **[Preprocessing]**\n\n**task_prompt**: Print the grades.\n\n" +
		"[2024-14-03 10:12:02 INFO] Chief Technology Officer: **[Start Chat]**\n\n[ChatDev is a software company.\nYou are Chief Technology Officer.]\n\n" +
		"[2024-14-03 10:12:09 INFO] Programmer: **[Start Chat]**\n\n[ChatDev is a software company.\nYou are Programmer.]\n"
	_, err := Parse("run.log", []byte(log), Options{})
	require.Error(t, err)
	assert.Contains(t, err.Error(), "ChatDev log: no turn says anything after its role prompt")
	assert.NotContains(t, err.Error(), "JSON")
}

// TestChatDevTurnOpeningWithBrackets: a turn's words that open with a
// bracketed phrase of their own keep it and all that follows; only a
// bracket that closes at the end of its paragraph is a role prompt.
func TestChatDevTurnOpeningWithBrackets(t *testing.T) {
	head := "[2024-14-03 10:12:01 INFO] **[Preprocessing]**\n\n**task_prompt**: Print the grades.\n\n" +
		"[2024-14-03 10:12:02 INFO] Chief Technology Officer: **[Start Chat]**\n\n[You are Chief Technology Officer.]\n\nWrite grading.py.\n\n"
	tests := []struct {
		name, turn, want string
	}{
		{
			name: "a bracketed phrase, a code block with a list after it",
			turn: "[Fixed] the band for an A in grading.py:\n\n```python\nBANDS = [90, 80]\n\ndef grade(s):\n    return \"A\" if s >= BANDS[0] else \"B\"\n```",
			want: "[Fixed] the band for an A in grading.py:\n\n```python\nBANDS = [90, 80]\n\ndef grade(s):\n    return \"A\" if s >= BANDS[0] else \"B\"\n```",
		},
		{
			name: "after the role prompt, with a bracket of its own",
			turn: "[You are Programmer.\nYou write [Python] code.]\n\n[Fixed] the band for an A.",
			want: "[Fixed] the band for an A.",
		},
		{
			name: "a role prompt whose bracket is never closed within it",
			turn: "[You are Programmer. Scores [0-100.]\n\nFixed the band for an A.",
			want: "Fixed the band for an A.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			log := head + "[2024-14-03 10:12:09 INFO] Programmer: **Programmer<->Chief Technology Officer on : Coding, turn 0**\n\n" + tt.turn + "\n"
			r, err := Parse("run.log", []byte(log), Options{})
			require.NoError(t, err)
			require.Len(t, r.Steps, 2)
			assert.Equal(t, tt.want, r.Steps[1].Content)
		})
	}
}
