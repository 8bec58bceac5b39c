package extract

import (
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	matching "github.com/offattr/offattr/internal/match"
	"github.com/offattr/offattr/run"
)

// Requirement is a constraint the task states on its answer or on the
// work: something to include ("including 8% sales tax") or leave out
// ("excluding anyone who worked last Saturday"), a restriction ("only on
// weekdays"), a bound ("at most 20 characters"), a threshold ("above 2
// kg"), a rounding, a unit or a
// format the answer is asked in, a statistic it must be other than the
// plain average ("the median"), or what the task says a thing must do.
// A step takes it up when it writes one of its terms.
type Requirement struct {
	Text string `json:"text"` // as the task writes it
	// Terms are the words, in lower case, that tell of it: a word is
	// written when a word of the step begins with it (a stem: "exclud",
	// "weekday"), a number or a unit's sign when the step writes it whole.
	Terms []string `json:"terms"`
	// Places is, for a rounding, the decimal places the answer may
	// keep (0 for a whole number, a thousand or a unit); -1 otherwise.
	Places int `json:"places"`
	// Unit: the answer is asked in a unit, which Terms write.
	Unit bool `json:"unit,omitempty"`
	// Kept: the final answer is seen to keep it (a rounding whose places
	// every number of the answer keeps, a unit asked for that the answer
	// writes or gives its numbers bare in), or, for the most the task
	// would pay, the last choice picked from a priced listing is within
	// it (overCap).
	Kept bool `json:"kept,omitempty"`
	// Stated are the steps, the users' own but for their task's text,
	// that write one of Terms, in order.
	Stated []int32 `json:"stated,omitempty"`
	// Denied are the steps among Stated that write a term of it only to
	// say it is not needed ("no file storage is needed", "a CSV is not
	// required"): they set it aside, not take it up.
	Denied []int32 `json:"denied,omitempty"`
}

// deniedReqRe is a step's word that a thing is not needed: what follows
// "no" and comes before "is needed", or what "no need for" names. A "no"
// that begins a phrase saying something is sure ("no doubt", "no
// question", "no wonder") denies nothing: what it says is needed is.
// notNeededRe says it after the thing ("is not needed"): the thing is the
// few words of its clause before it (notNeeded).
var (
	deniedReqRe = pattern(`\bno\s{1,3}(?!(?:doubt|question|wonder)\b)(?<what>(?:[a-z-]{2,20}\s{1,3}){0,2}[a-z-]{2,20})\s{1,3}(?:is|are|will be)\s{1,3}(?:needed|required|necessary)\b|\bno\s{1,3}need\s{1,3}(?:for|to)\s{1,3}(?<what>(?:[a-z-]{2,20}\s{1,3}){0,2}[a-z-]{2,20})`, ci)
	notNeededRe = pattern(`\b(?:is|are)\s{1,3}not\s{1,3}(?:needed|required|necessary)\b`, ci)
)

// notNeeded is the thing a "not needed" at i says is not needed: the last
// three words before it in its clause.
func notNeeded(text string, i int) string {
	clause := text[strings.LastIndexAny(text[:i], ".,;:!?\n")+1 : i]
	words := strings.Fields(clause)
	return strings.Join(words[max(len(words)-3, 0):], " ")
}

