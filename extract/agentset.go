package extract

import (
	"index/suffixarray"
	"strings"

	"github.com/offattr/offattr/run"
)

// agentSet is the run's agent names as extraction looks them up: by key
// (agents.has), and by a piece of a key (endsAny, containsAny), which
// rules out most words before the words around them are read. A nil
// *agentSet holds no name.
type agentSet struct {
	keys map[string]bool
	// joined holds every key between separators, and index its suffixes,
	// for a set too large to look through name by name: a run of many
	// thousand agents would otherwise cost each word a pass over them all.
	joined []byte
	index  *suffixarray.Index
}

// indexedAgents is the size from which a set is searched through its
// suffix array: below it, a loop over the few names is cheaper than a
// binary search.
const indexedAgents = 32

// agentSep stands between the keys in agentSet.joined; keys are letters
// and digits, entity norms words and spaces, and a stray separator in a
// name only makes a piece look present, which the callers then check
// against the keys themselves.
const agentSep = 0

func newAgentSet(keys map[string]bool) *agentSet {
	a := &agentSet{keys: keys}
	if len(keys) < indexedAgents {
		return a
	}
	a.joined = []byte{agentSep}
	for k := range keys {
		a.joined = append(a.joined, k...)
		a.joined = append(a.joined, agentSep)
	}
	a.index = suffixarray.New(a.joined)
	return a
}

// has reports whether key is one of the set's keys.
func (a *agentSet) has(key string) bool {
	return a != nil && a.keys[key]
}

// hasKeyOf is has(agentKey(name)), with the key built on the stack: the
// words around every entity are looked up, most of them capitalised, and
// agentKey makes a string for each such word.
func (a *agentSet) hasKeyOf(name string) bool {
	if a == nil {
		return false
	}
	var buf [64]byte
	return a.keys[string(run.AppendAgentKey(buf[:0], name))]
}

// containsKeyOf is containsAny(agentKey(name)), the key built as by
// hasKeyOf.
func (a *agentSet) containsKeyOf(name string) bool {
	if a == nil || len(a.keys) == 0 {
		return false
	}
	var buf [64]byte
	return a.containsAny(string(run.AppendAgentKey(buf[:0], name)))
}

// endsAny reports whether some key ends with piece.
func (a *agentSet) endsAny(piece string) bool {
	if a == nil || len(a.keys) == 0 {
		return false
	}
	if a.index == nil {
		for k := range a.keys {
			if strings.HasSuffix(k, piece) {
				return true
			}
		}
		return false
	}
	return len(a.index.Lookup(append([]byte(piece), agentSep), 1)) > 0
}

// containsAny reports whether some key holds piece.
func (a *agentSet) containsAny(piece string) bool {
	if a == nil || len(a.keys) == 0 {
		return false
	}
	if a.index == nil || piece == "" {
		for k := range a.keys {
			if strings.Contains(k, piece) {
				return true
			}
		}
		return false
	}
	return len(a.index.Lookup([]byte(piece), 1)) > 0
}
