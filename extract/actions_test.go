package extract

import (
	"encoding/json"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	matching "github.com/offattr/offattr/internal/match"
	"github.com/offattr/offattr/run"
)

// gateSeeds hold policies, written calls and near misses, with runes whose
// lower case the patterns read otherwise: "ſ" (long s), the Kelvin sign,
// "İ".
var gateSeeds = []string{
	"Items can only be exchanged if the status is 'delivered'. EXPLICITLY AGREE first; CONFIRMS.",
	"You must confirm. Orders can only be cancelled if its status is 'pending'. Fine.",
	"NEVER do that; ſhould not either. Do\u212A not. İt is requİred before unless.",
	"call get_order({\"id\": \"#W1\"})\n  Action: search([1, 2])\nprint(len(x))\nfoo()\n;\n",
	"(e.g. this) and (that) ( {x} )", "call\n\nfoo()", "cancel_order ({\"id\": 1})",
}

// checkGates holds the word gates to the patterns they spare: a sentence
// the confirmation or state rule pattern matches holds its words (where
// the lower case is aligned), a text where the call pattern finds a call
// holds "({", "([" or "()", and sentenceWords says what each sentence
// holds in lower case of the injection words.
func checkGates(t *testing.T, s string) {
	lower, aligned := matching.FoldCase(s)
	spans := sentenceSpans(s)
	if aligned {
		for _, sp := range spans {
			sent, l := s[sp[0]:sp[1]], lower[sp[0]:sp[1]]
			if confirmRe.MatchString(sent) {
				assert.True(t, strings.Contains(l, "confirm") || strings.Contains(l, "explicit"), "%q", sent)
			}
			if stateRuleRe.MatchString(sent) {
				assert.True(t, strings.Contains(l, "can only be"), "%q", sent)
			}
		}
		held := sentenceWords(s, lower, aligned, spans, injectionWordSet)
		for k, sp := range spans {
			var want uint64
			for bit, w := range injectionWordSet.words {
				if strings.Contains(strings.ToLower(s[sp[0]:sp[1]]), w) {
					want |= 1 << bit
				}
			}
			assert.Equal(t, want, held[k], "%q", s[sp[0]:sp[1]])
		}
	}
	if len(s) <= maxCallScan && textCallGo.MatchString(s) {
		assert.True(t, strings.Contains(s, "({") || strings.Contains(s, "([") || strings.Contains(s, "()"), "%q", s)
	}
}

// TestWordGatesAreNecessary checks the gates on the seeds and on a sample
// of both corpora's steps (running the patterns on every sentence is what
// the gates spare); -sweep checks every step.
func TestWordGatesAreNecessary(t *testing.T) {
	every := sampleEvery(5, 5)
	texts := append([]string{}, gateSeeds...)
	names, runs := corpusRuns(t)
	for _, s := range sampledSteps(names, runs, every, func(s run.Step) bool { return s.Kind == run.KindSystem }) {
		texts = append(texts, s.Content)
	}
	for _, s := range texts {
		checkGates(t, s)
	}
}

func FuzzWordGates(f *testing.F) {
	for _, s := range gateSeeds {
		f.Add(s)
	}
	f.Fuzz(checkGates)
}

// sentenceSpansByByte is sentenceSpans by its definition: the ends are
// the bytes that end a sentence, and the spans between them are kept
// unless blank.
func sentenceSpansByByte(s string) [][2]int {
	ends := []int{}
	for i := range len(s) {
		next := byte(' ')
		if i+1 < len(s) {
			next = s[i+1]
		}
		if s[i] == '\n' || strings.IndexByte(".!?", s[i]) >= 0 && (next == ' ' || next == '\n') {
			ends = append(ends, i+1)
		}
	}
	var out [][2]int
	start := 0
	for _, end := range append(ends, len(s)) {
		if strings.TrimSpace(s[start:end]) != "" {
			out = append(out, [2]int{start, end})
		}
		start = end
	}
	return out
}

