package extract

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"unicode"

	"github.com/offattr/offattr/run"
)

// Stale is a value a step writes (Old) that a tool's output gave under a
// field (Key) and a later one, at step At after a call that changes
// things, gave as New: the record as it was before the change.
type Stale struct {
	Key string `json:"key"`
	Old string `json:"old"`
	New string `json:"new"`
	At  int    `json:"at"`
}

// minStale is the fewest bytes a value has to be read as stale: shorter
// ones ("no", "12") are written for too many other reasons.
const minStale = 6

// readStale finds, for each step other than a tool's output, the values
// it writes that a change has replaced: a tool's output printed a field
// once with one value, a call that changes things (Consequential) came
// after it, and a later output printed the field once with another value
// ("address": the old one, then the new) of the same record (sameRecord),
// before the step. A step that writes the old value and not the new one
// tells the record as it was. Only a field an output prints once is
// read: a listing's records each print their own.
func readStale(r *run.Run, rf *RunFeatures) {
	type printed struct {
		val string
		ids map[string]string // the ids the output printed once
	}
	last := map[string]printed{}      // field → the value an output last printed once, and where
	replaced := map[string]Stale{}    // field → its latest change
	lowered := map[string][2]string{} // field → its change's old and new value in lower case
	changed := false                  // a call that changes things since the last output
	for i, s := range r.Steps {
		f := &rf.Steps[i]
		if f.Has(KindToolResult) {
			v, _, ok := toolJSON(s.Content)
			if !ok {
				continue
			}
			vals, ids := onceFields(v)
			for k, val := range vals {
				if old, ok := last[k]; ok && replaces(old.val, val) && changed && sameRecord(old.ids, ids) {
					replaced[k] = Stale{Key: k, Old: old.val, New: val, At: i}
					lowered[k] = [2]string{strings.ToLower(old.val), strings.ToLower(val)}
				}
				last[k] = printed{val, ids}
			}
			changed = false
			continue
		}
		for _, c := range f.Calls {
			if c.Consequential() {
				changed = true
			}
		}
		if len(replaced) == 0 || len(f.Calls) > 0 {
			continue
		}
		text := strings.ToLower(s.Content)
		var stale []Stale
		for _, k := range slices.Sorted(maps.Keys(replaced)) {
			if lo := lowered[k]; containsToken(text, lo[0]) && !strings.Contains(text, lo[1]) {
				stale = append(stale, replaced[k])
			}
		}
		if len(stale) > 0 {
			rf.Steps[i] = rf.Steps[i].Clone()
			rf.Steps[i].Details.Rare.Stale = stale
		}
	}
}

// replaces reports whether a field's new value replaces its old one as a
// value a step tells: the old is of more than one word or holds a digit
// (an address, a date, a plan's name; a state's one word, "pending", is
// written of many things), and the new does not just add to it
// ("pending (item modified)").
func replaces(old, new string) bool {
	return old != new && strings.ContainsAny(old, " 0123456789") && !strings.Contains(strings.ToLower(new), strings.ToLower(old))
}

// sameRecord reports whether two tool outputs print one record: they
// print an id field once each ("order_id": "#W2041"), and agree on every
// one both print (two orders of one customer share the "user_id").
func sameRecord(a, b map[string]string) bool {
	shared := false
	for k, v := range a {
		if w, ok := b[k]; ok {
			if w != v {
				return false
			}
			shared = true
		}
	}
	return shared
}

// onceFields returns the fields of a tool's JSON output printed once with
// a text value of minStale bytes or more that holds a letter, and those
// that name an id (idKey) printed once: a field printed again is one of
// a listing's records. A field that stamps when its record was changed
// (stampKey) is neither: the change itself rewrites it.
func onceFields(v any) (vals, ids map[string]string) {
	seen := map[string]int{}
	vals, ids = map[string]string{}, map[string]string{}
	for k, leaf := range jsonLeaves(v) {
		if k == "" {
			continue
		}
		seen[k]++
		s, ok := leaf.(string)
		if !ok {
			if n, isNum := leaf.(json.Number); isNum {
				s, ok = n.String(), true
			}
		}
		switch {
		case !ok, stampKey(k):
		case idKey(k):
			ids[k] = s
		case len(strings.TrimSpace(s)) >= minStale && strings.ContainsFunc(s, unicode.IsLetter):
			vals[k] = strings.TrimSpace(s)
		}
	}
	for k := range seen {
		if seen[k] > 1 {
			delete(vals, k)
			delete(ids, k)
		}
	}
	return vals, ids
}

// stampWords are the words of a field's name that make it a stamp of
// when its record was written or seen ("updated_at", "lastModified",
// "last_seen", "etag"), which any change rewrites.
var stampWords = toSet("updated modified changed edited seen synced touched accessed timestamp ts mtime ctime etag revision rev")

// stampKey reports whether a field's name, as its words (nameWords), has
// a word of stampWords.
func stampKey(k string) bool {
	return slices.ContainsFunc(nameWords(k), func(w string) bool { return stampWords[w] })
}