// The task's phrasings of a requirement. Each is bounded: what follows
// the words that make it one is read up to the end of its clause.
var (
	includeReqRe = pattern(goWords(`including`)+`\s{1,3}(?:(?:an?|the)\s{1,3})?(?:(?<pct>\d{1,3}(?:\.\d{1,3})?)\s?%\s{1,3})?(?<what>[a-z][a-z-]{1,30}(?:\s{1,3}[a-z][a-z-]{1,30})?)`, ci)
	// A charge the task has the answer add on by its rate ("then add 8%
	// sales tax", "plus a 3% card fee"): a thing to include, as
	// "including" says it. Only a rate makes it one ("add 2 items" is
	// an action).
	addPctReqRe  = pattern(goWords(`add|adding|plus`)+`\s{1,3}(?:(?:an?|the)\s{1,3})?(?<pct>\d{1,3}(?:\.\d{1,3})?)\s?%\s{1,3}(?<what>[a-z][a-z-]{1,30}(?:\s{1,3}[a-z][a-z-]{1,30})?)`, ci)
	excludeReqRe = pattern(goWords(`excluding|except|except for|not counting|exclude`)+`\s{1,3}(?<what>[^.,;:?!()\n]{1,60})`, ci)
	// A thing the task will have none of ("with no flights"): left out,
	// as "excluding" says it.
	withNoReqRe = pattern(goWords(`with no`)+`\s{1,3}(?<what>[a-z][^.,;:?!()\n]{1,40})`, ci)
	onlyReqRe   = pattern(goWords(`only`)+`\s{1,3}(?:on|in|during|between|within|from)\s{1,3}(?<what>[^.,;:?!()\n]{1,40})`, ci)
	roundReqRe  = pattern(goWords(`round|rounded|rounding|rounds`)+`(?:\s{1,3}(?:it|each|them|all|up|down|off|the\s{1,3}(?:answer|result|value)|your\s{1,3}answer)){0,2}(?:\s{1,3}to\s{1,3}(?:the\s{1,3})?(?:nearest(?:\s{1,3}(?<unit>[a-z]{1,15}))?|(?<n>one|two|three|four|five|\d)\s{1,3}(?<kind>decimal|significant|digit)[a-z]{0,8}(?:\s{1,3}places?)?))?|`+
		goWords(`to one|to two|to three|to four|to five|to \d`)+`\s{1,3}(?<n2>)decimal[a-z]{0,8}(?:\s{1,3}places?)?|`+goWords(`whole number|an integer`), ci)
	unitReqRe   = pattern(`(?:,|`+goWords(`answer|express|expressed|give|given|report|reported|state|stated|convert|converted|measured|value`)+`)\s{1,3}(?:[a-z]{1,15}\s{1,3}){0,4}`+goWords(`in`)+`\s{1,3}(?<unit>[a-z]{2,12})(?=\s{0,3}(?:[?.,;()]|$))`, ci)
	formatReqRe = pattern(goWords(`in`)+`\s{1,3}(?:(?:the|an?)\s{1,3})?(?<what>[\w/-]{2,20})\s{1,3}format\b`, ci)
	// A data format the answer is asked in by its name: "return them as
	// a JSON list", "as CSV".
	asFormatReqRe = pattern(goWords(`as`)+`\s{1,3}(?:an?\s{1,3})?(?<what>`+goWords(`json|csv|yaml|xml|markdown|html`)+`)`, ci)
	// What a thing must do: a verb that constrains it, not "make sure".
	// A point inside a word (app.py, config.yaml) does not end the clause.
	// A qualifier the thing asked for must have, written as a compound
	// that restricts: "a non-stop flight", "a pet-friendly hotel",
	// "gluten-free", "wheelchair-accessible".
	qualifierReqRe = pattern(`(?<![\w-])(?<what>non-[a-z]{3,15}|[a-z]{2,15}-(?:free|friendly|only|accessible|proof|certified|compatible))(?![\w-])`, ci)
	// A part of the week a thing must fall in: "on a weekday", "on
	// weekends", "at the weekend". Not one it is kept from ("closed on
	// weekends", "not at the weekend"), nor a stretch of time a thing
	// was done in ("over the weekend").
	daysReqRe = pattern(`(?<!\b(?:closed|shut|not|never|except)\s{1,3})`+goWords(`on|at`)+`\s{1,3}(?:(?:a|the)\s{1,3})?(?<part>weekday|weekend)s?\b`, ci)
	// A qualifier written as one word, of what a meal may hold or a
	// flight may make: "a vegetarian restaurant", "halal", "a nonstop
	// flight". One the task denies ("I'm not vegan", "it needn't be
	// halal", "no vegetarian options needed") asks for nothing.
	wordQualifierReqRe = pattern(`(?<![\w-])(?<!(?:\b(?:not|no|never|neither|nor)|n[’']t)\s{1,3}(?:(?:be|a|an|really|strictly|necessarily)\s{1,3}){0,2})(?<what>vegetarian|vegan|halal|kosher|pescatarian|nonstop)(?![\w-])`, ci)
	// Where the thing asked for must be: "a supplier based in Canada",
	// "a brand made in Portugal".
	placeReqRe = pattern(`(?<![\w-])(?:based|located|headquartered|registered|made|manufactured|produced|sourced)\s{1,3}in\s{1,3}(?:the\s{1,3})?(?<what>\p{Lu}\p{Ll}{2,20}(?:\s\p{Lu}\p{Ll}{2,20})?)`, 0)
	// A property the numbers a task counts, sums or lists must have:
	// "how many three-digit numbers are even", "the sum of all odd
	// integers", "prime factors", "numbers divisible by 7". Only
	// properties of numbers, and "even" only where it says one of them
	// ("even more" is no property).
	propertyReqRe = pattern(`(?<![\w-])(?:(?:numbers?|integers?|digits?|divisors?|factors?|terms?|values?)\s{1,3}(?:(?:that|which)\s{1,3})?(?:are|is)\s{1,3}(?:all\s{1,3})?(?<what>even|odd|prime|composite|palindromes?|palindromic|perfect\s{1,3}squares?|divisible\s{1,3}by\s{1,3}\d{1,6}|multiples?\s{1,3}of\s{1,3}\d{1,6})|(?<what2>even|odd|prime|composite|palindromic)\s{1,3}(?:(?:[a-z]{3,6}-digit|whole|natural|positive)\s{1,3}){0,2}(?:numbers?|integers?|divisors?|factors?))(?![\w-])`, ci)
	// A statistic the answer must be, where the plain average is the
	// one a step would compute unasked: "the median order value", "the
	// standard deviation of the scores".
	statisticReqRe = pattern(goWords(`median|medians|mode|geometric mean|harmonic mean|weighted average|weighted mean|standard deviation|variance|interquartile range|percentile|quartile`), ci)
	mustReqRe      = pattern(goWords(`must|must not|must never|must also|must always|must only`)+`\s{1,3}(?<what>`+goWords(`ignore|exclude|include|skip|reject|accept|contain|handle|support|be|have|return|sort|validate|list|use`)+`(?:[^.;:?!\n]|\.(?=[a-z0-9])){1,120})`, ci)
)

// weekDays are the words that write each part of the week a task may ask
// for: its name, or its first and last day.
var weekDays = map[string][]string{"weekday": {"weekday", "monday", "friday"}, "weekend": {"weekend", "saturday", "sunday"}}

// timeUnits are the words of a span of time.
var timeUnits = toSet("second seconds minute minutes hour hours day days week weeks month months year years")