func FuzzSentenceSpans(f *testing.F) {
	for _, s := range append(gateSeeds, orderSeeds...) {
		f.Add(s)
	}
	f.Add("a.b. c!d?\n\n e...  f?! g.")
	f.Add("abcdefg.hijklmn. opqrstu!\nvwxyz12?")
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, sentenceSpansByByte(s), sentenceSpans(s), "%q", s)
	})
}

// TestAffirmsReadsTheHeadAsTheWhole holds affirms, which reads only a
// message's first affirmHead bytes, to affirmRe over the whole message,
// at the cut's edges: a word that goes on past where the head ends, runes
// that fold to ASCII in more bytes, and a cut inside a rune.
func TestAffirmsReadsTheHeadAsTheWhole(t *testing.T) {
	long := strings.Repeat(" and then some more words", 40)
	for _, tt := range []struct {
		msg  string
		want bool
	}{
		{"Yes, go ahead." + long, true},
		{"Yesterday I went." + long, false},
		{"** ok" + long, true},
		{"okapi" + long, false},
		{"«» Please go ahead", true},
		{"«»« PLEASE GO AHEAD" + long, true},
		{"«»« PLEASE GO AHEADs" + long, false},
		{"«»«» please go ahead", false}, // five runes of \W
		{"please go ahead" + strings.Repeat("é", affirmHead), true},
		{strings.Repeat("é", affirmHead) + " yes", false},
		{"", false},
	} {
		assert.Equal(t, tt.want, affirms(tt.msg), "%.40q", tt.msg)
		assert.Equal(t, affirmRe.MatchString(tt.msg), opensWithYes(tt.msg), "%.40q", tt.msg)
	}
	// The Kelvin sign folds to "k" in three bytes, and Go's \b is ASCII.
	for _, msg := range []string{"o\u212A" + long, "o\u212Aapi" + long, strings.Repeat("«", 4) + strings.Repeat("\u212A", 20)} {
		assert.Equal(t, affirmRe.MatchString(msg), opensWithYes(msg), "%.40q", msg)
	}
}

func FuzzAffirms(f *testing.F) {
	for _, s := range []string{"yes", "Yesterday", "«» please go ahead!", "o\u212A", "sure" + strings.Repeat("x", 90)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got, want := opensWithYes(s), affirmRe.MatchString(s); got != want {
			t.Fatalf("opensWithYes(%q) = %v, affirmRe says %v", s, got, want)
		}
	})
}

// FuzzResultTool holds resultTool, which reads only a result's first
// resultToolHead bytes, to resultToolRe over the whole result.
func FuzzResultTool(f *testing.F) {
	long := strings.Repeat("x", 64)
	for _, s := range []string{"get_order -> {}", "  get_order: 1", long + " -> {}", long + "y -> {}", "\t\t\t\t" + long + "  => ok", "é: x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		want := ""
		if m := resultToolRe.FindStringSubmatch(s); m != nil {
			want = m[1]
		}
		if got := resultTool(s, map[string]bool{want: true}); got != want {
			t.Fatalf("resultTool(%q) = %q, resultToolRe says %q", s, got, want)
		}
	})
}

// textCallGo is textCallRe as Go's regexp reads it: textCallRe must match
// exactly what it matches, with the same groups.
var textCallGo = regexp.MustCompile(`(?m)^[ \t>*-]{0,4}(?:(?i:call|calling|invoke|invoking|action|tool call|function call|tool)\s{0,2}:?\s{1,2})?([A-Za-z_][\w.-]{0,63})\((\{.*\}|\[.*\]|)\)\s*;?\s*$`)

// callSlots are the parts of a random line for textCallRe, in order, each
// drawn from its choices: the words and punctuation the pattern reads, and
// runes that Go's regexp and regexp2 read otherwise (the dotted and
// dotless i, the Kelvin sign, the long s, a vertical tab, a combining
// mark, letters beyond ASCII, invalid UTF-8).
var callSlots = [][]string{
	{"", "", " ", "\t", "> ", "* ", "-", "     ", "é", "\xff"},
	{"", "call", "CALLING", "Invoke", "İnvoke", "ınvoking", "action", "tool call", "Function\tCall", "TOOL", "\u212Aall", "ſ"},
	{"", " ", ":", ": ", "\v", "\n", "  \n", "\r", "\f", " : ", "\u0301"},
	{"get_order", "x.y-z", "_", "é", "a\u0301", "ℌx", "f\xff", "9f", "", "name"},
	{"(", "(", "(", " (", ")"},
	{"{", "[", "", "", "{\"a\": 1", "[1, {", "(", "\xc3"},
	{"}", "]", "", "})", "]]", "\n}", "ſ}", "x"},
	{")", ")", "", ");", ") ;", ")\v"},
	{"", "", " ", "\n", "\t\n\n", "\v", ";", "x", "\u00a0"},
}

