package extract

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"pgregory.net/rapid"

	"github.com/offattr/offattr/run"
)

// writingOf is what a run of the given task and step texts writes.
func writingOf(question string, texts ...string) *Writing {
	r := &run.Run{Question: question, Instructions: "Refunds go to the original payment method, e.g. paypal_1234."}
	for j, t := range texts {
		r.Steps = append(r.Steps, run.Step{Index: j, Agent: "a", Content: t})
	}
	return NewWriting(r)
}

func TestWritingHolds(t *testing.T) {
	w := writingOf("Cancel order #W4611 for Yusuf Rossi.", "Order W4611 holds item 4611 and ITEM-12.", "Done.")
	tests := []struct {
		name string
		j    int
		v    string
		want bool
	}{
		{"the task", -1, "#w4611", true},
		{"a step, whatever its case", 0, "item-12", true},
		{"not part of a longer number", 0, "11", false},
		{"not part of a longer word", 0, "order w46", false},
		{"another step", 1, "w4611", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, w.Holds(tt.j, tt.v))
		})
	}
	assert.True(t, w.InstructionsHold("paypal_1234"), "the system instructions")
	assert.False(t, w.InstructionsHold("paypal"), "a word of a longer name")
}

func TestWritingWrites(t *testing.T) {
	w := writingOf("", `{"order_id": "#W4611", "status": "delivered"}`)
	tests := []struct {
		name string
		v    string
		want bool
	}{
		{"as written", "#W4611", true},
		{"part of a longer word", "W461", true},
		{"in another case", "#w4611", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, w.Writes(0, tt.v))
		})
	}
}

// A name is set to a value when an assignment or a copula joins them on
// one line, not when both only stand on it or the line rejects it.
func TestWritingSets(t *testing.T) {
	tests := []struct {
		text string
		want bool
	}{
		{"## Shared Knowledge\nMAX_RETRIES = 3", true},
		{"The limit is too high; MAX_RETRIES should be 3.", true},
		{"1. Set `MAX_RETRIES` to 3.", true},
		{"max_retries: 3", true},
		{"MAX_RETRIES = 35", false},
		{"MAX_RETRIES = 3.5", false},
		{"MAX_RETRIES (3 by default)", false},
		{"MY_MAX_RETRIES = 3", false},
		{"MAX_RETRIES =\n3", false},
		{"Keep MAX_RETRIES = 5; do not set MAX_RETRIES = 3.", false},
		{"Use MAX_RETRIES = 5 rather than `MAX_RETRIES = 3`.", false},
		{"Change it to MAX_RETRIES = 3.", true},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.want, writingOf("", tt.text).Sets(0, "max_retries", "3"))
		})
	}
}

// The constants code sets on lines of their own, whatever their type or
// comment; a comparison or a call is no assignment.
func TestWritingAssigns(t *testing.T) {
	w := writingOf("", "```python\nMIN_LENGTH = 6  # shorter for phones\nVAT_RATE: float = 0.19\nNAME = 'shop'\nif SIZE == 3:\n    LIMIT.update(x=1)\nx = 5\n```")
	assert.Equal(t, map[string]string{"min_length": "6", "vat_rate": "0.19", "name": "shop"}, w.Assigns(0))
}

func TestComparisons(t *testing.T) {
	assert.Equal(t, []string{"age > senior_age"}, Comparisons("senior_fare if age > senior_age else fare"))
	assert.Equal(t, []string{"t.amount > 1000", "t.new_device == true"}, Comparisons("[t.id for t in txs if (t.amount > 1000) and t.new_device == true]"))
	assert.Nil(t, Comparisons("reverse=true"))
}

func TestWritingRestates(t *testing.T) {
	tests := []struct {
		name, question, text string
		from, to             int
	}{
		{"the task in other case", " Requests over the limit are rejected with HTTP 429. ", "Task: requests over the limit are REJECTED with HTTP 429. Go.", 6, 57},
		{"another text", "Count the rows.", "Counted 3 rows.", -1, -1},
		{"no task", "", "Count the rows.", -1, -1},
		{"a text whose length lowering changes", "count the rows", "\u212A: Count the rows", -1, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			from, to := writingOf(tt.question, tt.text).Restates(0)
			assert.Equal(t, []int{tt.from, tt.to}, []int{from, to})
		})
	}
}

func TestWritingEndsID(t *testing.T) {
	w := writingOf("My card ends in 7720.", `{"payment_method_id": "credit_card_7720", "gift": "gift_card_17720"}`, "card 7720_x")
	tests := []struct {
		name   string
		j      int
		digits string
		want   bool
	}{
		{"an id ending in the digits", 0, "7720", true},
		{"an id ending in more digits", 0, "720", false},
		{"the digits not at the id's end", 1, "7720", false},
		{"the task writes no id", -1, "7720", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, w.EndsID(tt.digits)(tt.j))
		})
	}
}