// answerUnits are the units an answer is asked in, each with the words and
// signs that write it: a step states the unit when it writes one.
var answerUnits = map[string][]string{
	"kilometres": {"kilomet", "km"}, "kilometers": {"kilomet", "km"}, "metres": {"metre", "meter", "m"}, "meters": {"metre", "meter", "m"},
	"centimetres": {"centimet", "cm"}, "centimeters": {"centimet", "cm"}, "miles": {"mile", "mi"}, "feet": {"feet", "foot", "ft"},
	"inches": {"inch"}, "grams": {"gram", "g"}, "kilograms": {"kilogram", "kg"}, "pounds": {"pound", "lb", "lbs"},
	"ounces": {"ounce", "oz"}, "litres": {"litre", "liter", "l"}, "liters": {"litre", "liter", "l"}, "gallons": {"gallon", "gal"},
	"celsius": {"celsius", "°c"}, "fahrenheit": {"fahrenheit", "°f"}, "hours": {"hour", "h", "hrs"}, "minutes": {"minute", "min", "mins"},
	"seconds": {"second", "s", "sec", "secs"}, "days": {"day"}, "weeks": {"week"}, "months": {"month"}, "years": {"year"},
	"euros": {"euro", "eur", "€"}, "dollars": {"dollar", "usd", "$"}, "cents": {"cent"}, "percent": {"percent", "%"},
}

// howManyRe is a question that counts its answer in a unit: "how many
// minutes", "how much in dollars", "how long in hours".
var howManyRe = pattern(goWords(`how`)+`\s{1,3}`+goWords(`many|much|long|far`)+`\s{1,3}(?:in\s{1,3})?(?<unit>[a-z]{2,12})\b`, ci)

// askedUnits are the forms of the units the task's questions count their
// answers in (howManyRe, answerUnits), in the order asked.
func askedUnits(task string) []string {
	t := newText(task)
	var out []string
	for _, m := range t.all(howManyRe, 0) {
		for _, f := range answerUnits[strings.ToLower(t.named(m, "unit"))] {
			out = appendNew(out, f)
		}
	}
	return out
}

// extremeWords are the words by which a question asks for the most (1) or
// the least (-1) of something.
var extremeWords = map[string]int{
	"highest": 1, "largest": 1, "biggest": 1, "greatest": 1, "most": 1, "maximum": 1, "longest": 1, "heaviest": 1,
	"lowest": -1, "smallest": -1, "least": -1, "fewest": -1, "minimum": -1, "shortest": -1, "lightest": -1, "cheapest": -1,
}

// asksExtreme is 1 when the task asks for the most of something, -1 when
// it asks for the least, 0 when it asks neither or both. "At most" and
// "at least" bound a value, and ask for no extreme.
func asksExtreme(task string) int {
	words := strings.FieldsFunc(strings.ToLower(task), func(r rune) bool { return !unicode.IsLetter(r) })
	most, least := false, false
	for k, w := range words {
		if k > 0 && words[k-1] == "at" {
			continue
		}
		switch extremeWords[w] {
		case 1:
			most = true
		case -1:
			least = true
		}
	}
	switch {
	case most && !least:
		return 1
	case least && !most:
		return -1
	}
	return 0
}

// namePart reports whether the word at w is part of a proper name: written
// with a capital inside a sentence and followed by another capitalized
// word ("the Vegan Society", "Halal Guys"), a topic the task names, not
// a quality it asks for.
func namePart(task string, w span) bool {
	next := strings.TrimLeft(task[w.End:], " ")
	return w.End > w.Start && unicode.IsUpper(rune(task[w.Start])) && !opensSentence(task, w.Start) && next != "" && unicode.IsUpper(rune(next[0])) &&
		!titleCased(task, w.Start)
}

// titleSmallWords are the words a title leaves in lower case.
var titleSmallWords = toSet("a an the and or nor but for of in on at to by with from as per via into up vs so")

// titleCased reports whether the sentence around at is written in title
// case ("Book a Vegetarian Restaurant for Friday"): past its first word,
// every word is capitalized but a title's small ones, and three or more
// are. There a capital marks no proper name.
func titleCased(text string, at int) bool {
	start := strings.LastIndexAny(text[:at], ".!?\n") + 1
	end := len(text)
	if k := strings.IndexAny(text[at:], ".!?\n"); k >= 0 {
		end = at + k
	}
	words := strings.FieldsFunc(text[start:end], func(r rune) bool { return !unicode.IsLetter(r) && r != '\'' && r != '’' })
	capitals := 0
	for i, w := range words {
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case i == 0 || !unicode.IsLetter(r):
		case unicode.IsUpper(r):
			capitals++
		case !titleSmallWords[w]:
			return false
		}
	}
	return capitals >= 3
}

// requirementStop are words too common to tell of a requirement.
var requirementStop = map[string]bool{
	"the": true, "and": true, "for": true, "with": true, "that": true, "this": true, "from": true, "into": true, "any": true,
	"are": true, "was": true, "were": true, "has": true, "have": true, "who": true, "which": true, "whose": true, "its": true,
	"their": true, "them": true, "they": true, "one": true, "ones": true, "all": true, "each": true, "every": true, "not": true,
	"than": true, "then": true, "also": true, "only": true, "will": true, "can": true, "should": true, "been": true, "being": true,
	"return": true, "returns": true, "give": true, "gives": true, "use": true, "uses": true, "what": true, "when": true,
	"must": true, "most": true, "least": true, "more": true, "less": true, "anyone": true, "anything": true, "everyone": true,
}

