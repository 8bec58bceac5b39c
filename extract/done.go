package extract

import (
	"cmp"
	"slices"
	"strings"

	matching "github.com/offattr/offattr/internal/match"
)

// doneRe finds an action a step reports as done, in the perfect or the
// passive ("has been cancelled", "I've refunded", "is now booked", "we
// successfully updated", "has been sent"): the verb's past participle,
// a regular one or one of the irregular participles of changeVerbs
// (irregularParticiples). A negation between
// ("has not been cancelled") is not one of the words allowed before it.
var doneRe = pattern(`\b(?:has|have|had|'s|'ve|’s|’ve|was|were|is|are|i|we)\s{1,3}(?:(?:now|already|just|successfully|been|fully|also)\s{1,3}){0,2}(?<v>[a-z]{3,20}ed|sent|paid|written|frozen|unfrozen)\b`, ci)

// conditionRe finds a word that opens a clause of condition or time
// ("once it is cancelled", "if the order is returned"): what such a
// clause tells as done is what will follow, not what was.
var conditionRe = pattern(`\b(?:once|if|when|whenever|after|before|until|unless|as\s{1,3}soon\s{1,3}as)\b`, ci)

// askRe finds an action a step asks for: the verb after a request's
// words ("please cancel", "could you refund", "I'd like to exchange").
//
// imperativeRe finds one a sentence opens with, the verb before its
// object ("Book me a hotel", "Refund just that mug", "Cancel the
// order"): a sentence that opens with a verb's noun ("Order 88412
// arrived", "Return policy:") has none after it.
var imperativeRe = pattern(`(?:^|[.!?:]\s{1,3}|\n\s{0,3})(?<v>[a-z]{3,20})\s{1,3}(?:(?:also|just|now)\s{1,3})?(?:me|my|us|our|a|an|the|this|that|these|those|it|them|both|all)\b`, ci)

var askRe = pattern(`\b(?:please|kindly|can\s{1,3}you|could\s{1,3}you|would\s{1,3}you|will\s{1,3}you|want\s{1,3}to|like\s{1,3}to|need\s{1,3}to|help\s{1,3}me|go\s{1,3}ahead\s{1,3}and)\s{1,3}(?:(?:also|just|now|please)\s{1,3})?(?<v>[a-z]{3,20})\b`, ci)

// refuseRe finds an action a step says cannot be taken ("it can't be
// cancelled", "I'm unable to refund", "is not eligible for an
// exchange"): the verb, or the noun of its act, after the refusal.
var refuseRe = pattern(`\b(?:can(?:no|'|’)t|can\s{1,3}not|unable\s{1,3}to|not\s{1,3}able\s{1,3}to|not\s{1,3}allowed\s{1,3}to|not\s{1,3}permitted\s{1,3}to|(?:not|n't|n’t)\s{1,3}eligible\s{1,3}(?:to|for)|won(?:'|’)t\s{1,3}be\s{1,3}able\s{1,3}to)\s{1,3}(?:(?:be|an?|the|any)\s{1,3}){0,2}(?<v>[a-z]{3,20})\b`, ci)

// relativeDayRe finds a day named by where it falls from today:
// "tomorrow", "next Monday", "this weekend", "in 3 days", "in three
// days", "in a week", "to Thursday".
// A weekday that ends a span of days begun by another ("Monday to
// Friday", "from Tuesday until Thursday") names every such week, not a
// day from today, unless a day is moved so ("move it from Monday to
// Thursday"). A weekday written beside its date ("on Saturday 15 May
// 2027", "this Friday, June 12", "Friday the 12th") names that date.
var relativeDayRe = pattern(`\b(?:(?:mov|chang|reschedul|shift|push|switch)\w{0,4}\b[^.?!\n]{0,40}?\bfrom\s{1,3}(?:mon|tues|wednes|thurs|fri|satur|sun)day\s{1,3}(?:to|until)\s{1,3}(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)|today|tonight|tomorrow|yesterday|(?:next|this|last|coming)\s{1,3}(?:week|weekend|month|monday|tuesday|wednesday|thursday|friday|saturday|sunday)`+besideDate+`|(?:on|by|for|before|after|(?<!(?:mon|tues|wednes|thurs|fri|satur|sun)days?,?\s{1,3})(?:to|until))\s{1,3}(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)`+besideDate+`|in\s{1,3}(?:\d{1,2}|a|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|a\s{1,3}couple\s{1,3}of|a\s{1,3}few)\s{1,3}days?|in\s{1,3}(?:a|one|two)\s{1,3}weeks?)\b`, ci)

// besideDate is the lookahead that keeps a weekday followed by a day of
// the month, or a month and its day, from counting as a day from today.
const besideDate = `(?!,?\s{1,3}(?:the\s{1,3})?\d{1,2}(?:st|nd|rd|th)?\b(?!\s{0,2}(?::|am\b|pm\b|h\b))|,?\s{1,3}(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]{0,6}\.?\s{1,3}\d{1,2}(?:st|nd|rd|th)?\b)`

// maxDone caps the actions read as done, or asked for, in one step.
const maxDone = 20

