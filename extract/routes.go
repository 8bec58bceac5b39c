package extract

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/offattr/offattr/run"
)

// Misroute is a handoff of the request to an agent that the router's
// instructions describe otherwise than the task: the clause of the
// instructions that names the receiver shares no word with the task, and
// another clause, naming another destination, does.
type Misroute struct {
	// Step is the router's step that chose the receiver: its transfer
	// call, or the message that names the receiver.
	Step int `json:"step"`
	// To is the receiver, as the run names it.
	To string `json:"to"`
	// Receiver is the clause of the instructions that describes the
	// receiver; Other the clause that shares Shared with the task.
	Receiver string   `json:"receiver,omitempty"`
	Other    string   `json:"other,omitempty"`
	Shared   []string `json:"shared,omitempty"`
	// Refused is, for a receiver that says it cannot take the action the
	// task asks for ("I can't issue refunds"), that action as it wrote it,
	// and RefusedAt its step: what it was handed is not its job.
	Refused   string `json:"refused,omitempty"`
	RefusedAt int    `json:"refused_at,omitempty"`
}

// routeWords are the words a routing instruction writes of any
// destination: they describe none.
var routeWords = toSet(`route routes routing hand hands handoff handoffs transfer transfers send sends forward delegate
agent agents question questions request requests task tasks issue issues problem problems query queries matter matters
handle handles help ask asks user users customer customers about any all other everything anything something else only
has have had not been into via`)

// misroute returns the handoff of the request to an agent that has not
// spoken before, in a run whose agents hand the request to one such agent
// alone (a router's choice, not an orchestrator's split of the work),
// when the agent's description in the system instructions before it (the
// run's, and any system step) shares no word with the task while another
// destination's does, or, with no such description, when the receiver's
// first words after it say it cannot take the action the task asks for;
// nil for none. What a description covers is read by
// shared words alone: a receiver described in other words than the
// task's is no misroute here, and an agent's name is no description.
func misroute(r *run.Run, rf *RunFeatures) *Misroute {
	task := routeTokens(r.Question)
	if len(task) == 0 {
		return nil
	}
	agents := map[string]bool{}
	for _, s := range r.Steps {
		if s.Kind != run.KindUser && s.Kind != run.KindSystem && s.Kind != run.KindToolResult {
			agents[run.AgentKey(s.Agent)] = true
		}
	}
	spoke := map[string]bool{}
	instructions := []string{r.Instructions}
	var found, refusal *Misroute
	handed := ""
	for i, s := range r.Steps {
		if s.Kind == run.KindSystem && handed == "" {
			instructions = append(instructions, s.Content)
		}
		to := s.Target()
		if to == "" {
			to = transferredTo(r.Steps, i)
		}
		key := run.AgentKey(to)
		if to != "" && s.Kind != run.KindUser && s.Kind != run.KindSystem && !spoke[key] && !run.SameAgent(to, s.Agent) && actsLater(r.Steps[i+1:], to) {
			switch {
			case handed == "":
				handed = key
				if found = misrouted(instructions, task, idLabels(r.Question), to, agents); found != nil {
					found.Step = choosingStep(r.Steps, i, s.Agent, key)
				} else if j, act := refusedTask(r, rf, i, to); j >= 0 {
					refusal = &Misroute{Step: choosingStep(r.Steps, i, s.Agent, key), To: to, Refused: act, RefusedAt: j}
				}
			case handed != key:
				return nil // the work is split among agents
			}
		}
		spoke[run.AgentKey(s.Agent)] = true
	}
	if found == nil {
		return refusal
	}
	return found
}

// refusedTask returns the first message of to after the handoff at step
// i, when it comes before any other agent speaks and says an action
// cannot be taken that the task's words ask for (a form of one of them),
// with that action; -1 when there is none.
func refusedTask(r *run.Run, rf *RunFeatures, i int, to string) (int, string) {
	asked := strings.FieldsFunc(strings.ToLower(r.Question), notNamePart)
	for j := i + 1; j < len(r.Steps); j++ {
		s := r.Steps[j]
		if s.Kind == run.KindToolResult {
			continue
		}
		if !run.SameAgent(s.Agent, to) {
			return -1, ""
		}
		if s.Kind != run.KindMessage {
			continue
		}
		for _, v := range rf.Steps[j].Refused {
			forms := append(VerbForms(v), v)
			if slices.ContainsFunc(asked, func(w string) bool { return SameStem(w, v) || slices.Contains(forms, w) }) {
				return j, v
			}
		}
		return -1, ""
	}
	return -1, ""
}

