package extract

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	matching "github.com/offattr/offattr/internal/match"
)

// The values a step states: URLs, paths, dates, phone numbers, times of
// day, numbers, and fenced code blocks. Each is one pattern; the search
// reads where its matches can begin from the pattern itself (starts.go).

// months is the one alternation the date patterns share.
// emphasisOpen is a markdown emphasis or code mark that may open a
// value after the word that introduces it ("August **2021**").
const emphasisOpen = `(?:[*_\x60]{1,2})?`

// emphasisClose is that mark closing a figure before its unit or
// multiplier ("**3** feet", "**$1.08** billion"): a model that bolds the
// figure alone still states the quantity. It must be followed by a space,
// so that code's "5*m" stays a product.
const emphasisClose = `(?:[*_\x60]{1,2}(?=\s))?`

const months = `(?<mon>jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\.?`

// spanTo joins the two ends of a span of dates: "to", "and" (after
// "between"), "through", "until", or a dash.
const spanTo = `\s{0,3}(?:(?:and|to|through|thru|until|till)\s{1,3}|[-–—]\s{0,3})`

// otherMonth is months as the group "then": the month of a span's second
// date, whose year the first date takes unless the span runs on into
// that year (dateNorm).
var otherMonth = strings.Replace(months, "(?<mon>", "(?<then>", 1)

// spanEndMonthFirst and spanEndDayFirst are the second date of a span
// of dates that alone writes the year, after a first date written month
// first ("to March 31, 2024") and day first ("– 31 March 2024").
var (
	spanEndMonthFirst = spanTo + otherMonth + `\s{1,3}\d{1,2}(?:st|nd|rd|th)?,?\s{1,3}(?<y>\d{4})\b`
	spanEndDayFirst   = spanTo + `\d{1,2}(?:st|nd|rd|th)?\s{1,3}(?:of\s{1,3})?` + otherMonth + `,?\s{1,3}(?<y>\d{4})\b`
)