// done returns the verbs a text reports done, lower case, each once, in
// the order written. A verb in a clause of condition or time (an agent's
// "Once the order is cancelled, the refund goes back to your card. Do
// you confirm?") tells what an action will do, before it is taken.
func done(t *text) []string {
	var out []string
	conds := t.all(conditionRe, maxDone)
	for _, m := range t.all(doneRe, maxDone) {
		at, from := m.Groups[0].Start, clauseStart(t.s, m.Groups[0].Start)
		if slices.ContainsFunc(conds, func(c match) bool { return c.Groups[0].Start >= from && c.Groups[0].Start < at }) {
			continue
		}
		if v := strings.ToLower(t.named(m, "v")); !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// lightVerbs are verbs that name no act of their own but the noun after
// them ("issue a refund", "process the exchange", "make changes").
var lightVerbs = toSet("issue process make do handle perform provide give offer arrange")

// actNounRe reads the noun right after a light verb, past an article or
// a determiner.
var actNounRe = pattern(`^\s{1,3}(?:(?:a|an|the|any|this|that|these|those|your|such)\s{1,3})?([a-z]{3,20})\b`, ci)

// changeAct reports whether word is a verb of change (changeVerbs) or
// its act's noun, singular or plural ("refunds", "cancellation").
func changeAct(word string) bool {
	for v := range changeVerbs {
		if !lightVerbs[v] && (word == v || word == v+"s" || SameStem(word, v)) {
			return true
		}
	}
	return false
}

// clauseStart returns where the clause of s that holds the byte at
// starts: after the last comma, semicolon, colon, question or exclamation
// mark, line break, or full stop before a space, before at.
func clauseStart(s string, at int) int {
	for i := at - 1; i >= 0; i-- {
		switch s[i] {
		case ',', ';', ':', '!', '?', '\n':
			return i + 1
		case '.':
			if i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\n') {
				return i + 1
			}
		}
	}
	return 0
}

// sentenceEnd returns where the sentence of s that holds the byte at
// ends: at the next question or exclamation mark, semicolon, line break,
// or full stop before a space, or at the end of s.
func sentenceEnd(s string, at int) int {
	for i := at; i < len(s); i++ {
		switch s[i] {
		case ';', '!', '?', '\n':
			return i
		case '.':
			if i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n' {
				return i
			}
		}
	}
	return len(s)
}

// changeVerbs are English verbs of changing a record, as a person asks
// a service for it: a call's acting verbs (actVerbs) and the others
// support is asked for, which a confirmation policy names its actions by. Asking to check, find, confirm or include
// changes nothing.
var changeVerbs = toSet("save create add update set delete remove send post put write cancel book modify exchange return transfer " +
	"refund refill change replace switch upgrade downgrade reset reschedule rebook freeze unfreeze block unblock renew order place schedule file close activate deactivate suspend reactivate pay charge issue enroll enrol register unsubscribe subscribe " +
	"move purchase reserve submit terminate")

// asked returns the verbs of change (changeVerbs) a text asks another
// to act by, lower case, each once, in the order written.
func asked(t *text) []string {
	type verb struct {
		at int
		v  string
	}
	var found []verb
	for _, re := range []*matching.Pattern{askRe, imperativeRe} {
		for _, m := range t.all(re, maxDone) {
			if v := strings.ToLower(t.named(m, "v")); changeVerbs[v] {
				found = append(found, verb{m.Groups[0].Start, v})
			}
		}
	}
	slices.SortStableFunc(found, func(a, b verb) int { return cmp.Compare(a.at, b.at) })
	var out []string
	for _, f := range found {
		if !slices.Contains(out, f.v) {
			out = append(out, f.v)
		}
	}
	return out
}

// onYouRe finds a condition set on the other party ("until you
// confirm", "without your confirmation", "unless you send me the
// receipt"), the rest of a refusal's sentence read.
var onYouRe = pattern(`\b(?:until|unless|without|before)\b[^.!?;\n]{0,40}?\b(?:you|your)\b`, ci)

// refused returns the verbs (or the nouns of their acts) a text says
// cannot be done, lower case, each once, in the order written. An
// action that cannot be taken until the other party does something
// ("I can't cancel it until you confirm") is asked of them, not refused:
// their reply may be what it waits for.
func refused(t *text) []string {
	var out []string
	for _, m := range t.all(refuseRe, maxDone) {
		end := m.Groups[0].End
		if _, ok := firstIn(onYouRe, t.s[end:sentenceEnd(t.s, end)]); ok {
			continue
		}
		v := strings.ToLower(t.named(m, "v"))
		if lightVerbs[v] {
			// "can't issue refunds", "unable to process the exchange":
			// the act refused is the noun the light verb takes.
			if act, ok := firstIn(actNounRe, t.s[end:sentenceEnd(t.s, end)]); ok && changeAct(strings.ToLower(act)) {
				v = strings.ToLower(act)
			}
		}
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// irregularParticiples are the past participles of changeVerbs that do
// not end in -ed, and their verbs.
var irregularParticiples = map[string]string{"sent": "send", "paid": "pay", "written": "write", "frozen": "freeze", "unfrozen": "unfreeze"}

// VerbForms returns the forms a past participle's verb may be written in
// before its ending ("cancelled": cancell, cancel; "updated": updat,
// update; "modified": modifi, modify; "sent": send), for finding where
// the verb was asked for.
func VerbForms(participle string) []string {
	if verb, ok := irregularParticiples[participle]; ok {
		return []string{verb}
	}
	base, ok := strings.CutSuffix(participle, "ed")
	if !ok || len(base) < 3 {
		return nil
	}
	out := []string{base, base + "e"}
	if n := len(base); base[n-1] == base[n-2] {
		out = append(out, base[:n-1])
	}
	if strings.HasSuffix(base, "i") {
		out = append(out, base[:len(base)-1]+"y")
	}
	return out
}