// randomLines joins up to eight lines drawn by r from callSlots.
func randomLines(r *rand.Rand) string {
	var b strings.Builder
	for range 1 + r.IntN(8) {
		for _, choices := range callSlots {
			b.WriteString(choices[r.IntN(len(choices))])
		}
		if r.IntN(3) > 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// checkTextCall holds textCallRe to textCallGo on s: the same matches,
// with the same groups, as calls reads them.
func checkTextCall(t *testing.T, s string) {
	t.Helper()
	want := textCallGo.FindAllStringSubmatchIndex(s, 20)
	var got [][]int
	for _, m := range newText(s).find(textCallRe, 20) {
		name, args := m.Group("name"), m.Group("args")
		got = append(got, []int{m.Whole().Start, m.Whole().End, name.Start, name.End, args.Start, args.End})
	}
	assert.Equal(t, want, got, "%q", s)
}

// textCallSeeds are lines where Go's regexp and regexp2 would differ.
var textCallSeeds = []string{"İnvoke: f({})", "\u212Aall f()", "tool\v f()", "f({\xff})\n\n", "é()", "call é()", "f()\v", "ſ f()", "x\u0301()"}

func TestTextCallReadsAsGo(t *testing.T) {
	for _, s := range append(gateSeeds, textCallSeeds...) {
		checkTextCall(t, s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		checkTextCall(t, randomLines(r))
	}
	names, runs := corpusRuns(t)
	for _, s := range sampledSteps(names, runs, sampleEvery(1, 1), func(run.Step) bool { return true }) {
		checkTextCall(t, s.Content)
	}
}

func FuzzTextCall(f *testing.F) {
	for _, s := range append(gateSeeds, textCallSeeds...) {
		f.Add(s)
	}
	f.Fuzz(checkTextCall)
}

// policyGo is policyRe as Go's regexp reads it, run over each sentence
// alone: policies must pick exactly the sentences it matches.
var policyGo = regexp.MustCompile(`(?i)\b(?:must|must not|never|only|always|should not|shouldn't|do not|don't|cannot|can't|not allowed|required?|before|unless|confirm(?:ation)?)\b`)

// policyPieces are the parts random policy texts are made of: the words
// policyRe reads, spelt with runes that Go's regexp and regexp2 read
// otherwise, and the bytes around them.
var policyPieces = []string{
	"must", "MUST", "muſt", "never", "only", "always", "alwayſ", "should not", "ſhouldn't", "do not", "DON'T", "cannot", "can't",
	"not allowed", "require", "required", "before", "unless", "unleſſ", "confirm", "confirmation", "İ", "ı", "K",
	" ", ".", ". ", "!", "?", "\n", "_", "x", "9", "é", "\u0301", "\xff", "'", "-", "\t",
}

// checkPolicies holds policies to policyGo on s: the same sentences,
// beside those that only ask for agreement (consentRe).
func checkPolicies(t *testing.T, s string) {
	t.Helper()
	if len(s) > maxCallScan*4 {
		s = s[:maxCallScan*4]
	}
	var want, got []int
	for _, sp := range sentenceSpans(s) {
		if policyGo.MatchString(s[sp[0]:sp[1]]) || consentRe.MatchString(s[sp[0]:sp[1]]) {
			want = append(want, sp[0])
		}
	}
	for _, p := range policies(newText(s)) {
		got = append(got, p.Offset)
	}
	assert.Equal(t, want, got, "%q", s)
}

func TestPoliciesReadAsGo(t *testing.T) {
	for _, s := range gateSeeds {
		checkPolicies(t, s)
	}
	r := rand.New(rand.NewPCG(3, 4))
	for range 20000 {
		checkPolicies(t, randomText(r, policyPieces, 1+r.IntN(16)))
	}
	names, runs := corpusRuns(t)
	for _, s := range sampledSteps(names, runs, sampleEvery(1, 1), func(run.Step) bool { return true }) {
		checkPolicies(t, s.Content)
	}
}

func FuzzPolicies(f *testing.F) {
	for _, s := range append(gateSeeds, "muſt x", "xſhould not", "émust", "must́") {
		f.Add(s)
	}
	f.Fuzz(checkPolicies)
}

// randomText joins n pieces drawn by r.
func randomText(r *rand.Rand, pieces []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(pieces[r.IntN(len(pieces))])
	}
	return b.String()
}

// A call given a patch as its whole input (Codex CLI's apply_patch, in
// the envelope its docs give; a unified diff) acts on the files the patch
// names on its head lines; text that is neither JSON nor a patch has no
// values.
func TestArgValuesOfPatches(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       []string
	}{
		{"codex envelope", "*** Begin Patch\n*** Update File: /repo/tests/test_pager.py\n@@\n-    assert page_count(21, 10) == 3\n+    assert page_count(21, 10) == 2\n*** Add File: docs/pager.md\n+# Pager\n*** End Patch\n", []string{"/repo/tests/test_pager.py", "docs/pager.md"}},
		{"unified diff", "--- a/pager/count.py\n+++ b/pager/count.py\n@@ -7 +7 @@\n-    return total // per_page\n+    return -(-total // per_page)\n", []string{"pager/count.py"}},
		{"json", `{"path": "/repo/pager/count.py"}`, []string{"/repo/pager/count.py"}},
		{"prose", "print the totals *** now", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ArgValues(tt.args))
		})
	}
}