// transferredTo returns, for a tool call that hands control over as a
// Swarm's function returning an agent does, the agent who speaks next,
// when the call's results or its name name that agent; "" otherwise.
func transferredTo(steps []run.Step, i int) string {
	if steps[i].Kind != run.KindToolCall || len(steps[i].ToolCalls()) == 0 {
		return ""
	}
	var named strings.Builder
	for _, c := range steps[i].ToolCalls() {
		named.WriteString(run.AgentKey(c.Name))
	}
	j := i + 1
	for ; j < len(steps) && steps[j].Kind == run.KindToolResult; j++ {
		named.WriteString(run.AgentKey(steps[j].Content))
	}
	if j == i+1 || j == len(steps) || run.SameAgent(steps[j].Agent, steps[i].Agent) || steps[j].Kind == run.KindUser {
		return ""
	}
	if key := run.AgentKey(steps[j].Agent); key != "" && strings.Contains(named.String(), key) {
		return steps[j].Agent
	}
	return ""
}

// actsLater reports whether agent speaks in steps.
func actsLater(steps []run.Step, agent string) bool {
	for _, s := range steps {
		if run.SameAgent(s.Agent, agent) {
			return true
		}
	}
	return false
}

// choosingStep walks back from the step i that hands over to the earliest
// step of the same turn of its agent that is part of the handoff: a
// transfer call naming the receiver (in its name, or as one of its
// arguments, as a framework's one transfer tool takes it), its result, a
// handoff event.
func choosingStep(steps []run.Step, i int, agent, key string) int {
walk:
	for j := i - 1; j >= 0 && run.SameAgent(steps[j].Agent, agent); j-- {
		switch steps[j].Kind {
		case run.KindToolResult, run.KindHandoff:
			continue
		case run.KindToolCall:
			for _, c := range steps[j].ToolCalls() {
				if strings.Contains(run.AgentKey(c.Name), key) || argumentNames(c, key) {
					i = j
				}
			}
		}
		break walk
	}
	return i
}

// misrouted reads the instructions' clauses: the one naming to, and the
// others naming another destination. The words of a clause leave out the
// names of the run's agents. A word two destinations' clauses write
// tells neither apart, and a task's word that only labels the thing it
// asks about by its id ("order #123", "parcel PX-77412") is one any
// destination may be handed: alone, it decides no misroute.
func misrouted(instructions []string, task, labels map[string]string, to string, agents map[string]bool) *Misroute {
	key := run.AgentKey(to)
	var receiver string
	var described map[string]string
	type clause struct {
		text  string
		words map[string]string
	}
	var others []clause
	for _, text := range instructions {
		for _, c := range routeClauses(text, func(c string) bool { names, dest := namesIn(c, key, agents); return names || dest }) {
			names, dest := namesIn(c, key, agents)
			switch {
			case names && receiver == "":
				receiver, described = c, clauseWords(c, agents)
			case !names && dest:
				others = append(others, clause{c, clauseWords(c, agents)})
			}
		}
	}
	if len(described) == 0 {
		return nil
	}
	clauses := map[string]int{} // how many other destinations' clauses write each word
	for _, o := range others {
		for w := range o.words {
			clauses[w]++
		}
	}
	// A task's word the receiver's clause writes speaks for the receiver,
	// unless another destination's clause writes it too: then it tells
	// none of them apart ("search and book" of every desk).
	for w := range described {
		if _, ok := task[w]; ok && clauses[w] == 0 {
			return nil
		}
	}
	for _, o := range others {
		var shared []string
		labelOnly := false
		for w := range o.words {
			_, receiverToo := described[w]
			if written, ok := task[w]; ok && clauses[w] == 1 && !receiverToo {
				shared = append(shared, written)
				_, labelOnly = labels[w]
			}
		}
		if len(shared) == 1 && labelOnly {
			continue
		}
		if len(shared) > 0 {
			slices.Sort(shared)
			return &Misroute{To: to, Receiver: receiver, Other: o.text, Shared: shared}
		}
	}
	return nil
}

// idLabels returns the content words (routeTokens) a text writes just
// before an identifier, a token holding a digit: "order" of "order #123".
func idLabels(text string) map[string]string {
	out := map[string]string{}
	fields := strings.Fields(text)
	for i := 0; i+1 < len(fields); i++ {
		if strings.ContainsAny(fields[i+1], "0123456789") {
			maps.Copy(out, routeTokens(fields[i]))
		}
	}
	return out
}

