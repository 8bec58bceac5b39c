package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// Failure words that name what the task asks about ("failed password
// attempts") are no report of a failure, in an agent's words or a log's
// lines; the same words beside another noun, or a task that names no such
// thing, still report one.
func TestTaskSubjectFailures(t *testing.T) {
	tests := []struct {
		name, task, text string
		failure          bool
	}{
		{"the task's phrase", "Count the failed password attempts in auth.log.", "There are 1473 failed password attempts.", false},
		{"one word left out", "Count the failed password attempts in auth.log.", "Let me see what the failed attempts look like.", false},
		{"a log line", "Count the failed password attempts in auth.log.", "Mar 12 02:14:07 web01 sshd[20411]: Failed password for root", false},
		{"another failure", "Count the failed password attempts in auth.log.", "The download failed with a timeout.", true},
		{"a task without the phrase", "Count the login attempts in auth.log.", "The command failed to run.", true},
		{"a function named like a failure", "timeout() crashes when APP_TIMEOUT is set in lower case.", "Fall back to the default timeout when the key is missing.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Question: tt.task, Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: tt.task},
				{Index: 1, Agent: "assistant", Kind: run.KindMessage, Content: tt.text},
			}}
			f := Run(r).Steps[1]
			failed := f.FailureWords != nil
			for _, s := range f.Errors {
				failed = failed || s.Kind == "failure"
			}
			assert.Equal(t, tt.failure, failed)
		})
	}
}
