package extract

import (
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/dlclark/regexp2"
	"github.com/dlclark/regexp2/syntax"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The patterns the value scanners replaced, as extraction used them: each
// scanner must find what its pattern finds, match for match and group for
// group. The months are the one alternation the date patterns share.
const oracleMonths = `(?<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`

// valueOracle is one pattern and the scanner held to it: the scanner's
// matches as the spans of the pattern's groups, in the order of groups
// ("0" is the whole match).
type valueOracle struct {
	name   string
	expr   string
	opts   regexp2.RegexOptions
	groups []string
	scan   func(v valueScan, limit int) [][]span
}

func spansOf[M any](ms []M, groups func(M) []span) [][]span {
	var out [][]span
	for _, m := range ms {
		out = append(out, groups(m))
	}
	return out
}

func urlSpans(m urlMatch) []span   { return []span{m.all, m.path} }
func plainSpans(m span) []span     { return []span{m} }
func dateSpans(m dateMatch) []span { return []span{m.all, m.y, m.m, m.d, m.mon} }
func dateOracle(name, expr string, opts regexp2.RegexOptions, scan func(valueScan, int) []dateMatch) valueOracle {
	return valueOracle{name, expr, opts, []string{"0", "y", "m", "d", "mon"}, func(v valueScan, limit int) [][]span {
		return spansOf(scan(v, limit), dateSpans)
	}}
}

var valueOracles = []valueOracle{
	{"url", `\b(?:(?:https?|ftp)://|www\.)[^\s<>"'\x60{}|\\^]{3,2000}`, ci, []string{"0", "path"}, func(v valueScan, limit int) [][]span {
		return spansOf(v.urls(limit), urlSpans)
	}},
	{"file URL", `\bfile://(?<path>/[^\s<>"'\x60]{1,1000})`, ci, []string{"0", "path"}, func(v valueScan, limit int) [][]span {
		return spansOf(v.fileURLs(limit), urlSpans)
	}},
	{"path", `(?<![\w/.:~@-])(?:(?:~|\.{1,2})?/[\w.@+-]{1,100}(?:/[\w.@+-]{1,100}){0,30}/?|[A-Za-z]:\\[\w .@+-]{1,100}(?:\\[\w .@+-]{1,100}){0,30}|[\w.-]{1,100}(?:/[\w.-]{1,100}){1,30}\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/])`, 0, []string{"0"}, func(v valueScan, limit int) [][]span {
		return spansOf(v.paths(limit), plainSpans)
	}},
	dateOracle("ISO date", `(?<![\d-])(?<y>\d{4})-(?<m>\d{1,2})-(?<d>\d{1,2})(?![\d-])`, 0, valueScan.isoDates),
	dateOracle("slash date", `(?<![\d/.-])(?<m>\d{1,2})/(?<d>\d{1,2})/(?<y>\d{4}|\d{2})(?![\d/])`, 0, valueScan.slashDates),
	dateOracle("month day year", `\b`+oracleMonths+`\s{1,3}(?<d>\d{1,2})(?:st|nd|rd|th)?,?\s{1,3}(?<y>\d{4})\b`, ci, valueScan.mdyDates),
	dateOracle("day month year", `\b(?<d>\d{1,2})(?:st|nd|rd|th)?\s{1,3}(?:of\s{1,3})?`+oracleMonths+`,?\s{1,3}(?<y>\d{4})\b`, ci, valueScan.dmyDates),
	dateOracle("month year", `\b`+oracleMonths+`,?\s{1,3}(?<y>\d{4})\b`, ci, valueScan.myDates),
	{"phone", `(?<![\w.])(?:\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}(?!\w)`, 0, []string{"0"}, func(v valueScan, limit int) [][]span {
		return spansOf(v.phones(limit), plainSpans)
	}},
	{"time", `(?<![\d:.,])(?<h>\d{1,2})(?::(?<min>\d{2}))?(?::\d{2})?\s{0,2}(?<ap>[ap]\.?\s?m)\b\.?|(?<![\d:.,])(?<h>\d{1,2}):(?<min>\d{2})(?::\d{2})?(?![\d:])`, ci, []string{"0", "h", "min", "ap"}, func(v valueScan, limit int) [][]span {
		return spansOf(v.times(limit), func(m timeMatch) []span { return []span{m.all, m.h, m.min, m.ap} })
	}},
	{"number", `(?<![\w.,/#:@])(?<sign>-(?=[\d$\\€£¥]))?(?<cur>(?:\\\$|US\$|[$€£¥]|USD|EUR|GBP)\s?)?(?<num>\d{1,3}(?:,\d{3}){1,6}|\d{1,20})(?<frac>\.\d{1,12})?(?:(?=\s{0,2}[tmbk])\s{0,2}(?<mult>thousand|million|billion|trillion|bn|mn|[kKMB])\b)?(?:(?=\s{0,2}[%pkmfl°dhswygtue])(?<sp>\s{0,2})(?<unit>%|percent\b|per ?cent\b|pct\b|km\b|kilomet(?:er|re)s?\b|miles?\b|mi\b|met(?:er|re)s?\b|m\b|ft\b|feet\b|foot\b|kg\b|kilograms?\b|lbs?\b|°\s?[CF]\b|degrees?\b|minutes?\b|mins?\b|hours?\b|hrs?\b|h\b|seconds?\b|secs?\b|s\b|days?\b|weeks?\b|months?\b|years?\b|yrs?\b|mph\b|km/h\b|[KMGT]B\b|USD\b|EUR\b|dollars?\b|euros?\b))?`, ci, []string{"0", "sign", "cur", "num", "frac", "mult", "sp", "unit"}, func(v valueScan, limit int) [][]span {
		return spansOf(v.numbers(limit), func(m numberMatch) []span { return []span{m.all, m.sign, m.cur, m.num, m.frac, m.mult, m.sp, m.unit} })
	}},
	{"code block", "(?s)```[ \\t]{0,4}(?<lang>[\\w+#.-]{0,20})[^\\n]{0,40}\\n(?<code>.{0,20000}?)```", 0, []string{"0", "lang", "code"}, func(v valueScan, limit int) [][]span {
		return spansOf(v.codeBlocks(limit), func(b codeBlock) []span { return []span{b.all, b.lang, b.code} })
	}},
}

// oracleRes holds each oracle's compiled pattern. The timeout is long, and
// running into it fails the test rather than hiding a difference.
var oracleRes = map[string]*regexp2.Regexp{}

func (o valueOracle) re() *regexp2.Regexp {
	re, ok := oracleRes[o.name]
	if !ok {
		re = regexp2.MustCompile(o.expr, o.opts)
		re.MatchTimeout = time.Minute
		oracleRes[o.name] = re
	}
	return re
}

// want returns the pattern's matches in s, as the spans of o.groups.
func (o valueOracle) want(t testing.TB, tx *text, limit int) [][]span {
	var out [][]span
	rm, err := o.re().FindRunesMatch(tx.runes)
	for err == nil && rm != nil && len(out) < limit {
		m := tx.convert(rm)
		spans := make([]span, len(o.groups))
		for i, g := range o.groups {
			for k, name := range m.names {
				if name == g {
					spans[i] = m.groups[k]
				}
			}
		}
		out = append(out, spans)
		rm, err = o.re().FindNextMatch(rm)
	}
	require.NoError(t, err, "%s on %.80q", o.name, tx.s)
	return out
}

// checkValues compares every scanner with its pattern on each text and
// stops at the first difference.
func checkValues(t testing.TB, texts []string) {
	for _, s := range texts {
		tx := newText(s)
		for _, o := range valueOracles {
			for _, limit := range []int{maxMatches, 1} {
				if !assert.Equal(t, o.want(t, tx, limit), o.scan(newValueScan(tx), limit), "%s (limit %d) on %.200q", o.name, limit, s) {
					return
				}
			}
		}
	}
}

// valueCases are texts at the corners of the patterns: each choice a
// backtracking engine would go back on, look-behinds and look-aheads on
// both sides, case folds, Unicode digits and spaces, long runs.
var valueCases = []string{
	"", "1", "-", "$", "see https://www.example.com/a?b=1 and HTTP://X.ORG, www.ab, ftp://a b, http://ab",
	"file:///tmp/x.txt file:///", "FILE:///a and xfile:///b",
	"/usr/local/bin/ ~/x/y ../a/b ./c .../d /a/ //b /a/b/ /é/ab+/c", "C:\\dir name\\f.txt D:\\ x:\\y\\z",
	"src/pkg/main.go a/b.c/d.txt x.tar.gz/y.py a/b.toolongext a/b.c9 a/b.c/ a/b.c.d", "/" + strings.Repeat("a", 150) + "/b",
	strings.Repeat("/ab", 35) + " " + strings.Repeat("a/", 35) + "b.py " + strings.Repeat("a\\", 35) + "b",
	"C:\\" + strings.Repeat("d", 120) + "\\e", "a/" + strings.Repeat("b", 101) + ".txt", "+/+/+/a.b/c.d",
	"2020-01-05 2020-1-5- 12020-01-05 2020-01-052 2020-001-05 -2020-01-05 ٢٠٢٠-٠١-٠٥",
	"12/31/2020 1/2/20/ 1/2/202 01/02/2020x 3/4/2020/ 1.2/3/4567 13/1/99", "Date: 11/24/22.",
	"March 5, 2020; Sept. 5th, 2020; SEPT 5 2020; june 31st,  2020; Mayor 5, 2020; Mar 123, 2020; Dec 5,2020",
	"5th of March, 2020; 5 March2020; 05 of  Jan. 2020; 1st  Feb 2020; 5 ofMarch 2020; 3 of of March 2020",
	"Jan 2020, JANUARY 2020, jan. 2020x, Feb.,2020, augu 2020, İ", "Aug 2020Z and Sep\u00a02020 and Oct\u20032020",
	"+1 (555) 123-4567, +44 20 7946 0958, 555.123.4567, (555)123-4567, +1555 123 4567, 555 123 45678, x555 123 4567",
	"+123-555-123-4567 +1234 555 1234 (555 123 4567 555) 123-4567 .555 123 4567", "call 555-123-4567.",
	"12:30 7:30 a.m. 11pm 23:05:10 1:2:3 12:345 3 pm. 10 a m 10 A.M 10 a. m 7:30:15pm 1:30 pmx 123pm 12::30 ,5pm",
	"5 P M, 10 am., 9:05:07:1, 10:30:4, 24:00, 1:00 amy", "٣:٤٥ pm",
	"-$5 US$ 5 \\$232.00 1,234,567.89 million 12,3456 5 km/h 3 °C 3°F 3 ° C 5 per cent 5 percents 10 kmh 2 kb 7 K 3 MB",
	"42 USD 5 usd. 12 EUROS 3 dollar 1.5bn 2 thousand 4 millions 5 k, 7K 8 kg 9 lbs 10 lb. 11 mph 12 hrs 13 h 14 s 15 sec",
	"1 kilometre 2 kilometres 3 metres 4 meter 5 m 6 ft 7 feet 8 foot 9 degrees 10 minute 11 mins 12 hours 13 days",
	"1,234,567,890,123,456,789,012 and 1,234,567,890,123,456,789 and 12,345,678,901,234,567,8901",
	"-5 -x -$x $-5 €5 £ 5 ¥12 EUR12 GBP 7 USD7 usd 7 5.5.5 .5 5. 1,2 1,234,5678 12345678901234567890123 0.1234567890123",
	"1.2.3 #5 @5 :5 /5 x5 5x _5 a-5 (5) [5] 5%, 5 %, 5  %, 5   %, 5pct 5 PCT! 3 TB 4 tb 5 gB 6 Kb 7 MM 8 mn 9 bn 10 MN",
	"٣٤ ١٢:٣٠ apples ٥ km", "x\x80y http://bad\xffurl 12", "\u212A 5 \u212Ag 5\u212A 5 \u0130", "5\u00a0kg 5\u2009km 5\u3000h",
	strings.Repeat("1,", 300), strings.Repeat("9", 30), strings.Repeat("a/", 200) + "b.c",
	"```python\nx = 1\n```\ntext ```\n``` ```` go\ny\n````", "```\t  \tsh extra words here\nls\n```",
	"```" + strings.Repeat("a", 20) + strings.Repeat("b", 41) + "\nx```", "```" + strings.Repeat("é", 25) + strings.Repeat("!", 40) + "\nx```",
	"```c++ #x.y-z_1 Ünï\n\n```", "```\n" + strings.Repeat("ü", 20000) + "```", "```\n" + strings.Repeat("ü", 20001) + "```",
	"```no newline```", "```\nunclosed", "`` `\n```\n```",
	"SEPTEMBER.\u3000 \t12th,\n\t 2020; September.   12th,    2020; 12th \t of\t\t september., \t 2020; 12th    of september, 2020",
	"September., \t 2020 September.,    2020 sept.,  ٢٠٢٠ 1st of jan ١٢٣٤٥",
}

// TestValuesAreThePatterns holds every value scanner to its pattern on
// hand-made corners and on the steps of both corpora, a sample of them
// (regexp2's scans are what extraction cost before the scanners); -sweep
// checks every step.
func TestValuesAreThePatterns(t *testing.T) {
	every := sampleEvery(7, 40)
	texts := append([]string(nil), valueCases...)
	names, runs := corpusRuns(t)
	for _, n := range names {
		texts = append(texts, runs[n].Question)
	}
	for _, s := range sampledSteps(names, runs, every, nil) {
		texts = append(texts, s.Content)
	}
	checkValues(t, texts)
}

// FuzzValues holds every value scanner to its pattern on any text.
func FuzzValues(f *testing.F) {
	for _, s := range valueCases {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkValues(t, []string{s})
	})
}