// The steps IDTailSteps and TaggedYearSteps give are every step that
// ends an id in the digits (EndsID) or tags the year (TagsYear), in order:
// for random runs and digits, they agree with a test of every step.
func TestWritingStepIndexesAgreeWithTests(t *testing.T) {
	indexes := []struct {
		name   string
		text   *rapid.Generator[string]
		digits *rapid.Generator[string]
		test   func(w *Writing, digits string) func(j int) bool
		index  func(w *Writing, digits string) []int32
	}{
		{"IDTailSteps", rapid.StringMatching(`(a_1|_11|_1a|[a1_ \-]){0,6}`), rapid.StringMatching(`1{1,3}`),
			func(w *Writing, d string) func(int) bool { return w.EndsID(d) },
			(*Writing).IDTailSteps},
		{"TaggedYearSteps", rapid.StringMatching(`(fy1111|FY1111|ay1111a|y111|[ay1 _\-]){0,5}`), rapid.StringMatching(`1111`),
			func(w *Writing, d string) func(int) bool { return func(j int) bool { return w.TagsYear(j, d) } },
			(*Writing).TaggedYearSteps},
	}
	for _, x := range indexes {
		t.Run(x.name, func(t *testing.T) {
			rapid.Check(t, func(t *rapid.T) {
				var texts []string
				for range rapid.IntRange(1, 12).Draw(t, "steps") {
					texts = append(texts, x.text.Draw(t, "content"))
				}
				w := writingOf("", texts...)
				digits := x.digits.Draw(t, "digits")
				holds := x.test(w, digits)
				got := x.index(w, digits)
				for j := range texts {
					if holds(j) {
						assert.Contains(t, got, int32(j), "step %d", j)
					}
				}
				assert.True(t, slices.IsSorted(got), "in order: %v", got)
			})
		})
	}
}

func TestWritingNextTo(t *testing.T) {
	w := writingOf("Find Yusuf Rossi's order.", "The user is Yusuf Rosi.", "Yusuf Rossi, zip 19122.")
	assert.Equal(t, map[string]int{"rossi's": -1, "rosi": 0, "rossi": 1}, w.NextTo("yusuf", 1))
	assert.Equal(t, map[string]int{"is": 0, "find": -1}, w.NextTo("yusuf", -1))
	assert.Empty(t, w.NextTo("nobody", 1))
}

// The token index's candidates for a value are every step that holds it
// as a whole token, and each of them holds it when the value is one run
// of word bytes: for random runs and values, they agree with a scan of
// every step.
func TestWritingCandidatesAgreeWithScan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		// The Kelvin sign and the dotted capital I lower to ASCII letters.
		text := rapid.StringMatching(`[aB1 .:_\-ki\x{212A}\x{0130}\x{00C9}]{0,12}`)
		var texts []string
		for range rapid.IntRange(1, 12).Draw(t, "steps") {
			texts = append(texts, text.Draw(t, "content"))
		}
		w := writingOf("", texts...)
		v := rapid.StringMatching(`[ab1 .:_\-ki]{1,6}`).Draw(t, "value")
		holding := []int32{}
		for j := range texts {
			if w.Holds(j, v) {
				holding = append(holding, int32(j))
			}
		}
		steps, whole := w.Candidates(v)
		if steps == nil {
			assert.Empty(t, slices.DeleteFunc([]byte(v), func(b byte) bool { return !wordByte(b) }), "only a value without word bytes has every step a candidate")
			return
		}
		for _, j := range holding {
			assert.Contains(t, steps, j, "%q is held by step %d", v, j)
		}
		if whole {
			assert.Equal(t, holding, steps, "%q is one run of word bytes", v)
		}
	})
}

// A plain word is written as a name where it is quoted or on a line of
// code or a signature; prose that uses the word did not name it.
func TestWritesName(t *testing.T) {
	tests := []struct {
		name, text string
		want       bool
	}{
		{"prose", "an item needs reordering when its quantity is low.", false},
		{"a signature", "stockrecord(sku, quantity, reorder_level)", true},
		{"a class member", "class stockrecord {\n    +int quantity\n}", true},
		{"quoted", "each record's 'quantity' field", true},
		{"a longer word", "the quantities are summed (per sku)", false},
		{"an identifier in prose", "parse dates with date.parse_iso and subtract them.", true},
		{"prose with an aside", "by the census (2021): each store's quantity is counted.", false},
		{"a call", "print(total(quantity))", true},
		{"a dotted name in prose", "the parser (module quantity.parse) reads it", true},
		{"a sentence's end", "each store's quantity. then the total", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := "quantity"
			if tt.name == "an identifier in prose" {
				v = "parse_iso"
			}
			assert.Equal(t, tt.want, writesName(tt.text, v))
		})
	}
}