// requirements reads the constraints a task states, and which steps take
// each up.
func requirements(task string, steps []run.Step) []Requirement {
	if task == "" {
		return nil
	}
	t := newText(task)
	taskTokens := tokens(strings.ToLower(task))
	var out []Requirement
	add := func(text string, terms []string) {
		if len(terms) > 0 {
			out = append(out, Requirement{Text: strings.TrimSpace(text), Terms: terms, Places: -1})
		}
	}
	// distinct are the words of a span that the task writes nowhere else:
	// what sets the requirement apart from the task's other items.
	distinct := func(m match, what string) []string {
		w := m.Whole()
		var out []string
		for _, tk := range tokens(strings.ToLower(what)) {
			tok := tk.s
			stem := Stem(tok)
			if len(stem) < 3 || requirementStop[tok] || isNumber(tok) {
				continue
			}
			elsewhere := false
			for _, o := range taskTokens {
				if (o.end <= w.Start || o.start >= w.End) && strings.HasPrefix(o.s, stem) {
					elsewhere = true
					break
				}
			}
			if !elsewhere {
				out = appendNew(out, stem)
			}
		}
		return out
	}
	for _, m := range append(t.all(includeReqRe, 0), t.all(addPctReqRe, 0)...) {
		var terms []string
		if p := t.named(m, "pct"); p != "" {
			terms = append(terms, percentForms(p)...)
		}
		for _, tk := range tokens(strings.ToLower(t.named(m, "what"))) {
			if !requirementStop[tk.s] {
				terms = appendNew(terms, Stem(tk.s))
			}
		}
		add(t.str(m.Whole()), terms)
	}
	for _, m := range t.all(excludeReqRe, 0) {
		add(t.str(m.Whole()), append([]string{"exclud", "except", "omit", "remov", "without", "skip", "leav"}, distinct(m, t.named(m, "what"))...))
	}
	for _, m := range t.all(withNoReqRe, 0) {
		// The thing's own words are no sign a step takes the exclusion
		// up: a step that names it may be the one that takes it.
		add(t.str(m.Whole()), []string{"exclud", "except", "omit", "remov", "without", "skip", "leav", "avoid"})
	}
	for _, m := range t.all(onlyReqRe, 0) {
		add(t.str(m.Whole()), append([]string{"only"}, distinct(m, t.named(m, "what"))...))
	}
	past := pastSpans(task)
	for _, m := range t.all(daysReqRe, 0) {
		// A part of the week the thing asked for must fall in ("a flight
		// departing on a weekday"); "only on weekdays" is read above. A
		// sentence that tells of the past asks for nothing ("we met at
		// the weekend").
		if slices.ContainsFunc(past, func(s span) bool { return s.Start <= m.Whole().Start && m.Whole().Start < s.End }) {
			continue
		}
		if text := t.str(m.Whole()); !slices.ContainsFunc(out, func(r Requirement) bool { return strings.Contains(r.Text, text) }) {
			add(text, weekDays[strings.ToLower(t.named(m, "part"))])
		}
	}
	for _, re := range []*matching.Pattern{qualifierReqRe, wordQualifierReqRe, placeReqRe} {
		for _, m := range t.all(re, 0) {
			if re == wordQualifierReqRe && namePart(task, m.Whole()) {
				continue
			}
			add(t.str(m.Whole()), distinct(m, t.named(m, "what")))
		}
	}
	for _, m := range t.all(propertyReqRe, 0) {
		what := t.named(m, "what") + t.named(m, "what2")
		add(t.str(m.Whole()), propertyTerms(strings.ToLower(what)))
	}
	bounds := taskBounds(task)
	for _, b := range bounds {
		if !b.strict {
			// A bound ("at most 20 characters"): a step that carries it
			// writes its figure, or words of a limit.
			add(b.text(task), []string{b.figure, "limit", "maximum", "minimum", "exceed"})
		}
	}
	for _, b := range bounds {
		if b.strict && (b.money || !timeUnits[b.unit]) {
			// A threshold ("for every kg above 2 kg", "orders over
			// $100"): a step that carries it writes its figure. A span
			// of time past a figure ("over 4 weeks") is how long, no
			// value to compare.
			add(b.text(task), []string{b.figure})
		}
	}
	for _, m := range t.all(roundReqRe, 0) {
		if namesThing(task, m.Whole()) {
			continue // "a round trip", "a rounding error": no rounding asked
		}
		places := roundingPlaces(strings.ToLower(t.str(m.Whole())), strings.ToLower(t.named(m, "unit")))
		if places < 0 {
			continue // significant figures, or a rounding read no further
		}
		terms := []string{"round", "nearest", "whole", "integer", "ceil", "floor", "trunc"}
		if places > 0 {
			terms = []string{"round", "decimal", "places", "nearest"}
		}
		add(t.str(m.Whole()), terms)
		out[len(out)-1].Places = places
	}
	for _, m := range t.all(unitReqRe, 0) {
		if forms, ok := answerUnits[strings.ToLower(t.named(m, "unit"))]; ok {
			add(t.str(m.Whole()), forms)
			out[len(out)-1].Unit = true
		}
	}
	for _, re := range []*matching.Pattern{formatReqRe, asFormatReqRe} {
		for _, m := range t.all(re, 0) {
			if re == asFormatReqRe && tellsWhatWasDone(task[:m.Whole().Start]) {
				continue // "the sales were exported as a CSV file": the input's format
			}
			add(t.str(m.Whole()), []string{strings.ToLower(t.named(m, "what")), "format"})
		}
	}
	for _, m := range t.all(statisticReqRe, 0) {
		add(t.str(m.Whole()), statisticTerms(strings.ToLower(t.str(m.Whole()))))
	}
	for _, m := range t.all(mustReqRe, 0) {
		// Each clause of what must be done is a requirement of its own.
		what := t.named(m, "what")
		for _, part := range splitClauses(what) {
			add(part, append(withoutLeadParts(part, distinct(m, part)), fileNames(part)...))
		}
	}
	if len(out) == 0 {
		return nil
	}
	stated(out, task, steps)
	return out
}