// TestLowerKeepsClasses: the scanners read classes on the runes as they
// are and letters in lower case; that is how regexp2 reads a
// case-insensitive pattern only if no rune enters or leaves \d, \s or \w
// in lower case.
func TestLowerKeepsClasses(t *testing.T) {
	r := runeAt(make([]rune, 1))
	for c := rune(0); c <= unicode.MaxRune; c++ {
		r[0] = c
		if l := r.low(0); l != unicode.ToLower(c) || wordChar(c) != wordChar(l) || unicode.IsDigit(c) != unicode.IsDigit(l) || spaceRune(c) != spaceRune(l) {
			t.Fatalf("%U in lower case is %U, in or out of another class", c, l)
		}
	}
}

// TestClassesAreRegexp2s checks \d and \s against regexp2's own on every
// rune of the Basic Multilingual Plane and on the digits beyond it.
func TestClassesAreRegexp2s(t *testing.T) {
	d := regexp2.MustCompile(`\d`, 0)
	s := regexp2.MustCompile(`\s`, 0)
	check := func(c rune) {
		inD, err := d.MatchRunes([]rune{c})
		require.NoError(t, err)
		inS, err := s.MatchRunes([]rune{c})
		require.NoError(t, err)
		require.Equal(t, inD, unicode.IsDigit(c), "\\d %U", c)
		require.Equal(t, inS, spaceRune(c), "\\s %U", c)
	}
	for c := rune(0); c < 0x10000; c++ {
		check(c)
	}
	for c := rune(0x10000); c <= unicode.MaxRune; c++ {
		if unicode.IsDigit(c) {
			check(c)
		}
	}
}

// TestWordCharIsRegexp2s checks the fast \w against regexp2's own over
// every rune.
func TestWordCharIsRegexp2s(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if wordChar(r) != syntax.IsWordChar(r) {
			assert.Fail(t, "wordChar differs", "rune %U", r)
			return
		}
	}
	assert.False(t, wordChar(-1))
}

// FuzzSeparators: the "/" and "\" that paths looks near are found as
// bytes; they must be the runes that are "/" or "\", by rune index.
func FuzzSeparators(f *testing.F) {
	for _, s := range []string{"", "a/b", `C:\x\y`, "é/ü\\/", "\xff/\xfe\\", "//"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		tx := newText(s)
		var want []int
		for i, c := range tx.runes {
			if c == '/' || c == '\\' {
				want = append(want, i)
			}
		}
		assert.Equal(t, want, newValueScan(tx).separators(), "%q", s)
	})
}