// TestStructuredCallReadOnce: a step whose structured call a log also
// writes out in its text ("check_stock({...})", as a chat transcript's
// tool-call message is read) makes one call, however the text spaces or
// orders the arguments; a second call written in the text with other
// arguments is a call of its own. Shape: an OpenAI chat message with
// tool_calls.
func TestStructuredCallReadOnce(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       int
	}{
		{"as written", `check_stock({"sku": "TR2-43", "store": "Berlin"})`, 1},
		{"respaced and reordered", `check_stock({"store":"Berlin","sku":"TR2-43"})`, 1},
		{"other arguments", `check_stock({"sku": "TR2-44", "store": "Berlin"})`, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "chat.json", Question: "Is the TrailRunner 2 in stock?", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Is the TrailRunner 2 in stock?"},
				{Index: 1, Agent: "inventory_agent", Kind: run.KindToolCall, Content: tt.text,
					Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "check_stock", Arguments: `{"sku": "TR2-43", "store": "Berlin"}`}}}},
			}}
			assert.Len(t, Run(r).Steps[1].Calls, tt.want)
		})
	}
}

// TestPolicyAsksConfirmation: a policy asks for the other party's yes by
// the word confirm or in other words ("get the patient's yes"); a
// confirmation's or an approval's word that names a thing a system
// issues (an approval code, a confirmation number or email) asks no one's.
func TestPolicyAsksConfirmation(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
	}{
		{"Before booking, get the patient's yes.", true},
		{"Before booking, wait for the go-ahead.", true},
		{"Get my OK before you book anything.", true},
		{"You must obtain explicit user confirmation (yes) to proceed.", true},
		{"Always confirm the details with the customer before acting.", true},
		{"You must get an approval code from the payment gateway before issuing a refund.", false},
		{"Do not close the ticket until you receive an agreement number from the vendor.", false},
		{"Always send a confirmation email after a booking.", false},
		{"Never issue a refund before you get the confirmation number, and confirm the amount with the user.", true},
		{"Before booking, read the booking back to the customer and get a yes.", true},
		{"Suspending a line needs the customer's yes.", true},
		{"A refund requires the member's explicit consent.", true},
		{"Only cancel a plan after the customer confirms.", true},
		{"You must not change a reservation until the caller agrees.", true},
		{"Never move money without the account holder's OK.", true},
		{"Confirm the customer's identity before any account action.", false},
		{"You must confirm their identity first.", false},
		{"The customer may confirm by email if they prefer.", false},
		{"Suspending a line must be logged with a reason code.", false},
	} {
		ps := policies(newText(tt.text))
		if assert.Len(t, ps, 1, tt.text) {
			assert.Equal(t, tt.want, ps[0].Confirm, tt.text)
		}
	}
}

