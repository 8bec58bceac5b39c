package extract

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/offattr/offattr/run"
)

// Rename is a compound name (a field, a key, a function: user_id,
// orderId) that a step writes otherwise than the task, or another agent
// before it, wrote it: the same words joined another way (user_id as
// userId, otherJoin), or shortened to the initials of its words before
// the last and the last whole (user_id as uid, abbreviation); a file the
// task requires written as another (fileRenames); or a call's arguments
// in another order (callSwaps: From and To are then the call as written). A step that writes both may map one to the other
// (orderId=row.order_id): it is still the first to write the new one.
// Code and specs that pass it on then name something the task's reader
// does not know.
type Rename struct {
	Step   int32  `json:"step"`
	From   string `json:"from"`   // as first written
	To     string `json:"to"`     // as this step writes it
	Offset int    `json:"offset"` // of To in the step's text
	// Task: From is the task's own spelling, a name the task fixes (a
	// field a client reads), not one an agent chose.
	Task bool `json:"task,omitempty"`
	// Carried are the later steps that write To as this step does.
	Carried []int32 `json:"carried,omitempty"`
}

// maxNameScan bounds the bytes of a text renames reads.
const maxNameScan = 64 << 10

// compoundNames calls yield with each compound name in s and its offset:
// a word of letters, digits and underscores, starting with a letter, of
// two parts or more, joined by underscores (user_id) or by a capital
// after a lower-case letter (userId). A word of one part says nothing of
// how its parts are joined.
func compoundNames(s string, yield func(name string, at int)) {
	identifiers(s, func(w string, at int) {
		if isLetter(w[0]) && compound(w) {
			yield(w, at)
		}
	})
}

// plainNames calls yield with each word of one part in s that may name a
// field or a variable (uid, pid), and its offset: letters only, lower
// case, three to eight of them, not glued to a longer name.
func plainNames(s string, yield func(name string, at int)) {
	identifiers(s, func(w string, at int) {
		if len(w) >= 3 && len(w) <= 8 && strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" {
			yield(w, at)
		}
	})
}

// identifiers calls yield with each word of letters, digits and underscores
// in the first maxNameScan bytes of s, and its offset, but for one glued
// to a rune beyond ASCII: that is part of a longer word.
func identifiers(s string, yield func(w string, at int)) {
	s = s[:headEnd(s, maxNameScan)]
	for i := 0; i < len(s); {
		if !nameByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && nameByte(s[j]) {
			j++
		}
		if glued := j < len(s) && s[j] >= utf8.RuneSelf || i > 0 && s[i-1] >= utf8.RuneSelf; !glued {
			yield(s[i:j], i)
		}
		i = j
	}
}

// abbreviation is the short name an identifier of two words or more
// that ends in "id" is written as when its words before the last are cut
// to their initials (user_id, userId: uid; order_id: oid), or "" for any
// other name. Only an id is shortened so by habit; other shortenings
// (created_at as cat) are words of their own.
func abbreviation(w string) string {
	var parts []string
	for _, p := range strings.Split(strings.Trim(w, "_"), "_") {
		start := 0
		for k := 1; k < len(p); k++ {
			if p[k] >= 'A' && p[k] <= 'Z' && p[k-1] >= 'a' && p[k-1] <= 'z' {
				parts = append(parts, p[start:k])
				start = k
			}
		}
		if p[start:] != "" {
			parts = append(parts, p[start:])
		}
	}
	if len(parts) < 2 || !strings.EqualFold(parts[len(parts)-1], "id") {
		return ""
	}
	var b strings.Builder
	for _, p := range parts[:len(parts)-1] {
		if !isLetter(p[0]) {
			return ""
		}
		b.WriteByte(p[0] | 0x20)
	}
	b.WriteString("id")
	return b.String()
}

// namedInCode reports whether the word at s[at:at+n] is written as a name
// in code: in a fenced block of source code, or joined to code's
// punctuation (a key "uid", an attribute .uid, a field uid: int, an
// argument uid=7). The same letters in prose are a word ("aid", "did").
func namedInCode(t *text, at, n int) bool {
	before, after := byte(' '), byte(' ')
	if at > 0 {
		before = t.s[at-1]
	}
	if at+n < len(t.s) {
		after = t.s[at+n]
	}
	return strings.IndexByte(`"'.`+"`", before) >= 0 || strings.IndexByte(`"':=(`+"`", after) >= 0 || inSource(t, at)
}