// statisticTerms are the words a step takes a statistic up by: its own
// stems, and the names code computes it by (pandas' quantile for a
// median, std and var for their statistics).
func statisticTerms(what string) []string {
	var out []string
	for _, w := range strings.Fields(what) {
		out = appendNew(out, Stem(w))
	}
	switch {
	case strings.HasPrefix(what, "median"), strings.HasSuffix(what, "quartile"), strings.HasSuffix(what, "percentile"), strings.HasSuffix(what, "range"):
		out = appendNew(out, "quantil")
	case what == "standard deviation":
		out = appendNew(out, "std")
	case what == "variance":
		out = appendNew(out, "var")
	}
	return out
}

// propertyTerms are the words and signs a step takes a property of
// numbers up by: its own word, or what code that tests it writes (a
// remainder's "%", sympy's isprime).
func propertyTerms(what string) []string {
	f := strings.Fields(what)
	switch {
	case what == "even" || what == "odd":
		return []string{"even", "odd", "parit", "%"}
	case what == "prime" || what == "composite":
		return []string{"prime", "composit", "isprime", "primerange", "factorint", "sieve"}
	case strings.HasPrefix(what, "palindrom"):
		return []string{"palindrom", "revers", "[::-1]"}
	case strings.HasPrefix(what, "perfect"):
		return []string{"square", "sqrt", "isqrt"}
	case len(f) > 0 && (f[0] == "divisible" || strings.HasPrefix(f[0], "multiple")):
		return []string{"divisib", "multipl", "%", f[len(f)-1]}
	}
	return nil
}

// roundingPlaces is the decimal places a rounding (its text, and the unit
// "to the nearest" names) lets the answer keep, or -1 for one read no
// further (significant figures).
func roundingPlaces(text, unit string) int {
	words := map[string]int{"one": 1, "two": 2, "three": 3, "four": 4, "five": 5}
	for _, f := range strings.Fields(text) {
		n, ok := words[f]
		if !ok {
			if d, err := strconv.Atoi(f); err == nil {
				n, ok = d, true
			}
		}
		if ok {
			if strings.Contains(text, "significant") || strings.Contains(text, "digit") {
				return -1
			}
			if strings.Contains(text, "decimal") {
				return n
			}
		}
	}
	switch unit {
	case "tenth":
		return 1
	case "hundredth":
		return 2
	case "thousandth":
		return 3
	}
	return 0
}

// keptRounding marks the roundings whose places every number of the final
// answer keeps (an answer of "12" keeps a rounding to a whole number, one
// of "8.33" does not), the units asked for that the answer writes,
// or that it gives its numbers bare in (keptUnit) unless a step before it
// gave one of them in another unit (givenInOther), and the clock asked
// for that it writes its times in (keptClock).
func keptRounding(reqs []Requirement, fa *FinalAnswer, steps []run.Step) {
	for r := range reqs {
		if reqs[r].Unit {
			reqs[r].Kept = fa != nil && keptUnit(reqs[r].Terms, fa.Text) && !givenInOther(reqs[r].Terms, fa, steps)
			continue
		}
		if clock, ok := clockFormat(reqs[r].Terms); ok {
			reqs[r].Kept = fa != nil && keptClock(clock, fa.Text)
			continue
		}
		if reqs[r].Places < 0 {
			continue
		}
		kept := fa == nil
		if fa != nil {
			kept = true
			for _, c := range fa.Claims {
				if c.Kind != ClaimNumber {
					continue
				}
				v, _ := c.Value()
				if k := strings.IndexByte(v, '.'); k >= 0 && len(v)-k-1 > reqs[r].Places {
					kept = false
				}
			}
		}
		reqs[r].Kept = kept
	}
}

// clockFormat reads a format requirement's terms (formatReqRe's "in
// 24-hour format") as the clock it asks times in: 24 or 12, ok when it
// asks one.
func clockFormat(terms []string) (int, bool) {
	if len(terms) != 2 || terms[1] != "format" {
		return 0, false
	}
	switch terms[0] {
	case "24-hour", "24h", "24-hr", "24hr":
		return 24, true
	case "12-hour", "12h", "12-hr", "12hr":
		return 12, true
	}
	return 0, false
}

