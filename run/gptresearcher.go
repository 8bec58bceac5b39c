package run

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// GPT Researcher's agents, as its skills name them: the conductor that
// plans the research and runs each sub-query, and the generator that
// writes the report.
const (
	gptrConductor = "ResearchConductor"
	gptrReport    = "ReportGenerator"
	gptrSearch    = "research_subquery"
)

// gptrEvent is one log event of GPT Researcher's JSON log: its data as
// the researcher streamed it ({"type": "logs", "content": what
// happened, "output": the line it printed, "metadata"}).
type gptrEvent struct {
	Type string `json:"type"`
	Data struct {
		Type     string `json:"type"`
		Content  string `json:"content"`
		Output   string `json:"output"`
		Metadata any    `json:"metadata"`
	} `json:"data"`
}

// gptrLog is the JSON log GPT Researcher's server writes for a task
// (outputs/task_….json): its events and the content it gathered, the
// query and the report among it.
type gptrLog struct {
	Events  []gptrEvent `json:"events"`
	Content *struct {
		Query  string `json:"query"`
		Report string `json:"report"`
	} `json:"content"`
}

// gptResearcherLog reads GPT Researcher's JSON log of a task as its
// agents' messages: the query is the user's; the sub-queries the
// conductor plans are its message (the metadata's list, else the line
// it printed); each sub-query it runs is its call, and the context it
// found for it (subquery_context_window) the call's result; the report
// is the generator's message. The other events (sources added, pages
// scraped, costs) say how, not what, and are passed over. ok is false
// when data is no such log.
func gptResearcherLog(data []byte) ([]dumpMessage, bool) {
	trimmed := bytes.TrimSpace(data)
	if !bytes.Contains(trimmed, []byte(`"events"`)) || !bytes.Contains(trimmed, []byte(`"content"`)) {
		return nil, false
	}
	var l gptrLog
	if json.Unmarshal(trimmed, &l) != nil || l.Content == nil || len(l.Events) == 0 {
		return nil, false
	}
	for _, e := range l.Events {
		if e.Type != "event" || e.Data.Type != "logs" || e.Data.Content == "" {
			return nil, false
		}
	}
	var out []dumpMessage
	if q := strings.TrimSpace(l.Content.Query); q != "" {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: q}})
	}
	calls, open := 0, ""
	for _, e := range l.Events {
		switch e.Data.Content {
		case "subqueries":
			text := strings.TrimSpace(e.Data.Output)
			if list, ok := e.Data.Metadata.([]any); ok && len(list) > 0 {
				lines := make([]string, 0, len(list))
				for i, q := range list {
					lines = append(lines, strconv.Itoa(i+1)+". "+textOf(q))
				}
				text = "Sub-queries:\n" + strings.Join(lines, "\n")
			}
			if text != "" {
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: gptrConductor, Text: text}})
			}
		case "running_subquery_research":
			q := gptrQuoted(e.Data.Output)
			if q == "" {
				continue
			}
			calls++
			open = "gptr-subquery-" + strconv.Itoa(calls)
			args, _ := json.Marshal(map[string]string{"query": q})
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: gptrConductor, Calls: []ToolCall{{ID: open, Name: gptrSearch, Arguments: string(args)}}}})
		case "subquery_context_window":
			if open == "" {
				continue
			}
			text := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(e.Data.Output), "📃"))
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: open, Text: text}})
			open = ""
		}
	}
	if r := strings.TrimSpace(l.Content.Report); r != "" {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: gptrReport, Text: r}})
	}
	return out, len(out) > 0
}

// gptrQuoted is the sub-query a "Running research for '…'..." line
// names: the text between its first and last single quote.
func gptrQuoted(line string) string {
	i, j := strings.Index(line, "'"), strings.LastIndex(line, "'")
	if i < 0 || j <= i {
		return ""
	}
	return strings.TrimSpace(line[i+1 : j])
}
