package extract

import "strings"

// Stem is a lower-case word without the endings that inflect it, by one
// rule set for every reader of words' forms: a plural's or a third
// person's -s or -es, a past's -ed, an -ing form's ending, and what the
// plain form keeps of them (a final e, a y after a consonant or the i it
// turns into, a consonant the ending doubled). The forms of one word
// share a stem ("excludes", "excluding" and "exclude" are "exclud";
// "cancelled" and "cancel" are "cancel"; "modifies" and "modify" are
// "modif"; "weekdays" is "weekday"). A word of four letters keeps its
// final e or y, a shorter stem beginning too many words: "mode", "wipe"
// and "copy" keep theirs, and "wiping" and "copies" get theirs back. A
// longer stem begins its word, so that a word found by its stem's prefix
// is one of its forms. An ending is cut only from a word it leaves three
// letters and a vowel ("taxes" is "tax"; "string" keeps its -ing).
func Stem(w string) string {
	cut := func(end, add string) bool {
		base, ok := strings.CutSuffix(w, end)
		if !ok || len(base) < 3 || !strings.ContainsAny(base, "aeiouy") {
			return false
		}
		w = base + add
		return true
	}
	switch {
	case cut("ies", "y"), cut("ied", "y"):
	case cut("ing", ""), cut("ed", ""):
		// A short base that ends in a vowel and a consonant had the e
		// the ending took ("wip" of "wiping", "tak" of "taking").
		if n := len(w); n == 3 && isVowel(w[1]) && !isVowel(w[2]) && !strings.ContainsRune("wxy", rune(w[2])) {
			w += "e"
		}
	case strings.HasSuffix(w, "es") && sibilantEnd(w[:len(w)-2]) && cut("es", ""):
	case strings.HasSuffix(w, "s") && !strings.ContainsRune("siu", rune(lastByte(w[:len(w)-1]))) && cut("s", ""):
	}
	const least = 4
	n := len(w)
	switch {
	case n > least && (w[n-1] == 'y' || w[n-1] == 'i') && !isVowel(w[n-2]):
		w = w[:n-1]
	case n > least && w[n-1] == 'e':
		w = w[:n-1]
	}
	if n := len(w); n > least && w[n-1] == w[n-2] && !isVowel(w[n-1]) {
		w = w[:n-1]
	}
	return w
}

// SameStem reports whether two lower-case words are forms of one word,
// as Stem reads them ("cancelled" and "cancel"), or one is the noun of
// the act of the other ("cancellation", "modification", "deletion" of
// "cancel", "modify", "delete"); a stem of fewer than four letters is too
// short to tell one word from another.
func SameStem(a, b string) bool {
	sa, sb := Stem(a), Stem(b)
	if len(sa) < 4 || len(sb) < 4 {
		return false
	}
	return sa == sb || actOf(sa, sb) || actOf(sb, sa)
}

// actOf reports whether the stem n is of the noun of the act of the verb
// whose stem is v: its -ation, -ication, -ion, -ment or -al noun.
func actOf(n, v string) bool {
	for _, end := range []string{"ication", "ation", "ion", "ment", "al"} {
		if base, ok := strings.CutSuffix(n, end); ok && len(base) >= 3 && Stem(base) == v {
			return true
		}
	}
	return false
}

// sibilantEnd reports whether a word ends in a sound its plural adds -es
// to: s, x, z, ch or sh ("taxes", "statuses", "watches").
func sibilantEnd(w string) bool {
	return strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh") || strings.ContainsRune("sxz", rune(lastByte(w)))
}

func lastByte(w string) byte {
	if w == "" {
		return 0
	}
	return w[len(w)-1]
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }
