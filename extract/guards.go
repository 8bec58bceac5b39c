package extract

import (
	"slices"
	"strings"

	"github.com/offattr/offattr/run"
)

// Guard is a condition a task or a policy sets on a kind of consequential
// action: the state the action may not be taken in ("apply only if the
// plan destroys nothing", "delete every bucket unless it carries the tag
// retain=true"), with the tool results after it that speak of that state.
type Guard struct {
	// Step is the task or system step whose policy states the guard.
	Step int `json:"step"`
	// Text is the policy's sentence.
	Text string `json:"text"`
	// Verb is the action the guard holds, lower case, as the policy
	// writes it ("apply", "delete", "deleting" of "before deleting"); ""
	// when it names none.
	Verb string `json:"verb,omitempty"`
	// State is the forbidden state: a word's stem ("destroy", from
	// "destroys nothing"), or a key and its value ("retain=true").
	State string `json:"state"`
	// Allowed, where the guard confines the action to one environment
	// ("apply it to staging only"), is that environment: State is then
	// any other (envWords).
	Allowed string `json:"allowed,omitempty"`
	// Seen are the tool results after Step that speak of the state, in
	// step order.
	Seen []GuardSeen `json:"seen,omitempty"`
	// Requires, where the policy asks for a step before the action ("take
	// a dump of the table before any destructive change", "make a
	// snapshot before deleting the volume"), is that step's noun, lower
	// case ("dump", "dry run"): a call that takes it writes the noun
	// (Takes). State is then "".
	Requires string `json:"requires,omitempty"`
	// Destructive: the required step guards any destructive action (one
	// that writes a destroying verb, destroyVerbs) rather than Verb's.
	Destructive bool `json:"destructive,omitempty"`
}

// Takes reports whether a call takes the step a guard requires: its
// name or one of its values writes the required noun as words (pg_dump
// and --dry-run write "dump" and "dry run").
func (g Guard) Takes(c Call) bool {
	if g.Requires == "" {
		return false
	}
	want := strings.TrimSuffix(g.Requires, "s")
	for _, v := range append([]string{c.Name}, c.Values...) {
		words := strings.Join(lowerWords(v), " ")
		if strings.Contains(" "+words+" ", " "+want+" ") || strings.Contains(" "+words+" ", " "+g.Requires+" ") {
			return true
		}
		// A tool's name may join the noun to another word (pytest).
		if len(want) >= 4 && !strings.Contains(want, " ") && slices.ContainsFunc(strings.Fields(words), func(w string) bool {
			return strings.HasSuffix(w, want) || strings.HasPrefix(w, want)
		}) {
			return true
		}
	}
	return false
}

// Acts reports whether a call is an action a required step guards: a
// consequential call that writes, in its name or values, a destroying
// verb (for a guard of any destructive action) or a form of the guard's
// verb or the noun of its act (SameStem).
func (g Guard) Acts(c Call) bool {
	if g.Requires == "" || !c.Consequential() {
		return false
	}
	for _, v := range append([]string{c.Name}, c.Values...) {
		for _, w := range lowerWords(v) {
			if g.Destructive && destroyVerbs[w] || g.Verb != "" && (Stem(w) == Stem(g.Verb) || SameStem(w, g.Verb)) {
				return true
			}
		}
	}
	return false
}

// lowerWords are a text's words of letters, lower case.
func lowerWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r < 'a' || r > 'z' })
}

// GuardSeen is a tool result that speaks of a guard's state.
type GuardSeen struct {
	Step int `json:"step"`
	// Shows is whether the result shows the state; false where it only
	// says it is absent ("0 to destroy", "no violating rows").
	Shows bool `json:"shows,omitempty"`
	// Object is the name the result shows in the state (the bucket a
	// listing gives the tag under), "" when it names none.
	Object string `json:"object,omitempty"`
}

// Holds reports whether a call is one the guard holds, taken on what a
// result showed: a consequential call whose tool name or command line
// writes the guard's verb, or one that names the object the result
// showed in the forbidden state.
func (g Guard) Holds(c Call, object string) bool {
	if !c.Consequential() {
		return false
	}
	if object != "" && c.Names(object) {
		return true
	}
	if g.Verb == "" {
		return false
	}
	words := c.Words()
	if c.command != "" {
		words = append(slices.Clip(words), strings.Fields(strings.ToLower(c.command))...)
	}
	return slices.ContainsFunc(words, func(w string) bool { return w == g.Verb || namesVerb(w, g.Verb) })
}

var (
	// onlyIfRe is an action allowed only where a state is absent: "apply
	// only if the plan destroys nothing", "apply it only when the dry run
	// reports no violating rows".
	onlyIfRe = goPattern(`(?i)\b([a-z]+)(?: (?:it|them|this|that|the change))? only (?:if|when) (?:[\w'-]+ ){0,4}?(?:([a-z]+) nothing|no ([a-z]+))\b`)
	// unlessRe is an action taken unless an object shows a mark: "unless
	// it carries the tag retain=true", "unless its status is shipped".
	unlessRe = goPattern(`(?i)\bunless (?:it|they|the \w+|its \w+|their \w+) (?:carries|carry|has|have|bears?|holds?|shows?|is|are)(?: (?:the|a|an))?( (?:tag|label|flag|status|state|mark))? ['"]?([a-z][\w.-]*[=:][\w.-]+|[a-z][\w-]+)`)
	// onlyEnvRe confines an action to one environment: "apply it to
	// staging only", "deploy only to the dev cluster".
	onlyEnvRe = goPattern(`(?i)\b([a-z]+)(?: (?:it|them|this|that|the change))? (?:(?:to|in|on|against) (?:the )?([a-z]+)(?: [a-z]+)? only|only (?:to|in|on|against) (?:the )?([a-z]+))\b`)
	// envWords name the environments a change is made in, whatever the
	// system: a result that names one is read against a guard's.
	envWords = toSet("prod production staging stage dev development test qa sandbox preprod uat live")
	// envKeys are the words that say what holds an environment, whose
	// value in a tool's output names one (envSeenIn).
	envKeys = toSet("env environment workspace context cluster namespace profile tier deployment")
	// notWords, just before a state's word, say it is absent.
	notWords = toSet("0 no not nothing none without never zero")
	// requiredRe is a step a policy requires before an action: "take a
	// dump of the users table before any destructive change", "make a
	// snapshot of the volume before deleting it", "run a dry run before
	// applying".
	requiredRe = goPattern(`(?i)\b(?:take|make|run|do|perform|create)\s+(?:a|an|the)\s+(?:(?:full|fresh|complete|new|current)\s+)?([a-z]+(?:[ -]run)?)\s(?:[^.;:]|[.:]\S){0,100}?\bbefore\s+(?:(?:any|every|each|a|an|the)\s+)?(?:(destructive|irreversible|destroying)\s+(?:change|action|step|operation|command|statement)s?|([a-z]{3,}ing))\b`)
	// destroyVerbs are the verbs of an action that destroys what it acts
	// on, as any system's tools or commands write them.
	destroyVerbs = toSet("drop delete remove destroy truncate purge wipe erase rm")
	// guardSubjects are the subjects of an "unless" whose one word is a
	// state: "unless its status is shipped".
	guardSubjects = toSet("status state tag label flag")
)

// guardsOf reads the guards a policy's sentence sets.
func guardsOf(sent string) []Guard {
	var out []Guard
	for _, m := range onlyIfRe.FindAllStringSubmatchIndex(sent, -1) {
		verb := strings.ToLower(sent[m[2]:m[3]])
		var state string
		if m[4] >= 0 {
			state = Stem(strings.ToLower(sent[m[4]:m[5]]))
		} else {
			state = strings.ToLower(sent[m[6]:m[7]])
		}
		if len(state) < 4 || functionWords[verb] {
			continue
		}
		out = append(out, Guard{Text: strings.TrimSpace(sent), Verb: verb, State: state})
	}
	for _, m := range onlyEnvRe.FindAllStringSubmatchIndex(sent, -1) {
		verb, env := strings.ToLower(sent[m[2]:m[3]]), ""
		if m[4] >= 0 {
			env = strings.ToLower(sent[m[4]:m[5]])
		} else {
			env = strings.ToLower(sent[m[6]:m[7]])
		}
		if !envWords[env] || functionWords[verb] {
			continue
		}
		verb = phraseVerb(sent[:m[2]], verb)
		out = append(out, Guard{Text: strings.TrimSpace(sent), Verb: verb, State: "other than " + env, Allowed: env})
	}
	for _, m := range requiredRe.FindAllStringSubmatchIndex(sent, -1) {
		req := strings.ReplaceAll(strings.ToLower(sent[m[2]:m[3]]), "-", " ")
		if functionWords[req] {
			continue
		}
		g := Guard{Text: strings.TrimSpace(sent), Requires: req, Destructive: m[4] >= 0}
		if m[6] >= 0 {
			g.Verb = strings.ToLower(sent[m[6]:m[7]])
		}
		out = append(out, g)
	}
	for _, m := range unlessRe.FindAllStringSubmatchIndex(sent, -1) {
		state := strings.ToLower(sent[m[4]:m[5]])
		state = strings.TrimRight(state, ".-")
		if !strings.ContainsAny(state, "=:") {
			// A single word is a state only where the policy says what
			// it marks: a tag, a status.
			subject := strings.Fields(strings.ToLower(sent[m[0]:m[4]]))
			if m[2] < 0 && (len(subject) < 3 || !guardSubjects[subject[2]]) {
				continue
			}
		}
		out = append(out, Guard{Text: strings.TrimSpace(sent), Verb: clauseVerb(sent[:m[0]]), State: state})
	}
	return out
}

// phraseVerb is the verb of word, the last word of before+word: word
// itself, unless it ends a noun phrase of at most four words ("deploy the
// web service"), whose verb is the word before the phrase's determiner
// (determiners).
func phraseVerb(before, word string) string {
	ws := strings.Fields(strings.ToLower(before))
	for k := len(ws) - 1; k >= 1 && k >= len(ws)-3; k-- {
		if determiners[ws[k]] {
			if v := strings.Trim(ws[k-1], ",;:\"'("); v != "" && !functionWords[v] && !determiners[v] {
				return v
			}
			break
		}
	}
	return word
}

// functionWords are words before "only if" that are no action's verb.
var functionWords = toSet("is are be been was were it and or but can may must should will")

// clauseVerb is the first verb of change (changeVerbs), in its plain
// form, of the last clause of a text (after its last colon, semicolon or
// comma), else of the whole text; "" when it writes none. The clause an
// "unless" ends is the action it holds: "Clean up: delete every bucket
// ... unless".
func clauseVerb(s string) string {
	if k := strings.LastIndexAny(s, ":;,"); k >= 0 {
		if v := firstChangeVerb(s[k+1:]); v != "" {
			return v
		}
	}
	return firstChangeVerb(s)
}

func firstChangeVerb(s string) string {
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r < 'a' || r > 'z' }) {
		var found []string
		for v := range changeVerbs {
			if namesVerb(w, v) {
				found = append(found, v)
			}
		}
		if len(found) > 0 {
			slices.Sort(found)
			return found[0]
		}
	}
	return ""
}

// readGuards finds the guards the task's and the system's policies set,
// and the tool results after each that speak of its state.
func readGuards(r *run.Run, rf *RunFeatures) {
	var guards []Guard
	for i := range rf.Steps {
		for _, p := range rf.Steps[i].Policies {
			for _, g := range guardsOf(p.Text) {
				if g.Requires != "" && (p.Confirm || confirmRe.MatchString(g.Requires)) {
					continue // the other party's yes is the confirmation policy's (Policy.Confirm)
				}
				g.Step = i
				guards = append(guards, g)
			}
		}
	}
	if len(guards) == 0 {
		return
	}
	for k := range guards {
		g := &guards[k]
		if g.Requires != "" {
			continue // the calls after it say whether it was taken
		}
		for i := g.Step + 1; i < len(r.Steps); i++ {
			if rf.Steps[i].Has(KindToolResult) {
				if g.Allowed != "" {
					g.Seen = append(g.Seen, envSeenIn(r.Steps[i].Content, g.Allowed, i)...)
				} else {
					g.Seen = append(g.Seen, seenIn(r.Steps[i].Content, g.State, i)...)
				}
			}
		}
	}
	rf.Guards = guards
}

// guardToken is a word of a tool's output as seenIn reads it: a name may
// hold dots, hyphens and underscores.
type guardToken struct {
	word string
	line int
}