// keptClock reports whether an answer writes its times (the times of
// day claims read) in the clock asked: a time with a colon, with an a.m.
// or p.m. after a time for the 12-hour clock and with none for the
// 24-hour clock (the word "am" elsewhere, "I am", is none).
func keptClock(clock int, answer string) bool {
	t := newText(answer)
	colon, ap := false, false
	for _, m := range t.times(maxMatches) {
		if _, ok := timeNorm(t, m); !ok {
			continue
		}
		colon = colon || t.str(m.min) != ""
		ap = ap || t.str(m.ap) != ""
	}
	return colon && ap == (clock == 12)
}

// keptUnit reports whether an answer keeps the unit asked for (its
// terms): it writes the unit ("48.27 km"), or it writes numbers and
// none with a word after it ("-17.9"), a bare figure the asker reads in
// the unit asked. An answer of "30 miles" or "5 cups flour" gives its
// figure in a unit of its own.
func keptUnit(terms []string, answer string) bool {
	toks := tokens(strings.ToLower(answer))
	if wordsOf(toks).writes(termsOf(terms)) {
		return true
	}
	numbers := 0
	for k, tok := range toks {
		if !isNumber(tok.s) {
			continue
		}
		numbers++
		if k+1 < len(toks) && isWord(toks[k+1].s) {
			return false
		}
	}
	return numbers > 0
}

// givenInOther reports whether a step before the final answer's (not the
// task's own) writes one of the numbers the answer gives, followed by
// another unit of the quantity asked for (terms): "545.5 miles" before an
// answer of "545.5" asked in kilometres. The bare figure was worked out
// in that other unit, and the answer does not keep the one asked. A unit
// of another quantity ("the next 3 hours" before a temperature of 3) says
// nothing of the answer's unit.
func givenInOther(terms []string, fa *FinalAnswer, steps []run.Step) bool {
	var nums []float64
	for _, tok := range tokens(strings.ToLower(fa.Text)) {
		if x, ok := plainNumber(tok.s); ok {
			nums = append(nums, x)
		}
	}
	if len(nums) == 0 {
		return false
	}
	asked := unitsAmong(terms)
	task := firstUser(steps)
	var toks []token
	for i := range min(fa.Step, len(steps)) {
		if i == task {
			continue
		}
		toks = appendTokens(toks[:0], strings.ToLower(steps[i].Content))
		for k := 0; k+1 < len(toks); k++ {
			if x, ok := plainNumber(toks[k].s); ok && slices.Contains(nums, x) && otherUnit(toks[k+1].s, asked) {
				return true
			}
		}
	}
	return false
}

// plainNumber reads a token as a number, not a percentage.
func plainNumber(s string) (float64, bool) {
	if s == "" || strings.HasSuffix(s, "%") || !isDigit(s[0]) && s[0] != '.' {
		return 0, false
	}
	x, err := strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
	return x, err == nil
}

// unitQuantity is the quantity each unit of answerUnits measures.
var unitQuantity = map[string]string{
	"kilometres": "length", "kilometers": "length", "metres": "length", "meters": "length", "centimetres": "length",
	"centimeters": "length", "miles": "length", "feet": "length", "inches": "length",
	"grams": "mass", "kilograms": "mass", "pounds": "mass", "ounces": "mass",
	"litres": "volume", "liters": "volume", "gallons": "volume",
	"celsius": "temperature", "fahrenheit": "temperature",
	"hours": "time", "minutes": "time", "seconds": "time", "days": "time", "weeks": "time", "months": "time", "years": "time",
	"euros": "money", "dollars": "money", "cents": "money",
}

// unitsAmong is the units of answerUnits one of whose forms is among
// terms: the units a requirement asks for.
func unitsAmong(terms []string) map[string]bool {
	asked := map[string]bool{}
	for unit, forms := range answerUnits {
		if slices.ContainsFunc(forms, func(f string) bool { return slices.Contains(terms, f) }) {
			asked[unit] = true
		}
	}
	return asked
}

// otherUnit reports whether the word w is, whole, a unit of answerUnits
// ("miles", "mile", "mi") that measures the quantity of a unit asked
// (unitsAmong) and is not that unit. "4 sections" writes no second, "3
// hours" no temperature.
func otherUnit(w string, asked map[string]bool) bool {
	for unit, forms := range answerUnits {
		if w != unit && w != strings.TrimSuffix(unit, "s") && !slices.Contains(forms, w) {
			continue
		}
		if asked[unit] {
			return false
		}
		for a := range asked {
			if q := unitQuantity[unit]; q != "" && q == unitQuantity[a] {
				return true
			}
		}
	}
	return false
}

// stated fills in, for each requirement, the steps that write one of its
// terms: not the task's own text, which a step restating the task quotes,
// nor a tool's output, which may list what was asked among what was not
// (a search's "pet_friendly": false) and takes nothing up; a call that
// asked for it writes it in its arguments.
func stated(reqs []Requirement, task string, steps []run.Step) {
	if len(reqs) == 0 {
		return
	}
	q := strings.ToLower(collapse(task))
	terms := make([][]term, len(reqs))
	for r := range reqs {
		terms[r] = termsOf(reqs[r].Terms)
	}
	var toks []token
	var w words
	for i, s := range steps {
		text := strings.ToLower(collapse(s.Content))
		if k := strings.Index(text, q); q != "" && k >= 0 {
			text = text[:k] + " " + text[k+len(q):]
		}
		if text == "" || s.Kind == run.KindUser && i == firstUser(steps) || s.Kind == run.KindToolResult {
			continue
		}
		toks = appendTokens(toks[:0], text)
		w.read(toks)
		w.text = text
		var denials []words
		lt := newText(text)
		for _, m := range lt.all(deniedReqRe, maxPerKind) {
			denials = append(denials, wordsOf(tokens(lt.named(m, "what"))))
		}
		for _, m := range lt.all(notNeededRe, maxPerKind) {
			denials = append(denials, wordsOf(tokens(notNeeded(text, m.Whole().Start))))
		}
		for r := range reqs {
			if !w.writes(terms[r]) {
				continue
			}
			reqs[r].Stated = append(reqs[r].Stated, int32(i))
			if slices.ContainsFunc(denials, func(d words) bool { return d.writes(terms[r]) }) {
				reqs[r].Denied = append(reqs[r].Denied, int32(i))
			}
		}
	}
}