// TestConfirmationPolicyScope: a confirmation policy that names its
// actions holds the calls whose verb it names; one that holds any action,
// or names none, holds every call.
func TestConfirmationPolicyScope(t *testing.T) {
	for _, tt := range []struct {
		text, call string
		want       bool
	}{
		{"Suspending a line needs the customer's yes.", "suspend_line", true},
		{"Suspending a line needs the customer's yes.", "change_plan", false},
		{"Before booking, read the booking back to the customer and get a yes.", "book_seat", true},
		{"Before booking, read the booking back to the customer and get a yes.", "cancel_booking", false},
		{"Do not exchange or return items until the customer agrees to the details.", "return_delivered_order_items", true},
		{"An order can be cancelled only after the customer confirms.", "cancel_pending_order", true},
		{"Before any action that updates the database (booking, modifying flights), obtain explicit user confirmation (yes).", "cancel_reservation", true},
		{"Before consequential actions (cancel, modify), obtain explicit user confirmation (yes) to proceed.", "update_address", true},
		{"Always obtain explicit confirmation.", "transfer", true},
		{"An order is modified only after the customer confirms.", "modify_order", true},
		{"A plan is modified only after the customer confirms.", "cancel_plan", false},
		{"A modification of a plan needs the customer's explicit yes.", "cancel_plan", false},
		{"Cancel a movie ticket only after the customer confirms.", "move_seat", false},
		{"Update the closet inventory only after the customer confirms.", "close_account", false},
		{"Update a bookmark only after the customer confirms.", "book_flight", false},
	} {
		ps := policies(newText(tt.text))
		if assert.Len(t, ps, 1, tt.text) {
			assert.Equal(t, tt.want, ps[0].Covers(newCall(tt.call, `{}`, -1)), "%s / %s", tt.text, tt.call)
		}
	}
}

// TestTaskAsksForAReport: a user's task that asks the agent to confirm a
// thing back ("and confirm the slot") asks for a report, not for the
// agent to wait for the user's agreement; one that says the user will
// confirm, and a system prompt's rule, still ask for confirmation.
func TestTaskAsksForAReport(t *testing.T) {
	for _, tt := range []struct {
		kind    run.Kind
		content string
		want    bool
	}{
		{run.KindUser, "Schedule a 30-minute review with Dana on 11 March 2026 at 10:00 and confirm the slot.", false},
		{run.KindUser, "Please confirm the booking reference once it is done.", false},
		{run.KindUser, "Find me a flight, but confirm with me before you book it.", true},
		{run.KindUser, "Do not book anything until I confirm the price.", true},
		{run.KindUser, "Please book a table for 4 at 19:00 under the name Okafor, and send me a confirmation once it's done.", false},
		{run.KindUser, "Book the room and email us the confirmation when you have it.", false},
		{run.KindUser, "Pick the cheapest fare, but wait for my confirmation before you pay.", true},
		{run.KindUser, "Do not submit the order without confirmation.", true},
		{run.KindUser, "Find me a double room in Lyon and wait for the go-ahead from me before you book anything.", true},
		{run.KindUser, "Find me a double room in Lyon. Get my OK before you book anything.", true},
		{run.KindUser, "Refund the order, but get the manager's approval before you pay it out.", true},
		{run.KindSystem, "Before any booking, you must confirm the details with the user.", true},
	} {
		r := &run.Run{Source: "test.json", Question: tt.content}
		r.Steps = append(r.Steps, run.Step{Index: 0, Agent: "user", Kind: tt.kind, Content: tt.content})
		if tt.kind == run.KindSystem {
			r.Question = "Book me a flight to Lisbon."
			r.Steps = append(r.Steps, run.Step{Index: 1, Agent: "user", Kind: run.KindUser, Content: r.Question})
		}
		f := Run(r)
		confirm := false
		for _, st := range f.Steps {
			for _, p := range st.Policies {
				confirm = confirm || p.Confirm
			}
		}
		assert.Equal(t, tt.want, confirm, tt.content)
	}
}

