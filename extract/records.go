package extract

import (
	"encoding/json"
	"slices"
	"strings"
)

// Record is one record of a listing a tool's output prints: the ids it
// is known by and the words that describe it, in lower case, a value
// joined by underscores written with spaces ("gift_card": "gift card").
type Record struct {
	IDs   []string `json:"ids"`
	Words []string `json:"words,omitempty"`
	// Numbers are the figures its own fields give (a balance, a price),
	// in their normal form as a number claim's: what the record says of
	// itself, for a reply that tells one.
	Numbers []string `json:"numbers,omitempty"`
	// Times are the times of day its fields give, a date-time's or a
	// time's alone, in a time claim's normal form ("14:30"): a slot or a
	// departure, as a person names it ("the 2:30 pm one").
	Times []string `json:"times,omitempty"`
	// Price is the figure, as written, of its first field (by name) that
	// names a price (a "price", "fare" or "cost", "price_usd" among
	// them): what it costs, for a pick a task caps.
	Price string `json:"price,omitempty"`
}

// Names reports whether the record is known by name or described by it
// (name in lower case, as an entity claim's normal form writes it): a
// tool prints a listing's names bare, where a step's reading of its text
// keeps none.
func (r Record) Names(name string) bool {
	return slices.ContainsFunc(r.IDs, func(id string) bool { return strings.EqualFold(id, name) }) || slices.Contains(r.Words, name)
}

// maxRecords caps the records kept for one tool result.
const maxRecords = 100

// records returns the records a tool's JSON output lists, when it lists
// two or more: each object of a list that holds an id (a field "id" or
// ending in "_id", or a value IsID says is one), and each object a map
// holds under its key (variants by item id, payment methods by their
// ids), the key its id. A record's words are its text values at any
// depth (a name, an option, a source), not its numbers or flags. v is
// the output as toolJSON decodes it.
func records(v any) []Record {
	var out []Record
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			keys := sortedKeys(x)
			if len(keys) >= 2 && !slices.ContainsFunc(keys, func(k string) bool { _, ok := x[k].(map[string]any); return !ok }) {
				for _, k := range keys {
					r := recordOf(x[k].(map[string]any))
					r.IDs = append([]string{k}, r.IDs...)
					out = append(out, r)
				}
				return
			}
			for _, k := range keys {
				walk(x[k])
			}
		case []any:
			var list []Record
			for _, e := range x {
				if m, ok := e.(map[string]any); ok {
					if r := recordOf(m); len(r.IDs) > 0 {
						list = append(list, r)
						continue
					}
				}
				walk(e)
			}
			if len(list) >= 2 {
				out = append(out, list...)
			}
		}
	}
	walk(v)
	if len(out) < 2 {
		return nil
	}
	return out[:min(len(out), maxRecords)]
}

// recordOf reads one object as a record: its ids and its words.
func recordOf(m map[string]any) Record {
	var r Record
	var words func(any)
	words = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				words(x[k])
			}
		case []any:
			for _, e := range x {
				words(e)
			}
		case string:
			w := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(x), "_", " "))
			if (hasLetters(w) && !IsID(x) || dialled(w)) && !slices.Contains(r.Words, w) {
				r.Words = append(r.Words, w)
			}
		}
	}
	for _, k := range sortedKeys(m) {
		s, ok := m[k].(string)
		if !ok {
			if n, isNum := m[k].(json.Number); isNum {
				s, ok = n.String(), IsID(n.String())
				if norm := NormalizeClaim(ClaimNumber, s); !ok && norm != "" && !slices.Contains(r.Numbers, norm) {
					r.Numbers = append(r.Numbers, norm)
				}
			}
		}
		if n, isNum := m[k].(json.Number); isNum && r.Price == "" && namesPrice(k) {
			r.Price = n.String()
		}
		if ok && (idKey(k) || IsID(s)) && s != "" {
			r.IDs = append(r.IDs, s)
			continue
		}
		if ok && timeValue.MatchString(s) {
			if t := NormalizeClaim(ClaimTime, s); t != "" && !slices.Contains(r.Times, t) {
				r.Times = append(r.Times, t)
			}
			continue
		}
		words(m[k])
	}
	return r
}

