package extract

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/offattr/offattr/run"
)

// A web agent sees a page as an accessibility tree, one element a line,
// each behind the id it acts on it by, indented under its parent
// (WebArena's "[1886] link 'View Order'", BrowserGym's "[a51] gridcell
// 'Antonia Racer Tank'", browser-use's "[12]<a >View />"), and names the
// element by that id in its action ("click [1886]", "click('a51')",
// browser_use's index). What it picks is the item of the page the
// element belongs to: the row of a table it is in, or the entry of a
// listing it follows (a product's link, its price, its Add to Cart
// button).

// pageElement is one element of a page's tree.
type pageElement struct {
	id, role string
	text     string // the line after the id, in lower case
	depth    int    // leading tabs
}

// maxElementID bounds an element's id; a page lists at least minChoices
// elements, and is read up to maxIDScan bytes.
const maxElementID = 12

// pageElements returns the elements a text lays out as an accessibility
// tree: lines that open with an id in brackets and then an element's role
// ("link 'Order #0042'") or tag ("<a >Order #0042 />"). nil when fewer
// than minChoices lines are such.
func pageElements(content string) []pageElement {
	aria := strings.Contains(content, ariaRef)
	if !aria && !strings.Contains(content, "] ") && !strings.Contains(content, "]<") {
		return nil
	}
	content = content[:min(len(content), maxIDScan)]
	var out []pageElement
	for line := range strings.SplitSeq(content, "\n") {
		if e, ok := elementLine(line); ok {
			out = append(out, e)
		} else if e, ok := ariaLine(line); aria && ok {
			out = append(out, e)
		}
	}
	if len(out) < minChoices {
		return nil
	}
	return out
}

// elementLine reads a line of a page's tree as an element: an id in
// brackets, then a role after a space or a tag after "<"; its depth is
// its indent, a tab or two spaces a level.
func elementLine(line string) (pageElement, bool) {
	rest := strings.TrimLeft(line, "\t ")
	indent := line[:len(line)-len(rest)]
	end := strings.IndexByte(rest, ']')
	if !strings.HasPrefix(rest, "[") || end < 2 || end > maxElementID+1 || !elementID(rest[1:end]) {
		return pageElement{}, false
	}
	id, body := rest[1:end], rest[end+1:]
	var role string
	switch {
	case strings.HasPrefix(body, "<"):
		role = strings.TrimLeft(body[1:], " ")
	case strings.HasPrefix(body, " "):
		role = strings.TrimLeft(body, " ")
	default:
		return pageElement{}, false
	}
	if k := strings.IndexAny(role, " >/'\""); k >= 0 {
		role = role[:k]
	}
	role = strings.ToLower(role)
	if !commandWord(role) {
		return pageElement{}, false
	}
	return pageElement{id: id, role: elementRole(role), text: strings.ToLower(body), depth: strings.Count(indent, "\t") + strings.Count(indent, " ")/2}, true
}

// ariaRef opens the id of an element in Playwright's snapshot of a page's
// accessibility tree, as its MCP server's tools print it.
const ariaRef = "[ref="

// ariaRoles are the roles an element of Playwright's snapshot of a
// page's accessibility tree is written with that its id may be missing
// from: the text and the entries of an item that no action targets.
var ariaRoles = toSet("text option listitem list row cell gridcell columnheader rowheader generic heading paragraph img link button table grid rowgroup group region main navigation banner contentinfo complementary article status alert dialog menu menuitem listbox combobox textbox searchbox checkbox radio spinbutton tab tablist tabpanel strong emphasis")

// ariaLine reads a line of Playwright's snapshot of a page ("- link
// \"View Order\" [ref=e43]", "  - option \"M\" [selected]", "- text:
// $22.00") as an element: its role after the list's dash, its id the
// ref it gives ("" for an element no action targets), its depth two
// spaces a level.
func ariaLine(line string) (pageElement, bool) {
	rest := strings.TrimLeft(line, " ")
	body, ok := strings.CutPrefix(rest, "- ")
	if !ok {
		return pageElement{}, false
	}
	role := body[:strings.IndexAny(body+" :", " :")]
	var id string
	if k := strings.Index(body, ariaRef); k >= 0 {
		if end := strings.IndexByte(body[k:], ']'); end > len(ariaRef) && elementID(body[k+len(ariaRef):k+end]) {
			id = body[k+len(ariaRef) : k+end]
		}
	}
	if !commandWord(role) || id == "" && !ariaRoles[role] {
		return pageElement{}, false
	}
	return pageElement{id: id, role: role, text: strings.ToLower(body[len(role):]), depth: (len(line) - len(rest)) / 2}, true
}

// elementRole names an HTML tag by the role a tree gives it ("a" is a
// link), so that a page read from its tags groups as one read from its
// accessibility tree.
func elementRole(role string) string {
	if role == "a" {
		return "link"
	}
	return role
}

// elementID reports whether s is an element's id: letters and digits.
func elementID(s string) bool {
	for i := 0; i < len(s); i++ {
		if !(s[i] >= '0' && s[i] <= '9' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			return false
		}
	}
	return s != ""
}

// itemRoles are the roles whose element holds one item of a page: a
// table's row, a list's item.
var itemRoles = map[string]bool{"row": true, "listitem": true, "article": true}

// entryRole is the role that opens an entry of a listing laid out flat,
// the elements after one up to the next being the entry's: a product's
// link, then its price and its buttons.
const entryRole = "link"

// pageItem is the stretch of a page's elements [from, to) that makes one
// item; kind is its first element's role and depth, which its like
// items share.
type pageItem struct {
	from, to int
	kind     string
}

// itemOf returns the item of the page els the element at k belongs to:
// the nearest row or list item it is in, with everything under it; else
// the entry of a flat listing it is in, from the link that opens it (at
// its own depth) to the next one. ok is false when it is in
// neither.
func itemOf(els []pageElement, k int) (pageItem, bool) {
	d := els[k].depth
	for m := k; m >= 0; m-- {
		if m < k && els[m].depth >= d {
			continue
		}
		d = els[m].depth
		if itemRoles[els[m].role] {
			return pageItem{m, under(els, m), els[m].role + "@" + strconv.Itoa(els[m].depth)}, true
		}
	}
	for m := k; m >= 0 && els[m].depth >= els[k].depth; m-- {
		if els[m].depth == els[k].depth && els[m].role == entryRole {
			to := m + 1
			for to < len(els) && els[to].depth >= els[m].depth && !(els[to].depth == els[m].depth && els[to].role == els[m].role) {
				to++
			}
			return pageItem{m, to, els[m].role + "@" + strconv.Itoa(els[m].depth)}, true
		}
	}
	return pageItem{}, false
}

// under returns the end of the elements nested under the one at m.
func under(els []pageElement, m int) int {
	to := m + 1
	for to < len(els) && els[to].depth > els[m].depth {
		to++
	}
	return to
}

// items returns every item of the page of the same kind as it.
func likeItems(els []pageElement, it pageItem) []pageItem {
	var out []pageItem
	for m := range els {
		if o, ok := itemOf(els, m); ok && o.from == m && o.kind == it.kind {
			out = append(out, o)
		}
	}
	return out
}

// itemName returns the name of the first of an item's elements that has
// one: what its line gives in quotes ("cell '000000187'"), or between its
// tag and its close ("<a >View />").
func itemName(els []pageElement, it pageItem) string {
	for _, e := range els[it.from:it.to] {
		if n := elementName(e.text); n != "" {
			return n
		}
	}
	return strings.TrimSpace(els[it.from].text)
}

// elementName returns the name an element's line gives it, "" if none.
func elementName(line string) string {
	if k := strings.IndexByte(line, '>'); strings.HasPrefix(line, "<") && k > 0 {
		return strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line[k+1:]), "/>"))
	}
	for _, q := range []string{"'", "\""} {
		if a := strings.Index(line, q); a >= 0 {
			if b := strings.Index(line[a+1:], q); b > 0 {
				return strings.TrimSpace(line[a+1 : a+1+b])
			}
		}
	}
	return ""
}

// fieldRoles are the roles of a page's fields, which show what the agent
// typed into them, not what the item is.
var fieldRoles = map[string]bool{"textbox": true, "searchbox": true, "combobox": true, "input": true, "textarea": true, "select": true, "spinbutton": true}

// itemText is the texts of an item's elements but its fields, one a line.
func itemText(els []pageElement, it pageItem) string {
	var b strings.Builder
	for _, e := range els[it.from:it.to] {
		if fieldRoles[e.role] {
			continue
		}
		b.WriteString(e.text)
		b.WriteByte('\n')
	}
	return b.String()
}

// elementArg returns the id of the element a call acts on: its first
// bracketed argument ("click [1886]"), its first quoted one
// ("click('a51')"), or its JSON arguments' element index (browser-use's
// "index", Playwright MCP's "ref").
func elementArg(c Call) string {
	a := strings.TrimSpace(c.Args)
	if strings.HasPrefix(a, "{") {
		var v map[string]any
		if json.Unmarshal([]byte(a), &v) != nil {
			return ""
		}
		for _, k := range []string{"index", "bid", "element_id", "ref"} {
			switch x := v[k].(type) {
			case float64:
				return strconv.FormatFloat(x, 'f', -1, 64)
			case string:
				return x
			}
		}
		return ""
	}
	rest := strings.TrimLeft(a[len(c.Name):], " \t(")
	if rest == "" {
		return ""
	}
	var end int
	switch rest[0] {
	case '[':
		end = strings.IndexByte(rest[1:], ']')
	case '\'', '"':
		end = strings.IndexByte(rest[1:], rest[0])
	default:
		return ""
	}
	if end < 1 || !elementID(rest[1:end+1]) {
		return ""
	}
	return rest[1 : end+1]
}

// taskTokens returns the words of a task that tell one item from its
// like ones: an order's number, a model's code ("wh-1000xm5"), in lower
// case; the names it gives in quotes (quotedNames), and its words with a
// digit, of at least four bytes or of three with a letter ("r50"), not a
// link. The lines
// of a page the task step shows with it are not the task's.
func taskTokens(task string) []string {
	var out []string
	for line := range strings.SplitSeq(strings.ToLower(task), "\n") {
		if _, ok := elementLine(line); ok {
			continue
		}
		for _, n := range quotedNames(line) {
			out = appendNew(out, n)
		}
		for _, w := range strings.Fields(line) {
			w = strings.Trim(w, ".,;:!?'\"()[]#*`")
			digits := strings.Count(w, "") - 1 - len(strings.Trim(w, "0123456789"))
			if (len(w) >= 4 || len(w) == 3 && digits < 3) && strings.ContainsAny(w, "0123456789") && !strings.ContainsAny(w, "()'\"") && !strings.Contains(w, "://") && !strings.HasPrefix(w, "www.") {
				out = appendNew(out, w)
			}
		}
	}
	return out
}

// maxNameWords bounds a name the task gives in quotes.
const maxNameWords = 8

// quotedNames returns the names a text gives in quotes of two words or
// more ("the product 'Antonia Racer Tank'"): a quote that opens after a
// space or the line's start and closes before a space, a stop or its
// end, so that an apostrophe ("women's") opens none.
func quotedNames(line string) []string {
	var out []string
	for k := 0; k < len(line); k++ {
		q := line[k]
		if q != '\'' && q != '"' || k > 0 && line[k-1] != ' ' && line[k-1] != '(' {
			continue
		}
		end := strings.IndexByte(line[k+1:], q)
		if end < 0 {
			break
		}
		after := k + 1 + end + 1
		if after < len(line) && !strings.ContainsRune(" .,;:!?)", rune(line[after])) {
			continue
		}
		name := strings.TrimSpace(line[k+1 : k+1+end])
		if n := len(strings.Fields(name)); n >= 2 && n <= maxNameWords && len(name) <= maxChoiceLen {
			out = append(out, name)
		}
		k = after - 1
	}
	return out
}

// elementPick is a step's pick of an item of a page.
type elementPick struct {
	step, page int
	text       string // the item's text
	name       string // the name of its first element that has one
}

