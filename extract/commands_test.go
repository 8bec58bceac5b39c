package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestConsequentialCommands: a shell or an editor exposed as a tool is
// named for no verb; what it does is the command it is given. Shapes:
// Claude Code's Bash and Codex CLI's exec_command and shell (testdata/
// traces), SWE-agent's str_replace_editor.
func TestConsequentialCommands(t *testing.T) {
	tests := []struct {
		name, tool, args string
		consequential    bool
	}{
		{"a search", "Bash", `{"command": "grep -rn 'def parse' .", "description": "Find it"}`, false},
		{"a test run after cd", "exec_command", `{"cmd": "cd /repo && python -m pytest -q tests/test_parser.py"}`, false},
		{"a listing piped", "bash", `{"command": "git diff | head -50"}`, false},
		{"a command as a list of words", "shell", `{"command": ["bash", "-lc", "cat -n src/app.py"]}`, false},
		{"an editor's view", "str_replace_editor", `{"command": "view", "path": "/repo/a.py"}`, false},
		{"an editor's replacement", "str_replace_editor", `{"command": "str_replace", "path": "/repo/a.py", "old_str": "a", "new_str": "b"}`, true},
		{"a test run with its errors joined", "exec_command", `{"cmd": "pytest -q 2>&1 | tail -20"}`, false},
		{"a read written to a file", "Bash", `{"command": "cat a.py > b.py"}`, true},
		{"an edit in place", "Bash", `{"command": "sed -i 's/1/60/' durations/parser.py"}`, true},
		{"a read, then an install", "exec_command", `{"cmd": "cat requirements.txt && pip install -r requirements.txt"}`, true},
		{"a script", "bash", `{"command": "python fix.py"}`, true},
		{"a linter", "Bash", `{"command": "flake8 textkit/slug.py", "description": "Lint the module"}`, false},
		{"a tool that acts, no command", "cancel_reservation", `{"reservation_id": "AIXC49"}`, true},
		{"a tool that reads, no command", "get_order", `{"order_id": "#W1"}`, false},
		{"a tool that gives the final answer", "final_result", `{"comment": "Done."}`, false},
		{"a tool that submits an answer", "submit_answer", `{"answer": "42"}`, false},
		{"a find that deletes what it finds", "Bash", `{"command": "find build -name '*.pyc' -delete"}`, true},
		{"a find that runs a command on each file", "bash", `{"command": "find . -name '*.orig' -exec rm {} \\;"}`, true},
		{"a find that lists", "bash", `{"command": "find src -name '*.py' -newer setup.py"}`, false},
		{"a script run under env", "Bash", `{"command": "env PYTHONPATH=src python scripts/migrate.py"}`, true},
		{"the environment printed", "Bash", `{"command": "env | grep PATH"}`, false},
		{"a branch deleted", "exec_command", `{"cmd": "git branch -D feature/old-parser"}`, true},
		{"the branches listed", "exec_command", `{"cmd": "git branch -a"}`, false},
		{"a command substituted into a read", "bash", `{"command": "cat $(python gen_config.py)"}`, true},
		{"sed -n editing in place", "bash", `{"command": "sed -n -i '1,20p' src/app.py"}`, true},
		{"a tool that answers by acting", "answer_customer_email", `{"ticket_id": "T-1182", "body": "Your refund was issued."}`, true},
		{"a tool that provides the final answer", "provide_final_answer", `{"answer": "42"}`, false},
		{"a tool named for the answer alone", "FinalAnswerTool", `{"answer": "42"}`, false},
		{"a search named for its source", "web_search", `{"query": "Danube length km"}`, false},
		{"a lookup named for its source", "WikipediaLookup", `{"title": "Danube"}`, false},
		{"a search saved", "save_search", `{"query": "Danube"}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := run.Step{Agent: "assistant", Kind: run.KindToolCall, Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: tt.tool, Arguments: tt.args}}}}
			cs := calls(s, newText(""))
			if assert.Len(t, cs, 1) {
				assert.Equal(t, tt.consequential, cs[0].Consequential())
			}
		})
	}
}