// TestArgValuesOfCode: a call given code to run has as its values the
// literal arguments of the calls the code writes (keyword values, strings
// beside words of the code's own vocabulary, a call given arithmetic as
// written), not the code, nor where a desktop agent's pointer acts; code
// that calls nothing is kept whole.
func TestArgValuesOfCode(t *testing.T) {
	for _, tt := range []struct {
		name, code string
		want       []string
	}{
		{"app call", "print(apis.venmo.create_transaction(receiver_email='k.harris@gmail.com', amount=30.5, access_token=access_token, description=\"Dinner at Lucia\"))", []string{"k.harris@gmail.com", "30.5", "Dinner at Lucia"}},
		{"vocabulary", "print(apis.api_docs.show_api_doc(app_name='venmo', api_name='show_transactions', sort_by='-created_at'))", nil},
		{"arithmetic", "print(round(543/2310*100, 1))", []string{"round(543/2310*100, 1)"}},
		{"f-string", "print(f\"total {total}\")", nil},
		{"no call", "x = 2 + 2", []string{"x = 2 + 2"}},
		{"desktop pointer", "import pyautogui; pyautogui.click(612, 418); pyautogui.dragTo(x=10, y=20, duration=0.5); pyautogui.typewrite('48231.50')", []string{"48231.50"}},
	} {
		args, err := json.Marshal(map[string]string{"code": tt.code})
		require.NoError(t, err)
		assert.Equal(t, tt.want, ArgValues(string(args)), tt.name)
	}
}

// TestBlockCallsOfCodeRun: a Python block in a message that an executor
// then runs (its next turn prints an exit code and the output) is read as
// a call, keeping of its literal arguments only the figures the task or
// an earlier step writes otherwise, a digit other or two swapped; a block
// no one runs, a value the block assigns and then passes by name, its
// own bounds and a figure the run holds make none.
func TestBlockCallsOfCodeRun(t *testing.T) {
	const task = "By what percentage did TSLA's closing price change over 2021? Issue #48123 has the data notes."
	for _, tt := range []struct {
		name, code string
		ran        bool
		want       []string
	}{
		{"another year", `data = yf.download("TSLA", start="2022-01-01", end="2022-12-31")` + "\nprint(data)", true, []string{"2022-01-01", "2022-12-31"}},
		{"the task's year", `data = yf.download("TSLA", start="2021-01-01", end="2021-12-31")` + "\nprint(data)", true, nil},
		{"not run", `data = yf.download("TSLA", start="2022-01-01", end="2022-12-31")` + "\nprint(data)", false, nil},
		{"digits swapped in a tuple", `cur.execute("SELECT body FROM issues WHERE id = ?", (48213,))` + "\nprint(cur.fetchone())", true, []string{"48213"}},
		{"assigned, then passed by name", "url = \"https://api.github.com/repos/x/y/issues/48213\"\nprint(requests.get(url).json())", true, nil},
		{"its own bounds", "print(sum(counts[y] for y in range(2021, 2031)))", true, nil},
	} {
		steps := []run.Step{
			{Index: 0, Agent: "user_proxy", Kind: run.KindMessage, Content: task},
			{Index: 1, Agent: "assistant", Kind: run.KindMessage, Content: "Let me fetch it.\n\n```python\n" + tt.code + "\n```"},
		}
		if tt.ran {
			steps = append(steps, run.Step{Index: 2, Agent: "user_proxy", Kind: run.KindMessage, Content: "exitcode: 0 (execution succeeded)\nCode output: \n[done]\n"})
		} else {
			steps = append(steps, run.Step{Index: 2, Agent: "critic", Kind: run.KindMessage, Content: "Looks fine to me."})
		}
		rf := Run(&run.Run{Source: "chat.json", Question: task, Steps: steps})
		var got []string
		for _, c := range rf.Steps[1].Calls {
			if c.Block() {
				got = append(got, c.Values...)
			}
		}
		assert.Equal(t, tt.want, got, tt.name)
	}
}