// dialled reports whether a value is a number to dial or read out
// ("555-0182", "+44 20 7946 0958", "(415) 555-0182"): seven to fifteen
// digits in groups that spaces, hyphens, dots or brackets part, not a
// date's. A line or an account is named by it as by a word.
func dialled(v string) bool {
	if dateShape.MatchString(v) {
		return false
	}
	digits, parts := 0, 0
	for k, r := range v {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case strings.ContainsRune(" -.()", r) || r == '+' && k == 0:
			parts++
		default:
			return false
		}
	}
	return digits >= 7 && digits <= 15 && parts > 0
}

// timeValue is a value that is a time of day: a date-time ("2025-09-11T14:30",
// "2025-09-11 14:30:00") or a time alone ("14:30", "2:30 pm").
var timeValue = goPattern(`(?i)^(\d{4}-\d{2}-\d{2}[T ])?\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}| ?[ap]\.?m\.?)?$`)

// dateShape is a date written in digits, its year first or last.
var dateShape = goPattern(`^(\d{4}[-./]\d{1,2}[-./]\d{1,2}|\d{1,2}[-./]\d{1,2}[-./]\d{4})$`)

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// foundNothing reports whether a tool's JSON output v says it found no
// record, in the ways APIs write that: an empty list for the whole
// output; an object with an error it returns ("error": "No product with
// sku TR2-43"), a found, exists or success flag that is false, or a
// count of what it matched that is nought ("total": 0); or an object
// whose lists are all empty and whose other fields are plain values,
// the arguments it echoes ({"sku": "TR2-43", "warehouses": []}). A
// lookup that writes a key back this way found nothing under it.
func foundNothing(v any) bool {
	switch x := v.(type) {
	case []any:
		return len(x) == 0
	case map[string]any:
		lists, empty, plain := 0, 0, true
		for k, f := range x {
			k = strings.ToLower(k)
			switch {
			case (k == "error" || k == "errors" || k == "error_message") && !emptyJSON(f):
				return true
			case slices.Contains(foundFlags, k) && f == false:
				return true
			case slices.Contains(matchCounts, k) && f == json.Number("0"):
				return true
			}
			switch f := f.(type) {
			case []any:
				lists++
				if len(f) == 0 {
					empty++
				}
			case map[string]any:
				plain = plain && len(f) == 0
			}
		}
		return lists > 0 && empty == lists && plain
	}
	return false
}

// foundFlags are the fields an API flags with false that it found no
// record; matchCounts those that count the records it matched.
var (
	foundFlags  = []string{"found", "exists", "success", "ok"}
	matchCounts = []string{"total", "count", "total_count", "total_results", "num_results", "hits", "matches"}
)

