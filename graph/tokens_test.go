package graph

import (
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// referenceTokens is eachToken's definition written plainly: the fast path
// for ASCII must not change which tokens loops and their evidence see.
func referenceTokens(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		w = strings.ToLower(w)
		if utf8.RuneCountInString(w) >= 2 && !stopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// collectTokens lists eachToken's tokens, each followed by a mark of
// whether the hash it came with is the token's own (fnv64).
func collectTokens(s string) []string {
	var out []string
	eachToken(s, func(t []byte, h uint64) bool {
		out = append(out, string(t))
		if h != fnv64(t) {
			out = append(out, "(wrong hash)")
		}
		return true
	})
	return out
}

func TestEachTokenMatchesReference(t *testing.T) {
	for _, s := range []string{
		"",
		"The Agent searched FOR the file",
		"Straße İstanbul ÄPFEL café-au-lait",
		"x1 y 22 a-b the_end",
		"bad \xff\xfe bytes mid\xc3word",
		"ＦＵＬＬＷＩＤＴＨ ２０２４ and ΑΒΓ",
		"theirs their THEIR",
	} {
		assert.Equal(t, referenceTokens(s), collectTokens(s), "%q", s)
	}
}

func FuzzEachToken(f *testing.F) {
	for _, s := range []string{"Hello, World 42", "Ünïcode ÆØÅ x", "\xff\x80a bc", "the THE tHe"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, referenceTokens(s), collectTokens(s))
	})
}

// TestStopTableIsStopWords holds the packed table to the word list: every
// stop word is found, and words that only share a prefix, a suffix or a
// packing's bytes with one are not.
func TestStopTableIsStopWords(t *testing.T) {
	assert.LessOrEqual(t, maxStopWord, 8, "packWord holds eight bytes")
	for w := range stopWords {
		assert.True(t, isStopWord([]byte(w)), w)
		for _, near := range []string{w + "s", "x" + w, w[1:], w[:len(w)-1], strings.ToUpper(w)} {
			assert.Equal(t, stopWords[near], isStopWord([]byte(near)), near)
		}
	}
}

// referenceMissing is firstMissing's definition written plainly: the first
// n distinct tokens of s whose hashes are not in set, read to the end.
func referenceMissing(s string, set []uint64, n int) []string {
	var out []string
	for _, w := range referenceTokens(s) {
		if _, in := slices.BinarySearch(set, fnv64(w)); len(out) < n && !in && !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

func FuzzFirstMissing(f *testing.F) {
	f.Add("visit the site and note the price", "note the price after visiting the site", 4)
	f.Add("a b c d e f g h", "i j k", 2)
	f.Add("exit code 0 output 67 done", "exit code 0 output 14 done", 0)
	f.Fuzz(func(t *testing.T, a, b string, n int) {
		n %= 6
		set := tokenSet(a)
		assert.Equal(t, referenceMissing(b, set, n), firstMissing(b, set, n))
	})
}

// TestScratchTokenSetIsTokenSet: sets read one after another through one
// scratch slice, long and short, are each text's own token set.
func TestScratchTokenSetIsTokenSet(t *testing.T) {
	texts := []string{
		"exitcode: 0 (execution succeeded) Code output: 1250 and more words than the next",
		"ok",
		"short text here",
		"Please search the archive for the first week of August 2015",
		"",
		"exitcode: 0 (execution succeeded) Code output: 1250 and more words than the next",
	}
	var scratch []uint64
	for _, s := range texts {
		scratch = scratchTokenSet(scratch, s)
		want := slices.Compact(slices.Sorted(slices.Values(hashes(referenceTokens(s)))))
		if len(want) < minLoopTokens {
			want = nil
		}
		assert.Equal(t, want, scratch, "%q", s)
		assert.Equal(t, want, tokenSet(s), "%q", s)
	}
}

func hashes(tokens []string) []uint64 {
	out := make([]uint64, len(tokens))
	for i, t := range tokens {
		out[i] = fnv64(t)
	}
	return out
}

// referenceQuote is quote's definition written plainly: the text with its
// whitespace collapsed, cut to n runes and marked where it was cut.
func referenceQuote(s string, n int) string {
	t := []rune(strings.Join(strings.Fields(s), " "))
	if len(t) <= n {
		return string(t)
	}
	return string(t[:n]) + "…"
}

func FuzzQuote(f *testing.F) {
	for _, s := range []string{"", "  a  b  ", "Please  search\tthe archive\nnow", "Ünïcode ÆØÅ x y z", "\xff\x80a bc", "abc def"} {
		f.Add(s, 3)
		f.Add(s, 80)
	}
	f.Fuzz(func(t *testing.T, s string, n int) {
		n = max(0, n%100)
		assert.Equal(t, referenceQuote(s, n), quote(s, n), "%q, %d", s, n)
	})
}