// readElementPicks sets PassedOver on the first step of an agent that
// acts on an element of a page (pageElements) whose item holds none of
// the words that tell the task's item apart (taskTokens), where a like
// item of the same page (another row of the table, another entry of the
// listing) holds one that no later pick of that agent's holds: it opened
// the other order, added the other model to the cart.
func readElementPicks(r *run.Run, rf *RunFeatures) {
	tokens := taskTokens(r.Question)
	if len(tokens) == 0 {
		return
	}
	type found struct {
		elementPick
		passed []string
	}
	var picks []found
	page, pageAt := []pageElement(nil), -1
	for i, s := range r.Steps {
		if els := pageElements(s.Content); els != nil {
			page, pageAt = els, i
		}
		if page == nil || !agentChoosing(r, rf, i) || pageAt == i {
			continue
		}
		for _, c := range rf.Steps[i].Calls {
			id := elementArg(c)
			k := slices.IndexFunc(page, func(e pageElement) bool { return e.id == id })
			if id == "" || k < 0 {
				continue
			}
			it, ok := itemOf(page, k)
			if !ok {
				continue
			}
			text := itemText(page, it)
			var passed []string
			if !slices.ContainsFunc(tokens, func(t string) bool { return choiceHeld(text, t) }) {
				for _, o := range likeItems(page, it) {
					if o.from == it.from {
						continue
					}
					for _, t := range tokens {
						if choiceHeld(itemText(page, o), t) {
							passed = appendNew(passed, t)
						}
					}
				}
			}
			picks = append(picks, found{elementPick{i, pageAt, text, itemName(page, it)}, passed})
		}
	}
	if a := rf.FinalAnswer; a != nil && a.Step < len(r.Steps) && a.Text != "" {
		if page, at := lastPage(r, a.Step); page != nil {
			// The answer as a whole (WebArena's "stop [$64.92]"), else
			// each figure a sentence that answers states.
			values := []string{a.Text}
			for _, c := range a.Claims {
				if c.Kind == ClaimNumber && c.Text != a.Text {
					values = append(values, c.Text)
				}
			}
			for _, v := range values {
				if p, passed := answerPick(page, tokens, strings.ToLower(v)); len(passed) > 0 {
					picks = append(picks, found{elementPick{a.Step, at, "", p}, passed})
					break
				}
			}
		}
	}
	for k, p := range picks {
		if len(p.passed) == 0 || rf.Steps[p.step].PassedOver != nil {
			continue
		}
		me := run.AgentKey(r.Steps[p.step].Agent)
		later := func(t string) bool {
			return slices.ContainsFunc(picks[k+1:], func(q found) bool {
				return run.AgentKey(r.Steps[q.step].Agent) == me && choiceHeld(q.text, t)
			})
		}
		if slices.ContainsFunc(p.passed, later) {
			continue
		}
		rf.Steps[p.step] = rf.Steps[p.step].Clone()
		rf.Steps[p.step].Details.Rare.PassedOver = &Choice{Offer: p.page, Picked: []string{p.name}, Passed: p.passed}
		return
	}
}

// lastPage returns the last page a step before i shows, and that step.
func lastPage(r *run.Run, i int) ([]pageElement, int) {
	for j := i - 1; j >= 0; j-- {
		if els := pageElements(r.Steps[j].Content); els != nil {
			return els, j
		}
	}
	return nil, -1
}

// answerPick reads an answer (in lower case) as a pick of the items of a
// page whose elements write it whole: when every such item holds none of
// the task's tokens and a like item holds one, the answer was read from
// another row of the table, another entry of the listing. It returns the
// name of the first item it was read from and the tokens passed over.
func answerPick(page []pageElement, tokens []string, answer string) (string, []string) {
	var from []pageItem
	for k, e := range page {
		if !fieldRoles[e.role] && choiceHeld(e.text, answer) {
			if it, ok := itemOf(page, k); ok {
				from = append(from, it)
			}
		}
	}
	var passed []string
	for _, it := range from {
		if slices.ContainsFunc(tokens, func(t string) bool { return choiceHeld(itemText(page, it), t) }) {
			return "", nil
		}
		for _, o := range likeItems(page, it) {
			if o.from == it.from || slices.ContainsFunc(from, func(f pageItem) bool { return f.from == o.from }) {
				continue
			}
			for _, t := range tokens {
				if choiceHeld(itemText(page, o), t) {
					passed = appendNew(passed, t)
				}
			}
		}
	}
	if len(passed) == 0 {
		return "", nil
	}
	return itemName(page, from[0]), passed
}

