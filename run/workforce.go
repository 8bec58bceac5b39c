package run

// CAMEL Workforce's logs, as its WorkforceLogger dumps them: a list of
// events, each {"timestamp", "event_type", …}: worker_created (its
// "worker_id" and "role", the description it was added with),
// task_created ("task_id", "description", "parent_task_id"),
// task_assigned and task_started ("task_id", "worker_id"),
// task_completed ("task_id", "worker_id", "result_summary") and
// task_failed ("task_id", "worker_id", "error_message").

import (
	"bytes"
	"strings"
)

// workforceLog reads data, a list of events, as a CAMEL Workforce's log,
// a case a run; ok is false when some element is no such event or none
// completes or fails a task. A task created with no parent is a run's
// task: a workforce that processed several tasks logs each with its
// subtasks, and each is a run, named by its task's id. Each subtask
// given to a worker is the user's instruction to it (the worker is asked
// it as a user's message), and what the worker returns is its message, a
// failure its error. A task's result given with no worker (the top
// task's, gathered from its subtasks) is no agent's turn and is passed
// over.
func workforceLog(data []byte) (cs []*Case, ok bool) {
	if !bytes.Contains(data, []byte(`"event_type"`)) {
		return nil, false
	}
	list, err := anyList(data, "")
	if err != nil || len(list) == 0 {
		return nil, false
	}
	events := make([]map[string]any, 0, len(list))
	done := false
	for _, e := range list {
		m, _ := e.(map[string]any)
		typ, _ := m["event_type"].(string)
		if typ == "" {
			return nil, false
		}
		if (typ == "task_completed" || typ == "task_failed") && stringOrEmpty(m["worker_id"]) != "" {
			done = true
		}
		events = append(events, m)
	}
	if !done {
		return nil, false
	}
	workers := map[string]string{} // worker id → agent name
	tasks := map[string]string{}   // task id → description
	given := map[string]bool{}     // task id → its instruction is a step
	var runs []*Run
	var names []string
	runOf := map[string]*Run{} // task id → the run of its top task
	// current is the run a task no creation names is told in: the last
	// begun.
	current := func() *Run {
		if len(runs) == 0 {
			runs, names = append(runs, &Run{Format: FormatTranscript}), append(names, "")
		}
		return runs[len(runs)-1]
	}
	add := func(task, agent, role string, kind Kind, text string) {
		r := runOf[task]
		if r == nil {
			r = current()
		}
		if text = strings.TrimSpace(text); text != "" {
			r.Steps = append(r.Steps, Step{Index: len(r.Steps), Agent: agent, Role: role, Kind: kind, Content: text})
		}
	}
	agentOf := func(id string) string {
		if name := workers[id]; name != "" {
			return name
		}
		return id
	}
	for _, m := range events {
		task := stringOrEmpty(m["task_id"])
		worker := strings.TrimSpace(stringOrEmpty(m["worker_id"]))
		switch m["event_type"] {
		case "worker_created":
			workers[worker] = workerName(worker, stringOrEmpty(m["role"]))
		case "task_created":
			desc := strings.TrimSpace(stringOrEmpty(m["description"]))
			tasks[task] = desc
			parent := stringOrEmpty(m["parent_task_id"])
			switch {
			case parent != "":
				if r := runOf[parent]; r != nil {
					runOf[task] = r
				}
			case desc != "" && runOf[task] == nil:
				r := &Run{Format: FormatTranscript, Question: desc}
				if len(runs) == 1 && len(runs[0].Steps) == 0 {
					runs[0] = r // the run begun by events before its task's
				} else {
					runs, names = append(runs, r), append(names, "")
				}
				names[len(names)-1] = strings.TrimSpace(task)
				runOf[task] = r
				add(task, "user", "user", KindUser, desc)
				given[task] = true
			}
		case "task_assigned", "task_started":
			if worker != "" && !given[task] {
				given[task] = true
				add(task, "user", "user", KindMessage, tasks[task])
			}
		case "task_completed":
			if worker != "" {
				add(task, agentOf(worker), "assistant", KindMessage, stringOrEmpty(m["result_summary"]))
			}
		case "task_failed":
			if worker != "" {
				if msg := strings.TrimSpace(stringOrEmpty(m["error_message"])); msg != "" {
					add(task, agentOf(worker), "assistant", KindMessage, errorText(msg))
				}
			}
		}
	}
	var kept []string
	for i, r := range runs {
		if len(r.Steps) > 0 {
			cs, kept = append(cs, &Case{Run: r}), append(kept, names[i])
		}
	}
	if len(cs) == 0 {
		return nil, false
	}
	if len(cs) > 1 {
		for i, n := range recordNames(kept) {
			cs[i].Run.TraceID = n
		}
	}
	return cs, true
}

// workerName is the agent a worker is: the name its description begins
// with ("Researcher: finds figures" is Researcher), else a short
// description itself, else its id.
func workerName(id, role string) string {
	role = strings.TrimSpace(role)
	if head, _, ok := strings.Cut(role, ":"); ok && head != "" && len(strings.Fields(head)) <= 4 {
		return strings.TrimSpace(head)
	}
	if role != "" && len(strings.Fields(role)) <= 4 {
		return role
	}
	return id
}