// clauseWords returns the content words of clause but for the names of
// agents.
func clauseWords(clause string, agents map[string]bool) map[string]string {
	out := map[string]string{}
	for _, w := range strings.FieldsFunc(clause, notNamePart) {
		if !agents[run.AgentKey(w)] {
			maps.Copy(out, routeTokens(w))
		}
	}
	return out
}

// namesIn reports whether clause names the agent of key (its words run
// together as AgentKey reads them, so that a name of several words, or a
// transfer tool's that holds it, counts), and whether it names a
// destination of another name: another of the run's agents, or a word
// written as an identifier (joined by "_" or "-"), as handoff targets are.
func namesIn(clause, key string, agents map[string]bool) (names, dest bool) {
	all := run.AgentKey(clause)
	names = strings.Contains(all, key)
	for a := range agents {
		if a != "" && a != key && !strings.Contains(key, a) && strings.Contains(all, a) {
			dest = true
		}
	}
	for _, w := range strings.FieldsFunc(clause, notNamePart) {
		if run.AgentKey(w) != key && strings.ContainsAny(strings.Trim(w, "_-"), "_-") {
			dest = true
		}
	}
	return names, dest
}

func notNamePart(r rune) bool {
	return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_' && r != '-'
}

// routeClauses splits an instruction into the clauses a routing rule is
// written in: sentences, and their parts joined by commas or "and", a part
// that names no destination (hasDest) joined to the next part that does
// ("billing, invoice and payment questions to …"), or, at the sentence's
// end, to the one before. Each part is asked of once, so that a long
// sentence of many parts (a catalogue in a prompt) is read in one pass.
func routeClauses(text string, hasDest func(string) bool) []string {
	var out []string
	for _, sentence := range strings.FieldsFunc(text, func(r rune) bool { return r == '.' || r == ';' || r == '\n' }) {
		first, from := len(out), 0
		cuts := clauseCuts(sentence)
		for k, end := range cuts {
			start := 0
			if k > 0 {
				start = cuts[k-1]
			}
			if hasDest(sentence[start:end]) {
				out = append(out, strings.Trim(sentence[from:end], " ,"))
				from = end
			}
		}
		switch pending := strings.Trim(sentence[from:], " ,"); {
		case pending == "":
		case len(out) > first:
			out[len(out)-1] += " " + pending
		default:
			out = append(out, pending)
		}
	}
	return out
}

// clauseCuts returns the ends of a sentence's parts: before each comma
// and each " and ", and the sentence's end. A comma or an "and" within
// brackets lists what one part says of its destination ("storage_agent
// (disks, volumes, snapshots)"): no part ends there.
func clauseCuts(sentence string) []int {
	var cuts []int
	depth := 0
	for i := 0; i < len(sentence); i++ {
		switch {
		case sentence[i] == '(' || sentence[i] == '[':
			depth++
		case (sentence[i] == ')' || sentence[i] == ']') && depth > 0:
			depth--
		case depth > 0:
		case sentence[i] == ',' && i > 0:
			cuts = append(cuts, i)
		case strings.HasPrefix(sentence[i:], " and ") && i > 0:
			cuts = append(cuts, i)
			i += len(" and ") - 1
		}
	}
	return append(cuts, len(sentence))
}

// routeTokens returns the content words of text by their stems (Stem),
// each with the word as text first writes it in lower case: words of three
// letters or more that are neither common words nor words of routing (in
// any of their forms); an identifier's parts are words of their own.
// Words are told apart by their stems, so that a task's "shipped" is a
// word of an instruction's "shipping".
func routeTokens(text string) map[string]string {
	out := map[string]string{}
	for _, w := range strings.FieldsFunc(strings.ToLower(text), func(r rune) bool { return !unicode.IsLetter(r) }) {
		plain := w
		if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") && !strings.HasSuffix(w, "us") && !strings.HasSuffix(w, "is") {
			plain = w[:len(w)-1]
		}
		stem := Stem(w)
		if len(plain) < 3 || commonWords[plain] || routeWords[plain] || routeWords[plain+"s"] || commonWords[stem] || routeWords[stem] {
			continue
		}
		if _, seen := out[stem]; !seen {
			out[stem] = w
		}
	}
	return out
}

// argumentNames reports whether one of c's arguments is the name of the
// agent whose key is key.
func argumentNames(c run.ToolCall, key string) bool {
	var args map[string]any
	if json.Unmarshal([]byte(c.Arguments), &args) != nil {
		return false
	}
	for _, v := range args {
		if name, ok := v.(string); ok && run.AgentKey(name) == key {
			return true
		}
	}
	return false
}