// optionRole is the role of a menu's entries on a page's tree.
const optionRole = "option"

// pageOptions returns the names of the options a page's menus list
// ("[a316] option 'Pending', selected=False"), in lower case, each once:
// the choices an agent selects one of. nil for a text that is no page.
func pageOptions(content string) []string {
	var out []string
	for _, e := range pageElements(content) {
		if e.role != optionRole {
			continue
		}
		if n := elementName(e.text); n != "" && len(n) <= maxChoiceLen {
			out = appendNew(out, n)
		}
	}
	return out[:min(len(out), maxChoices)]
}

// Rewrite is a call's value that writes a name the task gives with one
// of its words put otherwise.
type Rewrite struct {
	// Name is the task's name, in lower case; Word the value's word that
	// stands in for one of its words.
	Name string `json:"name"`
	Word string `json:"word"`
}

// readRewrites sets Rewrites on each call of an agent's step given a
// value that writes a name the task gives in quotes (two words or more)
// with one of its words put otherwise: the same words in the same order
// but one, which is no form of the task's word (neither begins the
// other). A search for the merge request of another title, a form given
// another product's name, is not the task's.
func readRewrites(r *run.Run, rf *RunFeatures) {
	var names [][]string
	for line := range strings.SplitSeq(strings.ToLower(withoutPage(r.Question)), "\n") {
		for _, n := range quotedNames(line) {
			names = append(names, strings.Fields(n))
		}
	}
	if len(names) == 0 {
		return
	}
	for i := range r.Steps {
		if !agentChoosing(r, rf, i) {
			continue
		}
		for k, c := range rf.Steps[i].Calls {
			for _, v := range c.Values {
				name, word := rewritten(names, v)
				if name == "" {
					continue
				}
				if c.Rewrites == nil {
					rf.Steps[i] = rf.Steps[i].Clone()
					rf.Steps[i].Calls = slices.Clone(rf.Steps[i].Calls)
				}
				rf.Steps[i].Calls[k].Rewrites = &Rewrite{Name: name, Word: word}
				break
			}
		}
	}
}

// rewritten returns the name of names (each as its words) that v writes
// with one word put otherwise, and v's word in its place; "" when none.
func rewritten(names [][]string, v string) (name, word string) {
	w := strings.Fields(strings.ToLower(v))
	for _, n := range names {
		if len(n) != len(w) {
			continue
		}
		at := -1
		for k := range n {
			if strings.Trim(n[k], ".,;:!?") == strings.Trim(w[k], ".,;:!?") {
				continue
			}
			if at >= 0 {
				at = -2
				break
			}
			at = k
		}
		if at < 0 {
			continue
		}
		a, b := strings.Trim(n[at], ".,;:!?"), strings.Trim(w[at], ".,;:!?")
		if len(b) < 2 || strings.HasPrefix(a, b) || strings.HasPrefix(b, a) {
			continue
		}
		return strings.Join(n, " "), b
	}
	return "", ""
}