// firstUser is the index of the first user's step, the task's, or -1.
func firstUser(steps []run.Step) int {
	for i, s := range steps {
		if s.Kind == run.KindUser {
			return i
		}
	}
	return -1
}

// term is a requirement's term as a step writes it: a number or a sign
// whole, a word as the start of a word.
type term struct {
	s      string
	x      float64
	number bool // s is a number: a step writes it in any form of its value ("100.00")
	whole  bool // a number, a sign or a word of under three letters
	file   bool // a file's name: a step writes it whole, point and all
}

// termsOf reads terms once, for every step they are looked for in.
func termsOf(terms []string) []term {
	out := make([]term, len(terms))
	for k, s := range terms {
		x, err := strconv.ParseFloat(s, 64)
		out[k] = term{s: s, x: x, number: err == nil, whole: err == nil || len(s) < 3 || !isWord(s), file: err != nil && isFileName(s)}
	}
	return out
}

// words are a step's tokens as terms are looked for in them: each token,
// the tokens in order (for a word's start), and the numbers they write.
type words struct {
	set     map[string]bool
	sorted  []string
	numbers map[float64]bool
	text    string // the lower-case text, for the files it names
}

// wordsOf indexes toks, so that a long run's steps are each read once
// however many requirements the task states.
func wordsOf(toks []token) words {
	var w words
	w.read(toks)
	return w
}

// read indexes toks in place of what w held: a caller reading many
// steps in turn reuses one index.
func (w *words) read(toks []token) {
	if w.set == nil {
		w.set, w.numbers = make(map[string]bool, len(toks)), map[float64]bool{}
	}
	clear(w.set)
	clear(w.numbers)
	w.sorted = w.sorted[:0]
	for _, tok := range toks {
		if w.set[tok.s] {
			continue
		}
		w.set[tok.s] = true
		w.sorted = append(w.sorted, tok.s)
		if !numeral(tok.s) {
			continue
		}
		if y, err := strconv.ParseFloat(tok.s, 64); err == nil {
			w.numbers[y] = true
		}
	}
	sort.Strings(w.sorted)
}

// writes reports whether the step writes one of terms: a number or a
// sign whole, a word as the start of a word.
func (w words) writes(terms []term) bool {
	for _, t := range terms {
		if w.set[t.s] || t.number && w.numbers[t.x] || t.file && namesFile(w.text, t.s) {
			return true // "100.00" writes 100
		}
		if !t.whole {
			k := sort.SearchStrings(w.sorted, t.s)
			if k < len(w.sorted) && strings.HasPrefix(w.sorted[k], t.s) {
				return true
			}
		}
	}
	return false
}

// namesFile reports whether text writes the file name f whole: not as
// the end of a longer name (myapp.py) or the start of one (app.pyc).
func namesFile(text, f string) bool {
	for i := 0; ; {
		k := strings.Index(text[i:], f)
		if k < 0 {
			return false
		}
		start, end := i+k, i+k+len(f)
		if (start == 0 || !nameByte(text[start-1]) && text[start-1] != '-' && text[start-1] != '.') && (end == len(text) || !nameByte(text[end])) {
			return true
		}
		i = start + 1
	}
}

// token is a word, number or sign of a text, with its byte span.
type token struct {
	s          string
	start, end int
}

// tokens splits a lower-case text into words, numbers (with their points
// and percent signs) and currency or degree signs.
func tokens(s string) []token { return appendTokens(nil, s) }

// appendTokens appends the tokens of s to out: a caller reading many texts
// in turn reuses one slice.
func appendTokens(out []token, s string) []token {
	n := len(out)
	start := -1
	for i, r := range s {
		in := unicode.IsLetter(r) || unicode.IsDigit(r) || r == '%' || r == '°'
		if r == '.' || r == ',' {
			in = start >= 0 && i+1 < len(s) && s[i+1] >= '0' && s[i+1] <= '9' && isNumber(s[start:i])
		}
		if r == '$' || r == '€' || r == '£' {
			if start >= 0 {
				out = append(out, token{s[start:i], start, i})
			}
			out = append(out, token{string(r), i, i + len(string(r))})
			start = -1
			continue
		}
		switch {
		case in && start < 0:
			start = i
		case !in && start >= 0:
			out = append(out, token{s[start:i], start, i})
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, token{s[start:], start, len(s)})
	}
	for i := n; i < len(out); i++ {
		out[i].s = strings.ReplaceAll(out[i].s, ",", "")
	}
	return out
}

