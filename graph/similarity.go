package graph

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Similarity is the measure behind loop edges: the Jaccard similarity
// |A∩B| / |A∪B| of the two texts' token sets, where a token is a maximal run
// of letters or digits, lower-cased, at least two characters long and not a
// stop word. Sets rather than shingles because a planner repeating itself
// reorders and rewords ("Please visit X and note Y" / "Note Y after
// visiting X"); numbers stay in, so new arguments lower the score. Texts with
// fewer than minLoopTokens tokens score 0: too short to call a repetition.
func Similarity(a, b string) float64 {
	return jaccard(tokenSet(a), tokenSet(b))
}

const (
	// LoopInstruction is the Similarity at or above which an instruction
	// or plan repeats an earlier one by the same agent. On the Who&When dev
	// runs, instruction pairs at 0.6 and above are rewordings of the same
	// request; below it they mostly change the site, tool or constraint.
	LoopInstruction = 0.6
	// LoopOutcome is the threshold for other steps (tool results, answers,
	// reports). They are longer and share boilerplate (page chrome, exit
	// code banners), so a repeat must be closer to identical: "exit code 0,
	// output 67" and "exit code 0, output 14" score 0.71 and are different
	// outcomes.
	LoopOutcome   = 0.75
	minLoopTokens = 3
)

var stopWords, maxStopWord = func() (map[string]bool, int) {
	m, longest := map[string]bool{}, 0
	for _, w := range strings.Fields(`the an and or of to in on for with is are be been was were
		this that these those it its as at by from please your you we our us will can could
		should would their they them then than into any all so if do does did has have had not
		no but also there here which what who how when where let me my i`) {
		m[w] = true
		longest = max(longest, len(w))
	}
	return m, longest
}()

// stopTable holds the stop words packed into integers (packWord), in an
// open-addressed table: looking a token up in stopWords took a string hash
// and a map probe for nearly every token a loop candidate has.
var stopTable = func() (t [256]uint64) {
	for w := range stopWords {
		k := packWord([]byte(w))
		i := stopSlot(k)
		for t[i] != 0 {
			i = (i + 1) % len(t)
		}
		t[i] = k
	}
	return t
}()

// packWord packs a word of at most eight bytes into an integer, one byte
// each. Tokens hold no zero byte, so the packing is one to one.
func packWord(w []byte) uint64 {
	var k uint64
	for _, c := range w {
		k = k<<8 | uint64(c)
	}
	return k
}

func stopSlot(k uint64) int { return int(k * 0x9e3779b97f4a7c15 >> 56) }

// isStopWord reports stopWords[string(t)] for a token t.
func isStopWord(t []byte) bool {
	if len(t) > maxStopWord {
		return false
	}
	k := packWord(t)
	for i := stopSlot(k); stopTable[i] != 0; i = (i + 1) % len(stopTable) {
		if stopTable[i] == k {
			return true
		}
	}
	return false
}

// tokenSet returns the sorted distinct token hashes of s. Hashes stand in
// for tokens (FNV-1a, 64 bits): collisions are too rare to move a Jaccard
// score and integers compare faster than strings.
func tokenSet(s string) []uint64 {
	return scratchTokenSet(nil, s)
}

// scratchTokenSet is tokenSet read into scratch, whose storage the result
// shares: the builder reads every loop candidate's tokens, repeats
// included, through one scratch slice and keeps a copy of each set alone,
// where growing a slice per step was a tenth of what building a graph
// allocated.
func scratchTokenSet(scratch []uint64, s string) []uint64 {
	set := scratch[:0]
	eachToken(s, func(_ []byte, h uint64) bool {
		set = append(set, h)
		return true
	})
	slices.Sort(set)
	set = slices.Compact(set)
	if len(set) < minLoopTokens {
		return nil
	}
	return set
}

// eachToken calls f with each token of s in lower case, and its hash
// (fnv64): maximal runs of letters or digits, stop words and one-character
// tokens dropped, in order (with repeats). The slice is only valid during
// the call: token sets of every loop candidate are built, and lower-casing
// each word into a string of its own was most of their cost; an ASCII
// token is lowered and hashed in the one pass that copies it. It stops
// when f returns false.
func eachToken(s string, f func(t []byte, h uint64) bool) {
	var buf []byte
	for i := 0; i < len(s); {
		// The token starting at i, if one does.
		start, ascii := i, true
		for i < len(s) {
			if c := s[i]; c < utf8.RuneSelf {
				if !asciiWord[c] {
					break
				}
				i++
				continue
			}
			r, w := utf8.DecodeRuneInString(s[i:])
			if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				break
			}
			ascii = false
			i += w
		}
		if i == start { // not a letter or digit
			_, w := utf8.DecodeRuneInString(s[i:])
			i += w
			continue
		}
		var h uint64
		if ascii {
			buf, h = appendLowerWord(buf[:0], s[start:i])
		} else {
			buf = append(buf[:0], strings.ToLower(s[start:i])...)
		}
		// An ASCII token of two bytes has two runes: only others are counted.
		if len(buf) < 2 || !ascii && utf8.RuneCount(buf) < 2 || isStopWord(buf) {
			continue
		}
		if !ascii {
			h = fnv64(buf) // only for a token kept
		}
		if !f(buf, h) {
			return
		}
	}
}

// asciiWord holds the ASCII letters and digits, the bytes of a token that
// is ASCII, most of a log.
var asciiWord = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9'
	}
	return t
}()

// appendLowerWord appends w, ASCII letters and digits, in lower case (for
// these it is bit 5 set, which digits already have), and returns the hash
// of what it appended (fnv64).
func appendLowerWord(buf []byte, w string) ([]byte, uint64) {
	h := uint64(fnvOffset)
	for k := range len(w) {
		c := w[k] | 0x20
		buf = append(buf, c)
		h = (h ^ uint64(c)) * fnvPrime
	}
	return buf, h
}

// jaccard computes |a∩b| / |a∪b| of two sorted sets; empty sets score 0.
func jaccard(a, b []uint64) float64 {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	inter := 0
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			inter++
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return float64(inter) / float64(len(a)+len(b)-inter)
}

// tokenDiff lists up to n tokens of b missing from a and of a missing from b,
// for loop evidence: what the repetition changed. setA and setB are the
// texts' token sets (tokenSet): a token is missing where its hash is, as
// Similarity compares them.
func tokenDiff(a, b string, setA, setB []uint64, n int) (added, dropped []string) {
	return firstMissing(b, setA, n), firstMissing(a, setB, n)
}

// firstMissing returns the first n distinct tokens of s, in order, whose
// hashes are not in set (sorted).
func firstMissing(s string, set []uint64, n int) []string {
	var out []string
	if n <= 0 {
		return nil
	}
	eachToken(s, func(t []byte, h uint64) bool {
		if _, in := slices.BinarySearch(set, h); !in && !slices.Contains(out, string(t)) {
			out = append(out, string(t))
		}
		return len(out) < n // the rest of s could add nothing
	})
	return out
}

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

func fnv64[T string | []byte](s T) uint64 {
	h := uint64(fnvOffset)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= fnvPrime
	}
	return h
}

// mix64 is the splitmix64 finaliser: a cheap, well-spread bijection used to
// derive the MinHash functions from one token hash.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}