func TestDefinition(t *testing.T) {
	tests := []struct{ name, text, want string }{
		{"a Python function", "x = 1\n\ndef f(a):\n    b = a\n\n    return b\nprint(f(2))\n", "def f(a): b = a return b"},
		{"indented, with its keyword", "  async def f(a):\n      return a\n  g()\n", "async def f(a): return a"},
		{"a brace language", "function f(a) {\n  return a;\n}\n", "function f(a) { return a;"},
		{"another function", "def fx(a):\n    return a\n", ""},
		{"a signature whose body is not under it", "def f(a):\nreturn a\n", ""},
		{"a one-line function", "def f(a): return a\n", "def f(a): return a"},
		{"a listing that numbers its lines", "     1\tx = 1\n     2\tdef f(a):\n     3\t    return a\n     4\tprint(f(2))\n", "def f(a): return a"},
		{"a file reader's listing", "    7→def f(a):\n    8→    return a\n", "def f(a): return a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, definition(tt.text, "f"))
		})
	}
	w := writingOf("", "Here it is:\n```python\ndef f(a):\n    return  a\n```")
	assert.Equal(t, "def f(a): return a", w.Definition(0, "f"), "a step's definition, as written in its text")
}

// A definition whose whole body returns another function's call hands its
// work to that function; one that does anything else computes its value.
func TestWritingDelegates(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"a method returning a function's call", "class Invoice:\n    def tax(self):\n        return compute_tax(self.items)\n", "compute_tax"},
		{"a module's function, with a comment", "def tax(items):\n    # the rate lives in rates.py\n    return rates.compute_tax(items)\n", "compute_tax"},
		{"a brace language", "function tax(items) {\n  return computeTax(items);\n}\n", "computeTax"},
		{"more than the call", "def tax(items):\n    base = sum(items)\n    return compute_tax(base)\n", ""},
		{"a call in an expression", "def tax(items):\n    return compute_tax(items) * 2\n", ""},
		{"a value, no call", "def tax(items):\n    return 0\n", ""},
		{"itself", "def tax(items):\n    return tax(items[1:])\n", ""},
		{"no definition", "tax = compute_tax\n", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, writingOf("", tt.code).Delegates(0, "tax"))
		})
	}
}

// The logic of a definition is its lines that compare, join conditions or
// set a flag, as a design would write them; a step that writes one of
// them, however spaced and cased, spelt it out.
func TestWritingLogic(t *testing.T) {
	tests := []struct {
		name, fn, code string
		want           []string
	}{
		{"a comparison", "can_vote", "def can_vote(age):\n    return age  >  MIN_AGE\n", []string{"age > min_age"}},
		{"conditions joined, a flag", "pick", "def pick(ts):\n    if t.overdue and t.urgent:\n        x = 1\n    return sorted(ts, reverse=True)\n", []string{"t.overdue and t.urgent", "sorted(ts, reverse=true)"}},
		{"an order", "latest", "def latest(posts):\n    return sorted(posts, key=lambda p: p.date)\n", []string{"sorted(posts, key=lambda p: p.date)"}},
		{"an order in place", "rank", "def rank(ps):\n    ps.sort(key=score)\n    return ps\n", []string{"ps.sort(key=score)"}},
		{"no logic", "total", "def total(xs):\n    return sum(xs)\n", nil},
		{"a signature alone", "can_vote", "def can_vote(age):\n", nil},
		{"another function", "can_vote", "def other(age):\n    return age > 1\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, writingOf("", tt.code).Logic(0, tt.fn))
		})
	}
	w := writingOf("Voters must be over MIN_AGE.", "The check is: AGE >\n MIN_AGE.", "The check is age >= min_age.",
		"Use age >= min_age, not `age > min_age`.", "Use age >= min_age instead of age > min_age, and never age > min_age; age > min_age is wrong.")
	assert.True(t, w.WritesLogic(0, "age > min_age"), "in another case and spacing")
	assert.False(t, w.WritesLogic(1, "age > min_age"))
	assert.False(t, w.WritesLogic(-1, "age > min_age"), "the task")
	assert.False(t, w.WritesLogic(2, "age > min_age"), "named only to reject it")
	assert.True(t, w.WritesLogic(3, "age > min_age"), "named once without rejecting it")
}