// TestAgentStateIsNoValue: browser-use's AgentOutput gives its actions
// beside the agent's state (its evaluation, memory and next goal): only
// the actions' arguments are the call's values.
func TestAgentStateIsNoValue(t *testing.T) {
	c := newCall("AgentOutput", `{"current_state": {"evaluation_previous_goal": "Unknown - starting", "memory": "Need the orders.", "next_goal": "Open them"}, "action": [{"input_text": {"index": 8, "text": "3"}}]}`, -1)
	assert.Equal(t, []string{"8", "3"}, c.Values)
	assert.Equal(t, []string{"Open them"}, newCall("note", `{"current_state": "Open them"}`, -1).Values)
}

// TestDeferredYes: an agreement that waits for someone else's approval
// ("yes, once my supervisor signs off") is not yet the customer's yes; an
// agreement with an approval already given, or with a condition the one
// asked can meet, is, and so is one that asks to hear when the change
// it agreed to is approved.
func TestDeferredYes(t *testing.T) {
	for _, tt := range []struct {
		msg  string
		want bool
	}{
		{"Yes, go ahead.", true},
		{"Yes, once my supervisor signs off on the £86. I'll ask her this afternoon.", false},
		{"Yes, after the manager approves it.", false},
		{"OK, but only when finance gives the go-ahead.", false},
		{"Sure, pending my manager's approval.", false},
		{"Yes, but I have to check with my office manager first.", false},
		{"Okay, as soon as it's approved by my boss.", false},
		{"Yes, cancel it. My manager already approved the cancellation this morning.", true},
		{"Yes, if the refund goes to my card.", true},
		{"Yes please, once you're done send me the receipt.", true},
		{"Oui.", true},
		{"Ja, bitte.", true},
		{"Jahrelang war ich Kunde.", false},
		{"Ouija boards are not on sale.", false},
		{"Yes, please proceed. Let me know once the refund is approved.", true},
		{"Yes please. How long until it gets approved?", true},
		{"Yes, go ahead. Once you've approved it, send me the receipt.", true},
		{"Yes, once it's signed off by my manager.", false},
		{"Yes, once the change is approved by finance.", false},
		{"Yes. Once my supervisor signs off.", false},
		{"Yes, go ahead and cancel it. After my manager approves next quarter's budget we'll order again.", true},
		{"Yes, please refund it to my card; that's the one ending 4421, which I use for everything. When the finance team approves the new budget I'll reorder.", true},
	} {
		assert.Equal(t, tt.want, affirms(tt.msg), tt.msg)
	}
}

// TestYesInOtherWords: a customer's yes may be said as "sounds good", or
// in Spanish, with its accent or without; a word that only begins so is
// none.
func TestYesInOtherWords(t *testing.T) {
	for _, tt := range []struct {
		msg  string
		want bool
	}{
		{"Sounds good — go ahead.", true},
		{"Sounds great, book it.", true},
		{"Sí, por favor.", true},
		{"Si, adelante.", true},
		{"SÍ.", true},
		{"Sí", true},
		{"Sincerely, I have no idea.", false},
		{"Simon said so.", false},
		{"Síntomas: fiebre.", false},
		{"Sounds odd to me.", false},
	} {
		assert.Equal(t, tt.want, affirms(tt.msg), tt.msg)
	}
}