// percentForms are the ways a step writes a percentage: "8%", and the
// factors 0.08 and 1.08 it computes with.
func percentForms(p string) []string {
	out := []string{p + "%"}
	if x, err := strconv.ParseFloat(p, 64); err == nil && x > 0 && x < 100 {
		out = append(out, strconv.FormatFloat(x/100, 'f', -1, 64), strconv.FormatFloat(1+x/100, 'f', -1, 64))
	}
	return out
}

// fileNames are the names of files a clause names (app.py, settings.toml),
// in lower case: a term a step writes whole, as the file's name.
func fileNames(clause string) []string {
	var out []string
	for _, f := range strings.Fields(clause) {
		f = strings.ToLower(strings.Trim(f, "`'\"()[],"))
		if !strings.Contains(f, "/") && FileLike(f) && isFileName(f) {
			out = appendNew(out, f)
		}
	}
	return out
}

// isFileName reports whether w is a name and an extension of letters and
// digits, joined by one point: app.py, not e.g or 3.11.
func isFileName(w string) bool {
	name, ext, ok := strings.Cut(w, ".")
	if !ok || strings.Contains(ext, ".") || len(name) < 2 || len(ext) < 2 || !isLetter(name[0]) {
		return false
	}
	for _, part := range []string{name, ext} {
		for i := 0; i < len(part); i++ {
			if !nameByte(part[i]) && part[i] != '-' {
				return false
			}
		}
	}
	return true
}

// withoutLeadParts is a clause's terms but the words that open a
// hyphenated compound of it ("case" of "case-insensitive", "thread" of
// "thread-safe"), when another term is left: a step that writes the
// compound's opposite ("case-sensitive") writes that word too, and only
// the rest of the compound tells the requirement apart.
func withoutLeadParts(clause string, terms []string) []string {
	lead := map[string]bool{}
	toks := tokens(strings.ToLower(clause))
	for k := 0; k+1 < len(toks); k++ {
		if toks[k+1].start == toks[k].end+1 && clause[toks[k].end] == '-' {
			lead[Stem(toks[k].s)] = true
		}
	}
	var out []string
	for _, t := range terms {
		if !lead[t] {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return terms
	}
	return out
}

// splitClauses splits what a task says must be done at "and" and commas,
// each clause from its own "must" on.
func splitClauses(s string) []string {
	s = strings.ReplaceAll(s, ",", " and ")
	var out []string
	for part := range strings.SplitSeq(s, " and ") {
		if k := strings.LastIndex(strings.ToLower(part), "must "); k >= 0 {
			part = part[k+len("must "):]
		}
		if strings.TrimSpace(part) != "" {
			out = append(out, part)
		}
	}
	return out
}

func isNumber(s string) bool {
	_, err := strconv.ParseFloat(strings.TrimSuffix(strings.ReplaceAll(s, ",", ""), "%"), 64)
	return err == nil
}

func isWord(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// numeral reports whether a token may read as a number: one that begins
// with a digit or a point, or a word strconv reads as one. The others
// are not parsed, as a failed parse costs an error's allocation.
func numeral(s string) bool {
	if s == "" {
		return false
	}
	switch {
	case s[0] >= '0' && s[0] <= '9', s[0] == '.':
		return true
	}
	switch s {
	case "inf", "infinity", "nan":
		return true
	}
	return false
}

// tellsWhatWasDone reports whether the clause that head ends (the task's
// text up to a format named after "as") tells what someone did rather
// than asks: it opens on its subject (a pronoun, a determiner or a
// possessive: "Our store exported the sales as a CSV file", "The logs are
// stored as JSON"), a verb in the past stands in it, and no word of asking
// ("must", "should", "please", "need") does. A request opens on its verb
// ("Return them as a JSON list") or asks in so many words.
func tellsWhatWasDone(head string) bool {
	if k := strings.LastIndexAny(head, ".!?;:\n"); k >= 0 {
		head = head[k+1:]
	}
	words := strings.Fields(strings.ToLower(head))
	if len(words) == 0 || !clauseSubjects[strings.Trim(words[0], "\"'(")] {
		return false
	}
	past := false
	for _, w := range words[1:] {
		w = strings.Trim(w, ",\"'()")
		if askingWords[w] {
			return false
		}
		if len(w) >= 5 && strings.HasSuffix(w, "ed") {
			past = true
		}
	}
	return past
}

var (
	clauseSubjects = toSet("i we you they he she it our my your their his her its the this these those a an")
	askingWords    = toSet("must should shall need needs want wants please would could can will make")
)

// namesThing reports whether a rounding word matched alone (round,
// rounds, rounding) stands before a noun it describes ("a round trip",
// "three rounds of talks", "a rounding error") rather than asking for a
// rounding: the verb comes before what it rounds (it, each, the answer,
// a figure, your result) or closes its clause ("Please round.").
func namesThing(task string, sp span) bool {
	switch strings.ToLower(task[sp.Start:sp.End]) {
	case "round", "rounds", "rounding":
	default:
		return false
	}
	next, _, _ := strings.Cut(strings.TrimLeft(task[sp.End:], " \t"), " ")
	next = strings.ToLower(strings.TrimRightFunc(next, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
	if next == "" || !unicode.IsLetter([]rune(next)[0]) {
		return false
	}
	return !roundedObjects[next]
}

// roundedObjects are the words that open what a rounding verb rounds.
var roundedObjects = toSet("it its each all them the this that these those every your my our their a an to up down off half any both")