// numberPattern takes no number after a colon (a port, a time's minutes,
// a ratio's second term) but after a quoted key's (compact JSON's
// "amount":39.6, as a trace's call arguments are written).
var (
	urlPattern     = pattern(`\b(?:(?:https?|ftp)://|www\.)[^\s<>"'\x60{}|\\^]{3,2000}`, ci)
	fileURLPattern = pattern(`\bfile://(?<path>/[^\s<>"'\x60]{1,1000})`, ci)
	pathPattern    = pattern(`(?<![\w/.:~@-])(?:(?:~|\.{1,2})?/[\w.@+-]{1,100}(?:/[\w.@+-]{1,100}){0,30}/?|[A-Za-z]:\\[\w .@+-]{1,100}(?:\\[\w .@+-]{1,100}){0,30}|[\w.-]{1,100}(?:/[\w.-]{1,100}){1,30}\.[A-Za-z][A-Za-z0-9]{0,7})(?![\w/])`, 0)
	datePatterns   = []*matching.Pattern{
		pattern(`(?<![\d-])(?<y>\d{4})-(?<m>\d{1,2})-(?<d>\d{1,2})(?![\d-])`, 0),
		pattern(`(?<![\d/.-])(?<m>\d{1,2})/(?<d>\d{1,2})/(?<y>\d{4}|\d{2})(?![\d/])`, 0),
		pattern(`\b`+months+`\s{1,3}`+emphasisOpen+`(?<d>\d{1,2})(?:st|nd|rd|th)?`+emphasisOpen+`,?\s{1,3}(?<y>\d{4})\b`, ci),
		pattern(`\b(?<d>\d{1,2})(?:st|nd|rd|th)?\s{1,3}(?:of\s{1,3})?`+months+`,?\s{1,3}(?<y>\d{4})\b`, ci),
		pattern(`\b`+months+`,?\s{1,3}`+emphasisOpen+`(?<y>\d{4})\b`, ci),
		// A month and its year in figures, "06/2026": the month "June
		// 2026" is. ISO's "2026-06" is one only as a value by itself
		// (OnlyDate): in running text it is as often a query's bound or
		// a key as a month told.
		pattern(`(?<![\w./-])(?<m>\d{1,2})/(?<y>\d{4})(?![\w/-]|\.\d)`, 0),
		// The first date of a span whose second date alone writes the
		// year ("January 1 to March 31, 2024", "1 January – 31 March
		// 2024") is of that year, or of the year before when its month
		// comes after the second's ("December 28 to January 3, 2027").
		pattern(`\b`+months+`\s{1,3}(?<d>\d{1,2})(?:st|nd|rd|th)?(?=`+spanEndMonthFirst+`)`, ci),
		pattern(`\b(?<d>\d{1,2})(?:st|nd|rd|th)?\s{1,3}(?:of\s{1,3})?`+months+`(?=`+spanEndDayFirst+`)`, ci),
	}
	// A number to dial: grouped as North America's are ("(415) 555-0132",
	// "+1 415 555 0132"), after any country's code in groups ("+44 20 7946
	// 0958", "+44 (0)20 7323 8000", "+91 98765 43210") or none
	// ("+4915123456789"), or as a country writes its own with the trunk 0
	// first ("020 7946 0958", "0151 2345 6789", "07700 900123"; France's
	// in pairs, "01 42 68 53 00", "06.12.34.56.78"). The
	// matches with too few or too many digits are dropped (text.phones).
	phonePattern = pattern(`(?<![\w.+])(?:`+
		`(?:\+\d{1,3}[\s.-]?)?\(?\d{3}\)?[\s.-]?\d{3}[\s.-]\d{4}`+
		`|\+\d{1,3}(?:\s?\(0\))?(?:[\s.-]?\(?\d{1,5}\)?)?(?:[\s.-]\d{2,8}){1,4}`+
		`|\+\d{7,15}`+
		`|\(?0\d{1,4}\)?[\s-]\d{3,8}(?:[\s-]\d{3,4})?`+
		`|0[1-9](?:([\s.-])\d{2})(?:\1\d{2}){3}`+
		`)(?![\w.,]?\d|\w)`, 0)
	// A time of day: with am or pm, with a part of the day in words ("7:30
	// in the evening", "9 o'clock at night": a bare number before one is
	// too often a count, "a table for 4 in the evening"), as a half or a
	// quarter past or to an hour ("half past seven"), or on a 24-hour clock.
	timePattern = pattern(`(?<![\d:.,])(?<h>\d{1,2})(?::(?<min>\d{2}))?(?::\d{2})?\s{0,2}(?<ap>[ap]\.?\s?m)\b\.?`+
		`|(?<![\d:.,])(?<h>\d{1,2})(?::(?<min>\d{2})|\s{1,3}o['’]clock)\s{1,3}`+dayPart+
		`|\b(?<frac>half|(?:a\s{1,3})?quarter)\s{1,3}(?<rel>past|to)\s{1,3}(?<hw>`+clockHours+`|\d{1,2})\b(?:\s{0,2}(?<ap>[ap]\.?\s?m)\b\.?|(?:\s{1,3}o['’]clock)?\s{1,3}`+dayPart+`)?`+
		`|(?<![\d:.,])(?<h>\d{1,2}):(?<min>\d{2})(?::\d{2})?(?![\d:])`, ci)
	numberPattern    = pattern(`(?<![\w.,/#@])(?<![^"]:)(?<sign>-(?=[\d$\\€£¥]))?(?<cur>(?:\\\$|US\$|[$€£¥]|USD|EUR|GBP)\s?)?(?<num>\d{1,3}(?:,\d{3}){1,6}|\d{1,3}(?:_\d{3}){1,6}|\d{1,20})(?<frac>\.\d{1,12})?(?:(?=`+emphasisClose+`\s{0,2}[tmbk])`+emphasisClose+`\s{0,2}(?<mult>thousand|million|billion|trillion|bn|mn|[kKMB])\b)?(?:(?=`+emphasisClose+`\s{0,2}[%pkmfl°dhswygtue])(?<sp>`+emphasisClose+`\s{0,2})(?<unit>%|percent\b|per ?cent\b|pct\b|km\b|kilomet(?:er|re)s?\b|miles?\b|mi\b|met(?:er|re)s?\b|m\b|ft\b|feet\b|foot\b|kg\b|kilograms?\b|lbs?\b|°\s?[CF]\b|degrees?\b|minutes?\b|mins?\b|hours?\b|hrs?\b|h\b|seconds?\b|secs?\b|s\b|days?\b|weeks?\b|months?\b|years?\b|yrs?\b|mph\b|km/h\b|[KMGT]B\b|USD\b|EUR\b|dollars?\b|euros?\b|pounds?\b))?`, ci)
	codeBlockPattern = pattern("(?s)```[ \\t]{0,4}(?<lang>[\\w+#.-]{0,20})[^\\n]{0,40}\\n(?<code>.{0,20000}?)```|(?<![^\\n])<code>[ \\t]{0,4}\\n(?<code>.{0,20000}?)(?:</code>|\\z)", 0)
)

// urlMatch is a URL, or a file URL with its path.
type urlMatch struct{ all, path span }

// dateMatch is a date with its year, month, day and month's name, and,
// for the first date of a span, the month of its second (then).
type dateMatch struct{ all, y, m, d, mon, then span }

// dayPart is a part of the day written after a time, which says whether
// the hour is before or after noon.
const dayPart = `(?<part>in\s{1,3}the\s{1,3}(?:morning|afternoon|evening)|at\s{1,3}night|tonight)\b`

// clockHours are the hours of a clock in words, as a half or a quarter
// past or to one names them.
const clockHours = `one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve`

