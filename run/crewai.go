package run

import (
	"encoding/json"
	"regexp"
	"strings"
)

// CrewAI's task log, the file a crew's output_log_file names: for each
// task a record when an agent starts it and one when it completes it,
// {"timestamp", "task_name", "task", "agent", "status", "output"}, as a
// JSON list (a file named .json) or one line each,
// `2025-05-28 10:00:01: task_name="…", task="…", agent="…", status="…"`.

// crewRecord is one record of a CrewAI task log.
type crewRecord struct {
	Task   string `json:"task"`
	Agent  string `json:"agent"`
	Status string `json:"status"`
	Output string `json:"output"`
}

// crewLine is a line of a CrewAI task log in text: the time, then its
// fields as key="value" pairs.
var crewLine = regexp.MustCompile(`^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d: ((?s:.*))$`)

// crewField is one key="value" pair of such a line; a value runs to the
// quote before the next pair or the line's end.
var crewField = regexp.MustCompile(`(task_name|task|agent|status|output)="((?s:.*?))"(?:, |$)`)

// crewAILogHead reports whether head, a file's first bytes, begins as a
// CrewAI task log in text: a time, then a task's field (the line may be
// cut short of its agent by head's end, as a long task's is).
func crewAILogHead(head []byte) bool {
	line, _, _ := strings.Cut(string(head), "\n")
	m := crewLine.FindStringSubmatch(strings.TrimSpace(line))
	return m != nil && crewFirstField.MatchString(m[1])
}

// crewFirstField begins a CrewAI task log line's fields.
var crewFirstField = regexp.MustCompile(`^(?:task_name|task)="`)

// crewAILog reads data as a CrewAI task log; ok is false when it is none:
// every record must name an agent, a status and a task. The first task is
// the run's task; each task given is the user's instruction to the agent
// that takes it, and each completed task's output is that agent's
// message.
func crewAILog(data []byte) (c *Case, ok bool) {
	var recs []crewRecord
	if t := strings.TrimSpace(string(data)); strings.HasPrefix(t, "[") {
		if json.Unmarshal(data, &recs) != nil {
			return nil, false
		}
	} else {
		// A record's output may run over several lines: a line that does
		// not start with a time goes on the record before it.
		var lines []string
		for _, line := range strings.Split(strings.ReplaceAll(t, "\r\n", "\n"), "\n") {
			switch {
			case crewLine.MatchString(line):
				lines = append(lines, line)
			case len(lines) == 0:
				return nil, false
			default:
				lines[len(lines)-1] += "\n" + line
			}
		}
		for _, line := range lines {
			m := crewLine.FindStringSubmatch(strings.TrimSpace(line))
			if m == nil {
				return nil, false
			}
			var r crewRecord
			for _, f := range crewField.FindAllStringSubmatch(m[1], -1) {
				switch f[1] {
				case "task":
					r.Task = f[2]
				case "agent":
					r.Agent = f[2]
				case "status":
					r.Status = f[2]
				case "output":
					r.Output = f[2]
				}
			}
			recs = append(recs, r)
		}
	}
	if len(recs) == 0 {
		return nil, false
	}
	r := &Run{Format: FormatTranscript}
	for _, rec := range recs {
		if strings.TrimSpace(rec.Agent) == "" || strings.TrimSpace(rec.Status) == "" || strings.TrimSpace(rec.Task) == "" {
			return nil, false
		}
		s := Step{Index: len(r.Steps)}
		switch {
		case rec.Status == "started":
			s.Agent, s.Role, s.Kind, s.Content = "user", "user", KindMessage, strings.TrimSpace(rec.Task)
			if r.Question == "" {
				s.Kind, r.Question = KindUser, s.Content
			}
		case strings.TrimSpace(rec.Output) != "":
			s.Agent, s.Role, s.Kind, s.Content = strings.TrimSpace(rec.Agent), "assistant", KindMessage, strings.TrimSpace(rec.Output)
		default:
			continue
		}
		r.Steps = append(r.Steps, s)
	}
	return &Case{Run: r}, true
}