// onlyMemberRead reports whether every writing of the short name in s
// reads a member of an object (proc.pid, stat.uid) and none names it: no
// key, field, variable or parameter of that name, no member set to a
// value. A member read is named by whoever made the object (a library's
// Popen has its pid); a step that only reads it has renamed nothing.
func onlyMemberRead(s, short string) bool {
	read := false
	for k := range occurrences(s, short) {
		end := k + len(short)
		if k > 0 && nameByte(s[k-1]) || end < len(s) && nameByte(s[end]) {
			continue
		}
		rest := strings.TrimLeft(s[end:], " \t")
		if k == 0 || s[k-1] != '.' || strings.HasPrefix(rest, "=") && !strings.HasPrefix(rest, "==") || strings.HasPrefix(rest, ":") {
			return false
		}
		read = true
	}
	return read
}

func nameByte(b byte) bool { return b == '_' || isLetter(b) || b >= '0' && b <= '9' }

func isLetter(b byte) bool { return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' }

// compound reports whether a word is two parts or more: an underscore
// between two of its characters, or a lower-case letter before a capital.
func compound(w string) bool {
	t := strings.Trim(w, "_")
	for k := 1; k < len(t); k++ {
		if t[k] == '_' && t[k-1] != '_' || t[k] >= 'A' && t[k] <= 'Z' && t[k-1] >= 'a' && t[k-1] <= 'z' {
			return true
		}
	}
	return false
}

// otherJoin reports whether two spellings of a name join its parts in
// two ways, one with underscores and one by case (user_id, userId): a
// name carried from one code convention to another. Spellings that differ
// in case alone are a brand's or a title's (MacOS, macOS), one in
// capitals is a constant beside the variable (RATE_LIMIT, rate_limit),
// and one joined by case that opens on a capital is a type's or an
// exported field's name, which a language's own convention spells so
// (Go's OrderID with the tag json:"order_id", a Python class): a key or a
// variable renamed opens lower-case (orderId).
func otherJoin(a, b string) bool {
	if strings.Contains(a, "_") == strings.Contains(b, "_") || a == strings.ToUpper(a) || b == strings.ToUpper(b) {
		return false
	}
	joined := a
	if strings.Contains(a, "_") {
		joined = b
	}
	return joined[0] < 'A' || joined[0] > 'Z'
}

// nameKey is a compound name without its case and its underscores: the
// words it is made of.
func nameKey(w string) string {
	return strings.ToLower(strings.ReplaceAll(w, "_", ""))
}

// renames finds the compound names steps write otherwise than the task
// or another agent first wrote them. Only the first step to write a new
// spelling renames: those after it carry it. The task's spellings come
// first; a step's own spellings, and those of tools' output (a record's
// keys are the tool's, not an agent's choice), are the ones a later
// agent is held to, but a tool's result renames nothing, and a spelling
// the task or any step before wrote (a tool's, printed before the step
// follows it) is none of the step's own.
func renames(question string, steps []run.Step, rf *RunFeatures) []Rename {
	type first struct {
		spelling string
		agent    string // "" for the task
	}
	firsts := map[string]first{}
	// short holds each abbreviation of a compound name with the name's
	// first spelling: a step of another agent that writes it in a word of
	// its own (uid for user_id) renames the name.
	short := map[string]first{}
	noteShort := func(w string, f first) {
		if a := abbreviation(w); a != "" {
			if _, ok := short[a]; !ok {
				short[a] = f
			}
		}
	}
	compoundNames(question, func(w string, _ int) {
		if _, ok := firsts[nameKey(w)]; !ok {
			firsts[nameKey(w)] = first{spelling: w}
			noteShort(w, firsts[nameKey(w)])
		}
	})
	var out []Rename
	renamed := map[string]int{} // a new spelling → its Rename in out
	// spelled holds every spelling the task or a step before wrote: one a
	// tool printed first (a codebase's createdAt where the issue says
	// created_at) is the convention the step follows, not its own.
	spelled := map[string]bool{}
	compoundNames(question, func(w string, _ int) { spelled[w] = true })
	plainNames(question, func(w string, _ int) { spelled[w] = true })
	for i, s := range steps {
		tool := rf.Steps[i].Has(KindToolResult)
		agent := run.AgentKey(s.Agent)
		written := map[string]bool{}
		type seen struct {
			w  string
			at int
		}
		var names []seen
		compoundNames(s.Content, func(w string, at int) {
			if !written[w] {
				written[w] = true
				names = append(names, seen{w, at})
			}
		})
		for _, n := range names {
			k := nameKey(n.w)
			f, ok := firsts[k]
			switch {
			case !ok:
				firsts[k] = first{spelling: n.w, agent: agent}
				noteShort(n.w, firsts[k])
			case f.spelling == n.w:
			case renamed[n.w] > 0:
				r := &out[renamed[n.w]-1]
				if r.Step != int32(i) && !slices.Contains(r.Carried, int32(i)) {
					r.Carried = append(r.Carried, int32(i))
				}
			case spelled[n.w]:
			case !tool && f.agent != agent && otherJoin(f.spelling, n.w):
				out = append(out, Rename{Step: int32(i), From: f.spelling, To: n.w, Offset: n.at, Task: f.agent == ""})
				renamed[n.w] = len(out)
			}
		}
		var plain []seen
		var words []string // every short word, for spelled: one written in prose is written
		var t *text
		plainNames(s.Content, func(w string, at int) {
			words = append(words, w)
			if _, ok := short[w]; !ok && renamed[w] == 0 || written[w] {
				return
			}
			if t == nil {
				t = newText(s.Content)
			}
			if namedInCode(t, at, len(w)) {
				written[w] = true
				plain = append(plain, seen{w, at})
			}
		})
		for _, n := range plain {
			f, ok := short[n.w]
			switch {
			case renamed[n.w] > 0:
				r := &out[renamed[n.w]-1]
				if r.Step != int32(i) && !slices.Contains(r.Carried, int32(i)) {
					r.Carried = append(r.Carried, int32(i))
				}
			case !ok || spelled[n.w] || tool || f.agent == agent || onlyMemberRead(s.Content, n.w):
			default:
				out = append(out, Rename{Step: int32(i), From: f.spelling, To: n.w, Offset: n.at, Task: f.agent == ""})
				renamed[n.w] = len(out)
			}
		}
		for _, n := range names {
			spelled[n.w] = true
		}
		for _, w := range words {
			spelled[w] = true
		}
	}
	out = append(out, fileRenames(rf.Requirements, steps, rf)...)
	return append(out, callSwaps(question, steps, rf)...)
}

// callSwaps finds the calls a step writes with the names of their
// arguments in another order than the task, or an earlier step, first
// wrote them: transfer(target, source, amount) where the interface is
// transfer(source, target, amount). A call flow or a task list that swaps
// two arguments hands every later step the swap, as a renamed field is
// handed on; the names themselves are kept, so only their order tells.
// The later steps that write the same order carry it. An agent that
// orders its own names otherwise changed its mind, as with a spelling.
func callSwaps(question string, steps []run.Step, rf *RunFeatures) []Rename {
	type order struct {
		args  []string
		agent string // "" for the task
	}
	firsts := map[string]order{}
	namedCalls(question, func(name string, args []string, _ int) {
		if _, ok := firsts[name]; !ok {
			firsts[name] = order{args, ""}
		}
	})
	var out []Rename
	swapped := map[string]int{} // a call as swapped → its Rename in out
	for i, s := range steps {
		if rf.Steps[i].Has(KindToolResult) || s.Kind == run.KindUser {
			continue
		}
		agent := run.AgentKey(s.Agent)
		var news []string
		namedCalls(s.Content, func(name string, args []string, at int) {
			written := name + "(" + strings.Join(args, ", ") + ")"
			f, ok := firsts[name]
			switch {
			case !ok:
				news = append(news, name)
				firsts[name] = order{args, agent}
			case swapped[written] > 0:
				r := &out[swapped[written]-1]
				if r.Step != int32(i) && !slices.Contains(r.Carried, int32(i)) {
					r.Carried = append(r.Carried, int32(i))
				}
			case !slices.Contains(news, name) && f.agent != agent && permuted(f.args, args):
				out = append(out, Rename{Step: int32(i), From: name + "(" + strings.Join(f.args, ", ") + ")", To: written, Offset: at, Task: f.agent == ""})
				swapped[written] = len(out)
			}
		})
	}
	return slices.DeleteFunc(out, func(r Rename) bool { return len(r.Carried) == 0 })
}

// permuted reports whether b holds the names of a, each once, in another
// order.
func permuted(a, b []string) bool {
	if len(a) != len(b) || slices.Equal(a, b) {
		return false
	}
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y) && len(slices.Compact(x)) == len(a)
}