// timeMatch is a time of day with its hour, minutes and a.m. or p.m.
// (ap) or part of the day (part); a time told by a clock's words ("a
// quarter to eight") has its half or quarter (frac), "past" or "to" (rel)
// and the hour it counts from (hw) instead.
type timeMatch struct{ all, h, min, ap, part, frac, rel, hw span }

// numberMatch is a number with its parts.
type numberMatch struct{ all, sign, cur, num, frac, mult, sp, unit span }

func (t *text) urls(limit int) []urlMatch {
	return each(t.all(urlPattern, limit), func(m match) urlMatch { return urlMatch{all: m.Whole()} })
}

func (t *text) fileURLs(limit int) []urlMatch {
	return each(t.all(fileURLPattern, limit), func(m match) urlMatch { return urlMatch{m.Whole(), m.Group("path")} })
}

func (t *text) paths(limit int) []span { return each(t.all(pathPattern, limit), match.Whole) }

// phones returns where the text writes numbers to dial, those of eight to
// fifteen digits (a trunk or country's "(0)" not counted), and of ten or
// more after a trunk 0, as a postcode's digits ("CT 06385-3823") are
// fewer.
func (t *text) phones(limit int) []span {
	return slices.DeleteFunc(each(t.all(phonePattern, limit), match.Whole), func(m span) bool {
		v := t.str(m)
		n := len(PhoneDigits(v))
		return n < 8 || n > 15 || strings.TrimLeft(v, "(")[0] == '0' && n < 10
	})
}

// The groups of the patterns whose matches are many, looked up once.
var (
	dateGroups   = groupsOf(datePatterns, "y", "m", "d", "mon", "then")
	timeGroups   = groupsOf([]*matching.Pattern{timePattern}, "h", "min", "ap", "part", "frac", "rel", "hw")[0]
	numberGroups = groupsOf([]*matching.Pattern{numberPattern}, "sign", "cur", "num", "frac", "mult", "sp", "unit")[0]
)

// groupsOf returns, for each pattern, where its groups called names stand
// in its matches (-1 for a group it does not have).
func groupsOf(ps []*matching.Pattern, names ...string) [][]int {
	out := make([][]int, len(ps))
	for k, p := range ps {
		for _, n := range names {
			out[k] = append(out[k], p.GroupIndex(n))
		}
	}
	return out
}

// group returns group i of m; a group the pattern does not have (i < 0)
// did not take part.
func group(m match, i int) span {
	if i < 0 {
		return span{}
	}
	return m.Groups[i]
}

// dates returns the matches of the date patterns, one pattern after the other.
func (t *text) dates(limit int) []dateMatch {
	var out []dateMatch
	for k, p := range datePatterns {
		g := dateGroups[k]
		for _, m := range t.all(p, limit) {
			out = append(out, dateMatch{m.Whole(), group(m, g[0]), group(m, g[1]), group(m, g[2]), group(m, g[3]), group(m, g[4])})
		}
	}
	return out
}

func (t *text) times(limit int) []timeMatch {
	g := timeGroups
	return each(t.all(timePattern, limit), func(m match) timeMatch {
		return timeMatch{m.Whole(), group(m, g[0]), group(m, g[1]), group(m, g[2]), group(m, g[3]), group(m, g[4]), group(m, g[5]), group(m, g[6])}
	})
}

func (t *text) numbers(limit int) []numberMatch {
	g := numberGroups
	return each(t.all(numberPattern, limit), func(m match) numberMatch {
		return numberMatch{m.Whole(), group(m, g[0]), group(m, g[1]), group(m, g[2]), group(m, g[3]), group(m, g[4]), group(m, g[5]), group(m, g[6])}
	})
}

func each[M any](ms []match, f func(match) M) []M {
	out := make([]M, 0, len(ms))
	for _, m := range ms {
		out = append(out, f(m))
	}
	return out
}

// str returns the text of a span, "" when it did not take part.
func (t *text) str(sp span) string {
	if !sp.OK {
		return ""
	}
	return t.s[sp.Start:sp.End]
}

// wordChar is regexp2's \w (syntax.IsWordChar), with an ASCII fast path:
// regexp2's own looks up four category tables by name for every rune.
func wordChar(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 0 && (asciiAlnum(byte(r)) || r == '_')
	}
	return unicode.In(r, unicode.L, unicode.Mn, unicode.Nd, unicode.Pc) || r == '\u200D' || r == '\u200C'
}

func asciiAlnum(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// asciiSet is a set of ASCII runes.
type asciiSet [utf8.RuneSelf]bool

func asciiOf(runes string) *asciiSet {
	var a asciiSet
	for i := range len(runes) {
		a[runes[i]] = true
	}
	return &a
}

func (a *asciiSet) has(c rune) bool { return 0 <= c && c < utf8.RuneSelf && a[c] }

// wordByte reports an ASCII word character.
func wordByte(b byte) bool { return asciiAlnum(b) || b == '_' }