// emptyJSON reports whether a decoded JSON value holds nothing: null,
// false, "", or an empty list or object.
func emptyJSON(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return strings.TrimSpace(x) == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

// priceKeyWords are the words of a field's name that name a price.
var priceKeyWords = toSet("price prices fare fares airfare airfares cost costs")

// namesPrice reports whether a field's name names a price: one of its
// words (list_price, totalCost) is one of priceKeyWords, or a word joined
// in lower case ends in one that is not written inside other words
// (unitprice, totalcost). A word that only holds one (welfare, costume)
// is another thing.
func namesPrice(key string) bool {
	return slices.ContainsFunc(nameWords(key), func(w string) bool {
		return priceKeyWords[w] || strings.HasSuffix(w, "price") || strings.HasSuffix(w, "cost")
	})
}

// phones returns the digits of the numbers to dial a text writes
// ("(415) 555-0132", "+1 415 555 0132"), each once, in the order written.
func phones(t *text) []string {
	var out []string
	for _, m := range t.phones(maxMatches) {
		if d := PhoneDigits(t.str(m)); d != "" && !slices.Contains(out, d) {
			out = append(out, d)
		}
	}
	return out
}

// groupedPattern is an id written in groups: a few capitals or none, then
// two or more groups of digits, each after a space or a hyphen.
var groupedPattern = pattern(`(?<![\w'’-])(?:[A-Z]{1,4}[ -])?\d{2,6}(?:[ -]\d{2,6}){1,4}(?![\w-])`, 0)

// groupMarks drops the spaces and hyphens between an id's groups; built
// once, as every step is read for ids.
var groupMarks = strings.NewReplacer(" ", "", "-", "")

// grouped returns the ids a text writes in groups (groupedPattern) of six
// digits or more in all, joined and in lower case, each once, in the
// order written.
func grouped(t *text) []string {
	var out []string
	for _, m := range t.all(groupedPattern, maxMatches) {
		v := strings.ToLower(groupMarks.Replace(t.str(m.Whole())))
		if digitCount(v) >= 6 && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// digitCount is how many ASCII digits s holds.
func digitCount(s string) int {
	n := 0
	for i := range len(s) {
		if s[i] >= '0' && s[i] <= '9' {
			n++
		}
	}
	return n
}

// PhoneDigits is a number to dial as its digits alone, "" for a value
// that is none (dialled, or seven to fifteen digits and nothing else):
// "(415) 555-0132", "415.555.0132" and "4155550132" are one number. The
// trunk 0 a number after its country's code keeps in brackets ("+44 (0)20
// 7323 8000") is not dialled, and is left out.
func PhoneDigits(v string) string {
	v = strings.TrimSpace(v)
	if !dialled(v) && !(len(v) >= 7 && len(v) <= 15 && isDigits(v)) {
		return ""
	}
	if strings.HasPrefix(v, "+") {
		v = strings.Replace(v, "(0)", "", 1)
	}
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, v)
}

// SamePhone reports whether two numbers to dial, as PhoneDigits writes
// them, are one line: the same digits, or one with its country's code
// before the other's ("14155550132" and "4155550132"), where the other
// may keep the trunk 0 its country dials the number with inside it
// ("442079460958" and "02079460958") or the international prefix 00 may
// stand for the "+" ("00442079460958"). The countries that dial a trunk
// 0 have codes of two or three digits, so a "+1" number is none of theirs.
func SamePhone(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if a == b {
		return true
	}
	a, b = strings.TrimPrefix(a, "00"), strings.TrimPrefix(b, "00")
	if len(a) < len(b) {
		a, b = b, a
	}
	least, code := 10, 1
	if len(b) > 1 && b[0] == '0' {
		// The trunk 0, which the country's code replaces: the countries
		// that dial one have codes of two or three digits.
		b, least, code = b[1:], 9, 2
	}
	n := len(a) - len(b)
	return a == b || len(b) >= least && code <= n && n <= 3 && a[0] != '0' && strings.HasSuffix(a, b)
}

// tellsNoneRe is a step telling that there is none of something: "None"
// as its answer, a count of nought ("0 invoices", "zero orders"), or
// "there are no …", "has no …", "found no …". A "no" after another verb
// ("no problem", "no need") tells nothing of a count. Nor does a none of
// an ability, an effect or a reason ("there is no way", "has no effect",
// "I have no access"): a none is told of things a record holds or a
// search finds, and these are no such things.
var tellsNoneRe = pattern(`(?:^|[\n.:!?]\s{0,3})\**none\b|(?<![\w.,$€£-])(?:0|zero)\s{1,3}(?:[a-z]{2,20}\s{1,3}){0,2}?[a-z]{2,20}s\b|\b(?:there\s{1,3}(?:are|were|is|was)|ha(?:s|ve|d)|found|finds|returned|returns|shows?|lists?)\s{1,3}(?:no|zero)\s{1,3}(?!`+notNoneNouns+`\b)[a-z]{2,20}`, ci)

// notNoneNouns are the nouns of ability, effect, means and reason a "no"
// denies without telling that a record has none of something.
const notNoneNouns = `(?:ways?|effects?|impacts?|influence|access|abilit(?:y|ies)|capabilit(?:y|ies)|permissions?|authority|rights?|means|control|power|choice|chance|need|reasons?|idea|problems?|trouble|difficulty|doubt)`