// namedCalls calls yield with each call or signature in s whose arguments are
// two names or more, each a plain name (a type after a colon, a default
// after an equals sign dropped): transfer(source, target, amount),
// transfer(source: str, target: str, amount: int). A call given values
// (transfer("A", "B", 30)) names no order of names.
func namedCalls(s string, yield func(name string, args []string, at int)) {
	s = s[:headEnd(s, maxNameScan)]
	for i := 0; i < len(s); i++ {
		if s[i] != '(' || i == 0 || !nameByte(s[i-1]) {
			continue
		}
		start := i
		for start > 0 && nameByte(s[start-1]) {
			start--
		}
		end := strings.IndexByte(s[i:], ')')
		if end < 0 || end > 200 || !isLetter(s[start]) {
			continue
		}
		inner := s[i+1 : i+end]
		if strings.ContainsAny(inner, "()\n\"'") {
			continue
		}
		var args []string
		ok := true
		for a := range strings.SplitSeq(inner, ",") {
			a, _, _ = strings.Cut(a, "=")
			a, _, _ = strings.Cut(a, ":")
			a = strings.TrimSpace(a)
			if a == "" || !isLetter(a[0]) || strings.IndexFunc(a, func(r rune) bool { return r > 127 || !nameByte(byte(r)) }) >= 0 {
				ok = false
				break
			}
			args = append(args, a)
		}
		if ok && len(args) >= 2 {
			yield(s[start:i], args, start)
		}
	}
}