// dropStaleErrors leaves out of each page an agent's action brought
// (a tool's result that is a page's tree) the errors its elements show
// that the page before it showed too ("[710] StaticText 'We couldn't
// find any records.'" on a report's form before and after a date is
// typed into it): a notice the page kept, not a failure of the action.
func dropStaleErrors(r *run.Run, rf *RunFeatures) {
	var before map[string]bool // the element texts of the last page
	for j, s := range r.Steps {
		els := pageElements(s.Content)
		if els == nil {
			continue
		}
		texts := make(map[string]bool, len(els))
		for _, e := range els {
			texts[e.text] = true
		}
		if f := &rf.Steps[j]; before != nil && f.Has(KindToolResult) && len(f.Errors) > 0 {
			stale := func(sig Signal) bool {
				if sig.Offset < 0 || sig.Offset >= len(s.Content) {
					return false
				}
				start := strings.LastIndexByte(s.Content[:sig.Offset], '\n') + 1
				end := strings.IndexByte(s.Content[sig.Offset:], '\n')
				if end < 0 {
					end = len(s.Content) - sig.Offset
				}
				e, ok := elementLine(s.Content[start : sig.Offset+end])
				if !ok {
					e, ok = ariaLine(s.Content[start : sig.Offset+end])
				}
				return ok && before[e.text]
			}
			if slices.ContainsFunc(f.Errors, stale) {
				f.Errors = slices.DeleteFunc(slices.Clone(f.Errors), stale)
			}
		}
		before = texts
	}
}

// quantityWords name a page's field that takes how many of a thing.
var quantityWords = toSet("qty quantity")

// readQuantities sets Requantity on each call of an agent's step that
// enters a whole number into a field of the last page before it whose
// element names a quantity ("[160] spinbutton 'Qty'", "[8]<input
// name=qty />"), where the task states one count, another: the agent
// orders three where the task asks for two.
func readQuantities(r *run.Run, rf *RunFeatures) {
	var want *Count
	for _, c := range counts(withoutPage(withoutActionDocs(r.Question))) {
		switch {
		case want == nil:
			want = &c // the word right after the number
		case want.Value != c.Value:
			return // the task counts more than one thing
		}
	}
	if want == nil {
		return
	}
	for i := range r.Steps {
		if !agentChoosing(r, rf, i) || len(rf.Steps[i].Calls) == 0 {
			continue
		}
		page, _ := lastPage(r, i)
		if page == nil {
			continue
		}
		for k, c := range rf.Steps[i].Calls {
			id, v := enteredInto(c)
			n, err := strconv.Atoi(v)
			at := slices.IndexFunc(page, func(e pageElement) bool { return id != "" && e.id == id })
			if err != nil || n < 0 || n >= 100 || n == want.Value || at < 0 || !slices.ContainsFunc(strings.FieldsFunc(page[at].text, func(r rune) bool {
				return !unicode.IsLetter(r)
			}), func(w string) bool { return quantityWords[w] }) {
				continue
			}
			if rf.Steps[i].Calls[k].Requantity == nil {
				rf.Steps[i] = rf.Steps[i].Clone()
				rf.Steps[i].Calls = slices.Clone(rf.Steps[i].Calls)
			}
			rf.Steps[i].Calls[k].Requantity = &Count{Noun: want.Noun, Value: want.Value}
		}
	}
}

// enteredInto returns the element a call types into and what it types:
// an action on a page's element (OnPage) with one value, or JSON
// arguments of which an object at any depth gives an element's id
// (index, ref, bid) and a text (text, value): browser-use's input_text,
// Playwright MCP's browser_type. "" when it enters nothing.
func enteredInto(c Call) (id, text string) {
	if c.OnPage {
		if len(c.Values) == 1 {
			return elementArg(c), c.Values[0]
		}
		return "", ""
	}
	var v any
	if !strings.Contains(c.Args, "{") || json.Unmarshal([]byte(c.Args), &v) != nil {
		return "", ""
	}
	var walk func(v any) bool
	walk = func(v any) bool {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range []string{"index", "ref", "bid"} {
				for _, t := range []string{"text", "value"} {
					e, ok := x[t].(string)
					if !ok {
						continue
					}
					switch n := x[k].(type) {
					case float64:
						id, text = strconv.FormatFloat(n, 'f', -1, 64), e
						return true
					case string:
						id, text = n, e
						return true
					}
				}
			}
			for _, k := range sortedKeys(x) {
				if walk(x[k]) {
					return true
				}
			}
		case []any:
			for _, e := range x {
				if walk(e) {
					return true
				}
			}
		}
		return false
	}
	walk(v)
	return id, strings.TrimSpace(text)
}
