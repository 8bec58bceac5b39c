package extract

import (
	"bytes"
	"encoding/json"
	"strings"
)

// ledgerKeys are the fields of a Magentic-One progress ledger. An object with
// at least three of them is taken for a ledger, so a near-miss (a framework
// that renames one field) still parses.
var ledgerKeys = []string{"is_request_satisfied", "is_in_loop", "is_progress_being_made", "next_speaker", "instruction_or_question"}

// ParseLedger finds a progress ledger in the text of a step: the first JSON
// object, anywhere in the text (after "Updated Ledger:", inside a ```json
// fence, between log lines), that carries the ledger's fields. Each field may
// be {"answer": ..., "reason": ...} or a bare value. ok is false when there is
// no such object.
func ParseLedger(s string) (l *Ledger, ok bool) {
	// Scanning every '{' is linear in practice: json.Decoder stops at the end
	// of the first value, and a failed candidate costs at most its own length.
	// The attempts are capped so a text of a million braces stays cheap.
	// The text is read in place: most steps hold no ledger, and a copy of
	// each would cost more than looking.
	// Whether a ledger key stands in the 4096 bytes from a brace on is
	// told by the next place of each key, found once for all the braces
	// before it: a text of many braces is not read again from each.
	const maxAttempts = 64
	is, speaker := nextAt(s, `"is_`), nextAt(s, `"next_speaker"`)
	for i, attempts := 0, 0; i < len(s) && attempts < maxAttempts; i++ {
		j := strings.IndexByte(s[i:], '{')
		if j < 0 {
			break
		}
		i += j
		if !is.within(i, i+4096) && !speaker.within(i, i+4096) {
			continue
		}
		attempts++
		var raw map[string]json.RawMessage
		dec := json.NewDecoder(strings.NewReader(s[i:]))
		if dec.Decode(&raw) != nil {
			continue
		}
		if l, ok := ledgerFrom(raw); ok {
			return l, true
		}
	}
	return nil, false
}

// nextPlace finds the places of a key in s in turn, as the search from
// which they are asked for moves on.
type nextPlace struct {
	s, key string
	at     int // the first place at or after the last asked from; -1: none
}

func nextAt(s, key string) nextPlace {
	return nextPlace{s: s, key: key, at: strings.Index(s, key)}
}

// within reports whether the key stands whole in s[i:min(len(s), j)]; i
// must not be less than it was the last time.
func (p *nextPlace) within(i, j int) bool {
	if p.at >= 0 && p.at < i {
		if k := strings.Index(p.s[i:], p.key); k >= 0 {
			p.at = i + k
		} else {
			p.at = -1
		}
	}
	return p.at >= 0 && p.at+len(p.key) <= j
}

func ledgerFrom(raw map[string]json.RawMessage) (*Ledger, bool) {
	n := 0
	for _, k := range ledgerKeys {
		if _, ok := raw[k]; ok {
			n++
		}
	}
	if n < 3 {
		return nil, false
	}
	l := &Ledger{
		RequestSatisfied:  ledgerItem(raw["is_request_satisfied"]),
		InLoop:            ledgerItem(raw["is_in_loop"]),
		ProgressBeingMade: ledgerItem(raw["is_progress_being_made"]),
	}
	l.NextSpeaker, l.NextSpeakerReason = ledgerText(raw["next_speaker"])
	l.InstructionOrQuestion, _ = ledgerText(raw["instruction_or_question"])
	l.Unfound = l.RequestSatisfied.Answer && (tellsUnfound(l.RequestSatisfied.Reason) || tellsUnfound(l.InstructionOrQuestion))
	return l, true
}

// unfoundRe is a statement that what was sought is not there: "is not
// explicitly stated", "was not found", "could not be determined", "unable
// to locate", "no information".
var unfoundRe = pattern(`\b(?:(?:is|are|was|were)\s{1,3}not\s{1,3}(?:(?:explicitly|clearly|directly)\s{1,3})?(?:stated|given|listed|shown|mentioned|provided|specified|available|found|visible)|(?:could|can)\s{0,2}(?:no|n['’])t\s{1,3}(?:be\s{1,3})?(?:find|found|determined?|locate[d]?|confirm(?:ed)?|reached|accessed)|unable\s{1,3}to\s{1,3}(?:find|determine|locate|confirm|access)|no\s{1,3}information)\b`, ci)

// foundRe is a statement that what was sought was found in the end: "was
// found in the census table", "has been located", "were confirmed".
var foundRe = pattern(`\b(?:is|are|was|were|been)\s{1,3}(?:(?:now|then|later|finally|successfully|eventually)\s{1,3})?(?:found|located|confirmed|identified|retrieved)\b`, ci)

// tellsUnfound reports whether a ledger's words say that what was sought
// is not there (unfoundRe) and nowhere that it was found after all (one
// source that did not state it, another that did: foundRe).
func tellsUnfound(s string) bool {
	t := newText(s)
	return t.has(unfoundRe) && !t.has(foundRe)
}

// ledgerField is the {"answer", "reason"} shape of one ledger entry.
type ledgerField struct {
	Answer json.RawMessage `json:"answer"`
	Reason string          `json:"reason"`
}

func ledgerItem(raw json.RawMessage) LedgerItem {
	answer, reason := ledgerText(raw)
	return LedgerItem{Answer: truthy(answer), Reason: reason}
}

// ledgerText reads a field that is either {"answer","reason"} or a scalar,
// returning the answer as text.
func ledgerText(raw json.RawMessage) (answer, reason string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", ""
	}
	if raw[0] == '{' {
		var f ledgerField
		if json.Unmarshal(raw, &f) != nil {
			return "", ""
		}
		return scalar(f.Answer), strings.TrimSpace(f.Reason)
	}
	return scalar(raw), ""
}

// scalar renders a JSON scalar as text: strings unquoted, other values as
// written.
func scalar(raw json.RawMessage) string {
	var v any
	if json.Unmarshal(raw, &v) != nil || v == nil {
		return ""
	}
	if s, ok := v.(string); ok {
		return strings.TrimSpace(s)
	}
	return string(bytes.TrimSpace(raw))
}

// truthy reads a ledger answer: JSON true, or "yes"/"true" written as text.
func truthy(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "true", "yes", "y", "1":
		return true
	}
	return false
}