func TestHoldsWords(t *testing.T) {
	tests := []struct {
		name, text, words string
		want              bool
	}{
		{"across case and punctuation", "We ate at PIZZA-hut.", "pizza hut", true},
		{"letters past ASCII", "\u00a0É ü\u00a0", "é ü", true},
		{"in another order", "Lithium-ion", "ion lithium", false},
		{"not in a row", "pizza and hut", "pizza hut", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, HoldsWords(tt.text, tt.words))
		})
	}
	w := writingOf("", "The element is Lithium!")
	assert.True(t, w.HoldsWords(0, NormWords("is lithium")), "a step's words")
}

// FuzzHoldsWords holds HoldsWords, which reads a text's words into a
// reused buffer, to its definition: the words within NormWords of the
// text.
func FuzzHoldsWords(f *testing.F) {
	for _, s := range [][2]string{{"Pizza Hut", "We ate at PIZZA-hut."}, {"  ", "x"}, {"é Ü", "\u00a0É ü\u00a0"}, {"a b", "a\xffb a b"}} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, want, text string) {
		words := NormWords(want)
		assert.Equal(t, strings.Contains(NormWords(text), words), HoldsWords(text, words), "%q in %q", want, text)
	})
}

func TestOccurrences(t *testing.T) {
	tests := []struct {
		s, sub string
		want   []int
	}{
		{"a_1 b_1", "_1", []int{1, 5}},
		{"aaa", "aa", []int{0, 1}},
		{"abc", "x", nil},
		{"ab", "", []int{0, 1, 2}},
	}
	for _, tt := range tests {
		assert.Equal(t, tt.want, slices.Collect(occurrences(tt.s, tt.sub)), "%q in %q", tt.sub, tt.s)
	}
}

// A year tagged by a few letters that abbreviate a kind of year, as
// fiscal and academic years are written, is read as that year; a longer
// word or a number before it is no tag, nor is a code's prefix that names
// no year (an account's SV2023, an invoice's INV2021).
func TestWritingTagsYear(t *testing.T) {
	w := writingOf("Travel spend in FY2024 and AY2023-24", "screen 1920x2024, model ABCD2022, 2021, account SV2019 and invoice INV2025")
	assert.True(t, w.TagsYear(-1, "2024"))
	assert.True(t, w.TagsYear(-1, "2023"))
	assert.False(t, w.TagsYear(0, "2024"))
	assert.False(t, w.TagsYear(0, "2022"))
	assert.False(t, w.TagsYear(0, "2021"))
	assert.False(t, w.TagsYear(0, "2019"))
	assert.False(t, w.TagsYear(0, "2025"))
}

// TestWritingHoldsNoAgentsNumber: the digits of an agent's name are no
// value where a text mentions the agent ("Agent 11 checks it" holds no
// 11), in the task, the instructions and the steps; the same number
// written apart from the name is one.
func TestWritingHoldsNoAgentsNumber(t *testing.T) {
	r := &run.Run{Question: "Ask Agent 11 for the count.", Instructions: "Agent 11 answers questions of stock."}
	r.Steps = []run.Step{
		{Index: 0, Agent: "Agent 11", Content: "I am Agent 11; agent 11 has 7 left."},
		{Index: 1, Agent: "Planner", Content: "Agent 11 says 11 left."},
		{Index: 2, Agent: "Planner", Content: "Agent 110 and agent 11b are others."},
	}
	w := NewWriting(r)
	assert.False(t, w.Holds(-1, "11"), "the task")
	assert.False(t, w.InstructionsHold("11"), "the instructions")
	assert.False(t, w.Holds(0, "11"), "a step")
	assert.True(t, w.Holds(0, "7"))
	assert.True(t, w.Holds(1, "11"), "a number apart from the name")
	assert.True(t, w.Holds(2, "110"), "a longer number after the name's words")
	assert.True(t, w.Holds(1, "agent 11"), "the name itself, as a value")
}

// TestWritingNewWords: the words a step's value brings into the run are
// its words of four or more letters, no digit among them, that neither
// the task nor an earlier step writes; a later step's writing them does
// not make them old.
func TestWritingNewWords(t *testing.T) {
	w := writingOf("Fix slugify in textkit/slug.py.",
		"def slugify(text):\n    return text.lower()",
		`text = unicodedata.normalize("NFKD", text)`,
		"Done: it calls unicodedata.normalize now.")
	tests := []struct {
		name string
		j    int
		v    string
		want []string
	}{
		{"the words no earlier step writes", 1, `text = unicodedata.normalize("NFKD", text).encode("ascii")`, []string{"unicodedata", "normalize", "nfkd", "encode", "ascii"}},
		{"written before", 2, `text = unicodedata.normalize("NFKD", text)`, nil},
		{"short words and words with digits", 1, "a utf8 map of ab", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, w.NewWords(tt.j, tt.v))
		})
	}
	assert.Equal(t, []string{"text", "unicodedata", "normalize"}, Words("text = unicodedata.normalize(text)"))
}