// fileRenames finds the files the task requires by name ("the entry point
// must be app.py") that a step of an agent replaces with another: it
// names a new file of the same kind (main.py), one neither the task nor
// an earlier step named, and from it on no step names the required one
// again. The code is then written, reviewed and run under a name the
// task's reader does not know, as a renamed field is read by none.
func fileRenames(reqs []Requirement, steps []run.Step, rf *RunFeatures) []Rename {
	var out []Rename
	for _, req := range reqs {
		for _, f := range req.Terms {
			if !isFileName(f) {
				continue
			}
			ext := f[strings.IndexByte(f, '.'):]
			last := -1 // the last step that names f
			for i, s := range steps {
				if namesFile(strings.ToLower(s.Content), f) {
					last = i
				}
			}
			seen := map[string]bool{}
			var r *Rename
			for i, s := range steps {
				lower := strings.ToLower(s.Content)
				found := filesOf(lower, ext)
				switch {
				case r != nil:
					if slices.ContainsFunc(found, func(n fileAt) bool { return n.name == r.To }) {
						r.Carried = append(r.Carried, int32(i))
					}
				case i > last && !rf.Steps[i].Has(KindToolResult) && s.Kind != run.KindUser:
					for _, n := range found {
						if !seen[n.name] && n.name != f {
							at := n.at
							if len(lower) != len(s.Content) {
								at = 0 // lower case took other bytes: no offset into the text
							}
							r = &Rename{Step: int32(i), From: f, To: n.name, Offset: at, Task: true}
							break
						}
					}
				}
				for _, n := range found {
					seen[n.name] = true
				}
			}
			if r != nil && len(r.Carried) > 0 {
				out = append(out, *r)
			}
		}
	}
	return out
}

// fileAt is a file's name a text writes, in lower case, and where.
type fileAt struct {
	name string
	at   int
}

// filesOf are the names of files of the extension ext (".py") that a
// lower-case text writes, in order, each once.
func filesOf(text, ext string) []fileAt {
	var out []fileAt
	for i := 0; ; {
		k := strings.Index(text[i:], ext)
		if k < 0 {
			return out
		}
		end := i + k + len(ext)
		start := i + k
		for start > 0 && (nameByte(text[start-1]) || text[start-1] == '-') {
			start--
		}
		i = end
		if start == i-len(ext) || end < len(text) && nameByte(text[end]) || start > 0 && (text[start-1] == '.' || text[start-1] == '/') {
			continue
		}
		if name := text[start:end]; isFileName(name) && !slices.ContainsFunc(out, func(f fileAt) bool { return f.name == name }) {
			out = append(out, fileAt{name, start})
		}
	}
}