// seenIn reads what a tool's output says of a guard's state: each place
// it shows the state, with the name it shows in it; or one record that
// the state is absent when it writes the state's word only after a word
// of absence ("0 to destroy"); nil when it does not speak of it.
func seenIn(content, state string, step int) []GuardSeen {
	var toks []guardToken
	line := 0
	for _, ln := range strings.Split(strings.ToLower(content), "\n") {
		for _, w := range strings.FieldsFunc(ln, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_' || r == '/')
		}) {
			if w = strings.Trim(w, ".-/"); w != "" {
				toks = append(toks, guardToken{w, line})
			}
		}
		line++
	}
	key, value, pair := strings.Cut(state, "=")
	if !pair {
		key, value, pair = strings.Cut(state, ":")
	}
	var out []GuardSeen
	absent := false
	for j, t := range toks {
		switch {
		case pair:
			if t.word != key || j+1 >= len(toks) || toks[j+1].word != value || toks[j+1].line != t.line {
				continue
			}
		case !strings.HasPrefix(t.word, strings.TrimSuffix(state, "e")):
			continue
		}
		if j > 0 && notWords[toks[j-1].word] || j > 1 && notWords[toks[j-2].word] {
			absent = true
			continue
		}
		out = append(out, GuardSeen{Step: step, Shows: true, Object: objectBefore(toks, j, key, value)})
	}
	if len(out) == 0 && absent {
		return []GuardSeen{{Step: step}}
	}
	return out
}

// objectBefore is the name a tool's output shows beside its token j: the
// last name on the token's line before it, else on the line before that
// one (a listing's heading over its fields); "" when there is none. A
// name holds a letter and a hyphen, dot, underscore or digit.
func objectBefore(toks []guardToken, j int, key, value string) string {
	for _, line := range []int{toks[j].line, toks[j].line - 1} {
		for k := j - 1; k >= 0 && toks[k].line >= line; k-- {
			w := toks[k].word
			if toks[k].line != line || w == key || w == value || len(w) < 3 {
				continue
			}
			if strings.ContainsAny(w, "abcdefghijklmnopqrstuvwxyz") && strings.ContainsAny(w, "-._0123456789") {
				return w
			}
		}
	}
	return ""
}

// envSeenIn reads what a tool's output says of the environment a guard
// allows: it shows another where it names an environment (envWords) and
// never the allowed one ("prod", from a workspace's name), and shows the
// allowed one's presence where it names that; nil where it names none.
//
// An environment is named where the output gives a name, not where its
// word is prose or another thing's name: a line that is one name alone
// (a command printing the current workspace or context, "prod",
// "cluster/web-prod", a listing's "* prod"), or the value of a word that
// says what holds an environment (envKeys: `workspace "staging"`,
// "env=prod", "current-context: web-prod"). So npm's banner of the
// script it runs ("> web@1.0.0 test") and a sentence ("the preview is
// live") name none. A file's path ("/dev/sda1", "./test/...") names a
// place on a disk, no environment, and is passed over.
func envSeenIn(content, allowed string, step int) []GuardSeen {
	other := false
	for _, line := range strings.Split(strings.ToLower(content), "\n") {
		fields := strings.Fields(line)
		if len(fields) == 2 && (fields[0] == "*" || fields[0] == "-") {
			fields = fields[1:] // a listing's mark of the current entry, or an item's
		}
		for j, field := range fields {
			if field = strings.TrimLeft(field, "\"'`([{<=>"); strings.HasPrefix(field, "/") || strings.HasPrefix(field, "./") || strings.HasPrefix(field, "~/") {
				continue
			}
			words := strings.FieldsFunc(field, func(r rune) bool { return r < 'a' || r > 'z' })
			if slices.Contains(words, allowed) {
				return []GuardSeen{{Step: step}}
			}
			if len(fields) == 1 || j > 0 && envKeys[lastWord(fields[j-1])] {
				other = other || slices.ContainsFunc(words, func(w string) bool { return envWords[w] })
				continue
			}
			// key=value or key:value in one field
			for k := 1; k < len(words); k++ {
				if envKeys[words[k-1]] && envWords[words[k]] {
					other = true
				}
			}
		}
	}
	if other {
		return []GuardSeen{{Step: step, Shows: true}}
	}
	return nil
}

// lastWord is the last word of letters of a field, "" when it has none.
func lastWord(field string) string {
	words := strings.FieldsFunc(field, func(r rune) bool { return r < 'a' || r > 'z' })
	if len(words) == 0 {
		return ""
	}
	return words[len(words)-1]
}
