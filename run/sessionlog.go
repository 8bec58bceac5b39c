package run

// Coding agents' session logs: the JSONL files a coding agent writes of
// its own session, one record a line (Claude Code's in claudecode.go,
// Codex CLI's in codex.go), and aider's Markdown chat history (aider.go).
// Each file is one run.

import (
	"bytes"
	"encoding/json"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// logRecord is a session log's record as far as telling the formats apart
// needs: its type, and the field that holds what it says.
type logRecord struct {
	Type    string          `json:"type"`
	UUID    string          `json:"uuid"`
	Message json.RawMessage `json:"message"`
	Payload json.RawMessage `json:"payload"`
}

// codexRecordTypes are the record types of a Codex CLI rollout.
var codexRecordTypes = map[string]bool{"session_meta": true, "response_item": true, "event_msg": true, "turn_context": true, "compacted": true}

// sniffRecords is how many records of a file are looked at to tell whether
// it is a session log: both formats start with records of what the
// session set up before its first message.
const sniffRecords = 64

// sessionLogFormat returns the session log format whose records data
// holds, or "". data is JSON lines of objects: a record of Claude Code
// is a "user" or "assistant" record with a "message" and a "uuid"; one of
// Codex CLI has a type of its rollouts and a "payload" object.
func sessionLogFormat(data []byte) Format {
	if aiderFormat(data) {
		return FormatAider
	}
	if len(data) == 0 || data[0] != '{' {
		return ""
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	for range sniffRecords {
		var r logRecord
		if err := dec.Decode(&r); err != nil {
			return ""
		}
		switch {
		case (r.Type == "user" || r.Type == "assistant") && r.UUID != "" && isObject(r.Message) && !geminiContentRecord(r.Message):
			return FormatClaudeCode
		case codexRecordTypes[r.Type] && isObject(r.Payload):
			return FormatCodex
		}
	}
	return ""
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{'
}

// stringOrNull decodes raw when it is a JSON string or null (or
// absent), and reports whether it was: the content of a message and the
// output of a tool that both session logs write as text or as blocks.
func stringOrNull(raw json.RawMessage) (string, bool, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", true, nil
	}
	if raw[0] != '"' {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", true, jsonError(raw, err)
	}
	return s, true, nil
}

// errorText marks a tool's output that reports a failure as an error, as
// the trace readers mark one: "Error: " in front, unless it says so.
func errorText(text string) string {
	if strings.HasPrefix(strings.TrimSpace(text), "Error") {
		return text
	}
	return "Error: " + text
}

// compactJSON is raw as compact JSON text, as a call's arguments are
// shown; raw as it is when it does not compact.
func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// exitCodeLine matches the line in which a coding agent's shell tool
// reports the command's exit code in its output to the model.
var exitCodeLine = regexp.MustCompile(`(?m)^(?:Process exited with code|Exit code:?) (-?\d+)\s*$`)

// failedExit reports whether a shell tool's output says its command
// exited with a code other than 0.
func failedExit(text string) bool {
	m := exitCodeLine.FindStringSubmatch(text)
	if m == nil {
		return false
	}
	code, err := strconv.Atoi(m[1])
	return err == nil && code != 0
}

// errNotSessionLog is the error of a file named as a session log that holds
// none of its records.
var errNotSessionLog = errors.New("no record of a session")

// timedSteps are the steps of a sub-agent that ran beside its caller,
// started after the caller's step after, each with the time it was
// written (zero where unknown).
type timedSteps struct {
	after  int
	steps  []Step
	stamps []time.Time
}

// layByTime lays each group's steps among steps (written at stamps), in
// order, each before the first later step of steps written after it, or,
// where either has no time, after the steps before. It returns the steps
// and their times.
func layByTime(steps []Step, stamps []time.Time, groups []timedSteps) ([]Step, []time.Time) {
	for g := len(groups) - 1; g >= 0; g-- { // the last first: the earlier groups' positions hold
		bg := groups[g]
		out, outStamps := steps[:bg.after+1:bg.after+1], stamps[:bg.after+1:bg.after+1]
		rest, restStamps := steps[bg.after+1:], stamps[bg.after+1:]
		for i, st := range bg.steps {
			for len(rest) > 0 && !restStamps[0].IsZero() && !bg.stamps[i].IsZero() && !restStamps[0].After(bg.stamps[i]) {
				out, outStamps = append(out, rest[0]), append(outStamps, restStamps[0])
				rest, restStamps = rest[1:], restStamps[1:]
			}
			out, outStamps = append(out, st), append(outStamps, bg.stamps[i])
		}
		steps, stamps = append(out, rest...), append(outStamps, restStamps...)
	}
	return steps, stamps
}
