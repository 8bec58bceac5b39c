package run

// MetaGPT's console log, as a run of `metagpt "IDEA"` prints it (and
// logs/log.txt keeps its records): loguru records, `TIME | LEVEL |
// module:function:line - message`, from MetaGPT's modules, with what the
// roles' models stream between them. A record `NAME(PROFILE): to do
// ACTION(ACTION)` (or `ready to ACTION`) begins a role's action; what
// follows it up to the next such record is that action's output.
// MetaGPT appends every run to its log file (logs/log.txt, or a day's
// logs/YYYYMMDD.txt): a run begins with the record of what its team is
// given to spend (Team.invest).

import (
	"encoding/json"
	"regexp"
	"strings"
)

// metaGPTRecord is one loguru record of MetaGPT's: its time, level and
// module, then its message.
var metaGPTRecord = regexp.MustCompile(`^(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?) \| [A-Z]+ *\| (metagpt[\w.]*):[\w<>]+:\d+ - (.*)$`)

// metaGPTRunStart begins the message of the record that begins a run, its
// team's investment, logged by the module metagpt.team.
const metaGPTRunStart = "Investment: "

// metaGPTAction is a record's message when it begins a role's action: the
// role as MetaGPT names it ("Alice(Product Manager)") and the action.
var metaGPTAction = regexp.MustCompile(`^([^():]+\([^()]+\)): (?:to do|ready to) (\w+)`)

// metaGPTCost is a record of what the models' calls cost so far: no
// role's output.
var metaGPTCost = regexp.MustCompile(`^Total running cost: `)

// metaGPTLogHead reports whether head, a file's first bytes, begins as
// MetaGPT's console log: its first line is a record of MetaGPT's.
func metaGPTLogHead(head []byte) bool {
	line, _, _ := strings.Cut(string(head), "\n")
	return metaGPTRecord.MatchString(strings.TrimRight(line, "\r"))
}

// metaGPTLog reads data as MetaGPT's console log, a case a run; ok is
// false when it is none: it must begin with a record and hold a role's
// action. Each action is a step of its role, its text what the role's
// model wrote and the records logged until the next action (the files
// it saved and wrote); what comes before a run's first action is the
// team's setting up. The idea a run was given is its task: a PRD's
// "Original Requirements", as the product manager writes the idea into
// it. Of several runs, each is named by the time it began.
func metaGPTLog(data []byte) (cs []*Case, ok bool) {
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	if len(lines) == 0 || !metaGPTRecord.MatchString(lines[0]) {
		return nil, false
	}
	r := &Run{Format: FormatTranscript}
	var names []string
	name := ""
	var agent string
	var text []string
	flush := func() {
		if agent != "" {
			if t := strings.TrimSpace(strings.Join(text, "\n")); t != "" {
				r.Steps = append(r.Steps, Step{Index: len(r.Steps), Agent: agent, Role: "assistant", Kind: KindMessage, Content: t})
			}
		}
		text = nil
	}
	finish := func() {
		flush()
		agent = ""
		if len(r.Steps) == 0 {
			return
		}
		for _, s := range r.Steps {
			if q := metaGPTIdea(s.Content); q != "" {
				r.Question = q
				break
			}
		}
		cs, names = append(cs, &Case{Run: r}), append(names, name)
		r = &Run{Format: FormatTranscript}
	}
	for _, line := range lines {
		m := metaGPTRecord.FindStringSubmatch(line)
		if m == nil {
			text = append(text, line)
			continue
		}
		if m[2] == "metagpt.team" && strings.HasPrefix(m[3], metaGPTRunStart) {
			finish()
			name = m[1]
			continue
		}
		if a := metaGPTAction.FindStringSubmatch(m[3]); a != nil {
			flush()
			agent = strings.TrimSpace(a[1])
			text = []string{m[3]}
			continue
		}
		if !metaGPTCost.MatchString(m[3]) {
			text = append(text, m[3])
		}
	}
	finish()
	if len(cs) == 0 {
		return nil, false
	}
	if len(cs) > 1 {
		for i, n := range recordNames(names) {
			cs[i].Run.TraceID = n
		}
	}
	return cs, true
}

// metaGPTIdea is the "Original Requirements" of the document an action's
// text holds between [CONTENT] and [/CONTENT]; empty when it holds none.
func metaGPTIdea(text string) string {
	_, rest, ok := strings.Cut(text, "[CONTENT]")
	if !ok {
		return ""
	}
	body, _, ok := strings.Cut(rest, "[/CONTENT]")
	if !ok {
		return ""
	}
	var doc map[string]json.RawMessage
	if json.Unmarshal([]byte(body), &doc) != nil {
		return ""
	}
	var idea string
	if json.Unmarshal(doc["Original Requirements"], &idea) != nil {
		return ""
	}
	return strings.TrimSpace(idea)
}
