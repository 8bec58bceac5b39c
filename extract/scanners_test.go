package extract

import (
	"strings"
	"testing"

	matching "github.com/offattr/offattr/internal/match"
	"github.com/stretchr/testify/assert"
)

func TestNames(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"The Bank of America sold it to Subway.", []string{"The Bank of America", "Subway"}},
		{"Foo  of  Bar and Smith & Wesson", []string{"Foo  of  Bar", "Smith & Wesson"}},
		{"Jean-Luc Picard met O’Neil of the Sea", []string{"Jean-Luc Picard", "O’Neil", "Sea"}}, // one connector between words
		{"iPhone X and path/To", []string{"X"}},                                                 // not inside a word or a path
		{"Abc_ Def", []string{"Def"}},                                                           // no name goes on into "_"
		{"A B C D E F G H I", []string{"A B C D E F G", "H I"}},                                 // seven words at most
		{"A" + strings.Repeat("b", 44) + " Cd", []string{"Cd"}},                                 // a word is 41 runes at most
		{"Ürsula von Der Leyen, İstanbul", []string{"Ürsula von Der Leyen", "İstanbul"}},
		{"Rock'n Roll", []string{"Rock'n Roll"}},
		{"de la Fuente", []string{"Fuente"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			tx := newText(tt.in)
			var got []string
			for _, s := range names(tx) {
				got = append(got, tx.s[s.Start:s.End])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestQuotations(t *testing.T) {
	tests := []struct {
		in   string
		want []string // what the quotes enclose
	}{
		{`say "hi there" and “curly one” and 'single one'`, []string{"hi there", "curly one", "single one"}},
		{`"a" is too short, x"abc" follows a word, \"esc" a backslash`, nil},
		{"\"line\nbreak\"", nil},
		{`'it's' and 'ok'`, []string{"ok"}}, // a word goes on after the first closing quote
		{`"` + strings.Repeat("x", 81) + `"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			tx := newText(tt.in)
			var got []string
			for _, q := range quotations(tx) {
				got = append(got, tx.s[q.inner.Start:q.inner.End])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// The patterns names and quotations replaced: each scanner must find what
// its pattern finds, match for match.
var (
	oracles          = matching.NewSet()
	namesOracle      = oracles.MustCompile(`(?<![\p{L}\p{Nd}_'’&./-])\p{Lu}[\p{L}\p{Nd}'’&-]{0,40}(?:(?:[ \t]{1,2}(?:of|the|de|du|del|della|la|le|von|van|der|den|da|di|y|&)[ \t]{1,2}|[ \t]{1,2})\p{Lu}[\p{L}\p{Nd}'’&-]{0,40}){0,6}(?![\p{L}\p{Nd}_])`, 0)
	quotationsOracle = oracles.MustCompile(`(?<![\w\\])"(?<q>[^"\n\\]{2,80})"|“(?<q>[^”\n]{2,80})”|(?<![\w'’])'(?<q>[^'\n]{2,80})'(?![\w'’])`, 0)
)

// oracleSpans returns re's matches in tx, at most maxMatches, as the spans
// of the whole match and of group q if re has one.
func oracleSpans(re *matching.Pattern, tx *text) [][]span {
	var out [][]span
	for _, m := range oracles.Text(tx.s).Scan(re, maxMatches) {
		got := []span{m.Groups[0]}
		for k, name := range m.Names {
			if name == "q" {
				got = append(got, m.Groups[k])
			}
		}
		out = append(out, got)
	}
	return out
}

var scannerCases = []string{
	"", "The Bank of America sold it to Subway.", "Foo  of  Bar and Smith & Wesson", "Jean-Luc Picard met O’Neil of the Sea",
	"iPhone X and path/To", "Abc_ Def", "A B C D E F G H I", "A" + strings.Repeat("b", 44) + " Cd", "Ürsula von Der Leyen, İstanbul",
	"Rock'n Roll", "de la Fuente", "A de  la B del Cdel\tD", "A  B\t\tC   D of  E", "Ab'1 Cd-9_", strings.Repeat("A of ", 30),
	`say "hi there" and “curly one” and 'single one'`, `"a" is too short, x"abc" follows a word, \"esc" a backslash`,
	"\"line\nbreak\"", `'it's' and 'ok'`, `"` + strings.Repeat("x", 81) + `"`, `"` + strings.Repeat("x", 80) + `"`, `'ab'’ ’'ab' “a”“ab”`,
	// A byte that is no UTF-8 is one rune, U+FFFD: no name goes on from
	// it, and the text is read byte by byte, eight at a time.
	"000000\xe6Z", "abcdefgh\xffIjklmnop Qr\x80 \xc3St", "ab\xff'xy' \xfe\"cd\"",
}

// FuzzNames holds names to its pattern on any text.
func FuzzNames(f *testing.F) {
	fuzzScanner(f, namesOracle, func(tx *text) (out [][]span) {
		for _, m := range names(tx) {
			out = append(out, []span{m})
		}
		return out
	})
}

// FuzzQuotations holds quotations to its pattern on any text.
func FuzzQuotations(f *testing.F) {
	fuzzScanner(f, quotationsOracle, func(tx *text) (out [][]span) {
		for _, q := range quotations(tx) {
			out = append(out, []span{q.outer, q.inner})
		}
		return out
	})
}

func fuzzScanner(f *testing.F, re *matching.Pattern, scan func(*text) [][]span) {
	for _, s := range scannerCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tx := newText(s)
		assert.Equal(t, oracleSpans(re, tx), scan(tx), "%q", s)
	})
}

// In a fenced block of source code the quotations that may be values are
// the code's string literals: a prefixed literal (r'…'), a short one
// ('-'), a triple-quoted string and a comment's apostrophe (an SQL
// comment's too) pair with no other quote, nor does a Rust lifetime's,
// and prose outside the block is read as before.
func TestValueQuotationsInCode(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"prefix and a short literal", "Code:\n```py\nvalue = re.sub(r'[-\\s]+', '-', value).strip('-_')\nprint(slugify(\"___This is a test ---\"))\n```",
			[]string{`[-\s]+`, "-_", "___This is a test ---"}},
		{"a one-rune literal between two", "```python\nprint(\"-\" + self.parenthesize(expr.args[0], prec) + \" %\")\n```", []string{" %"}},
		{"a comment's apostrophe", "```py\nx = 1  # don't touch\ny = 'a b'\n```", []string{"a b"}},
		{"a triple-quoted string", "```py\ns = '''def f():\n    return 'x y'\n'''\nt = \"ok go\"\n```", []string{"ok go"}},
		{"prose around the block", "He said \"go on\".\n```py\nf(\"a\", 'bc')\n```\nThen 'it works' here.", []string{"go on", "bc", "it works"}},
		{"a data block is prose", "```json\n{\"name\": \"Ann Lee\"}\n```", []string{"name", "Ann Lee"}},
		{"a lifetime and characters", "```rust\nfn longest<'a>(x: &'a str, y: &'a str) -> &'a str { x }\nlet c = '\\n';\nlet m = \"too small\";\n```", []string{"too small"}},
		{"an SQL comment's apostrophe", "```sql\n-- don't touch the 'archived' rows\nSELECT id FROM t WHERE region = 'EMEA-North';\n```", []string{"EMEA-North"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tx := newText(tt.in)
			var got []string
			for _, q := range valueQuotations(tx) {
				got = append(got, tx.s[q.inner.Start:q.inner.End])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