// TestScreenActionValues: an action on a screen (Anthropic's computer
// tool, OpenAI's computer_call, a desktop agent's click tool) gives the
// point it acts at and the operation it does, neither a value the agent
// claims; only what it types is.
func TestScreenActionValues(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       []string
		numbers    []Field
	}{
		{"screenshot", `{"action": "screenshot"}`, nil, nil},
		{"left click", `{"action": "left_click", "coordinate": [538, 322]}`, nil, nil},
		{"type", `{"action": "type", "text": "1Z84X0920371553"}`, []string{"1Z84X0920371553"}, nil},
		{"key", `{"action": "key", "text": "ctrl+s"}`, nil, nil},
		{"drag", `{"action": "left_click_drag", "start_coordinate": [10, 20], "coordinate": [300, 40]}`, nil, nil},
		{"openai click", `{"button": "left", "type": "click", "x": 318, "y": 92}`, nil, nil},
		{"openai type", `{"text": "1520.00", "type": "type"}`, []string{"1520.00"}, nil},
		{"openai keypress", `{"keys": ["CTRL", "S"], "type": "keypress"}`, nil, nil},
		{"openai drag", `{"path": [{"x": 10, "y": 20}, {"x": 30, "y": 40}], "type": "drag"}`, nil, nil},
		{"openai scroll", `{"scroll_x": 0, "scroll_y": 400, "type": "scroll", "x": 640, "y": 360}`, nil, nil},
		{"a click tool", `{"x": 96, "y": 244}`, nil, nil},
		// Not screen actions: a tool's own fields stay values.
		{"a plan's type", `{"type": "prepaid"}`, []string{"prepaid"}, nil},
		{"a quantity", `{"sku": "K-204", "qty": 3}`, []string{"3", "K-204"}, []Field{{Key: "qty", Value: "3"}}},
		{"one coordinate", `{"x": 12, "label": "A"}`, []string{"A", "12"}, []Field{{Key: "x", Value: "12"}}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := newCall("computer", tt.args, -1)
			assert.Equal(t, tt.want, c.Values)
			assert.Equal(t, tt.numbers, c.ArgNumbers())
		})
	}
}

// TestPicks: a message that opens by picking one of the choices offered,
// by a time of day, "the … one" or an id, is a pick, with a yes after it
// or none; a request that names no choice so, a question, a refusal and a
// long sentence are none.
func TestPicks(t *testing.T) {
	for _, tt := range []struct {
		msg  string
		want bool
	}{
		{"The 10 am one please, HAT170. Yes, book it.", true},
		{"Ines at 2:30 please", true},
		{"HAT170, please.", true},
		{"I'll take the blue one.", true},
		{"Let's go with 4pm.", true},
		{"The 10am one please, once my manager approves.", false},
		{"The 10 am one please. Yes, book it.", true},
		{"Cancel order W1234567 please.", false},
		{"Can I have the 10 am one please?", false},
		{"Not the 10 am one please, the later one.", false},
		{"Please cancel the 10 am one.", false},
		{"Yes, go ahead.", false},
		{"I would like to know whether the 10 am one is still free please, for my mother.", false},
		{"", false},
	} {
		assert.Equal(t, tt.want, picks(tt.msg), tt.msg)
	}
	// A yes after the pick agrees to the choice picked.
	assert.True(t, affirms("The 10 am one please, HAT170. Yes, book it."))
	assert.False(t, affirms("The 10 am one please."))
	assert.False(t, affirms("Cancel order W1234567 please. Yes, do it."))
}

// TestAsksChoice: a message that ends by asking which of some things to
// take asks a choice; one that asks to agree to one thing does not.
func TestAsksChoice(t *testing.T) {
	for _, tt := range []struct {
		msg  string
		want bool
	}{
		{"There is 10 am or 2 pm. Which would you like?", true},
		{"Would you like 10 am or 2 pm?", true},
		{"Ines has 2:30 free, or Ravi at 4. Shall I put you in with Ines at 2:30?", false},
		{"Which one? I will wait.", false},
		{"Which one?" + strings.Repeat(" ", 500), true},
		{strings.Repeat(" ", 500) + "?", false},
	} {
		assert.Equal(t, tt.want, asksChoice(tt.msg), "%.60q", tt.msg)
	}
}

// TestClockTime: a word is a time of day with an hour of the day and
// minutes of an hour, or an hour of a half-day before am or pm; minutes
// and seconds ("45:30") or an hour past the day's are not.
func TestClockTime(t *testing.T) {
	for _, tt := range []struct {
		w    string
		want bool
	}{
		{"2:30", true},
		{"23:59", true},
		{"10am", true},
		{"4:15pm", true},
		{"45:30", false},
		{"24:30", false},
		{"9:75", false},
		{"13pm", false},
	} {
		assert.Equal(t, tt.want, clockTime(tt.w), tt.w)
	}
}
