package extract

import (
	"encoding/json"
	"fmt"
)

// StepKind is extract's finer reading of a step (run.Kind only says what the
// file said). It is a small number, as a long run's features hold one or
// more a step, and reads and writes as its name; the zero value is no kind
// and writes as "".
type StepKind uint8

const (
	KindPlan StepKind = iota + 1
	KindReplan
	KindLedger
	KindInstruction
	KindThought
	KindToolCall
	KindToolResult
	KindAnswer
	KindFinalAnswer
	KindTermination
	KindVerification
	KindTask // the user's request
	KindMessage
)

var stepKindNames = [...]string{
	"", "plan", "replan", "ledger", "instruction", "thought", "tool_call", "tool_result",
	"answer", "final_answer", "termination", "verification", "task", "message",
}

func (k StepKind) String() string { return enumName(stepKindNames[:], k, "StepKind") }

// MarshalText writes the kind's name.
func (k StepKind) MarshalText() ([]byte, error) { return enumText(stepKindNames[:], k, "step kind") }

// UnmarshalText reads a kind's name.
func (k *StepKind) UnmarshalText(b []byte) error {
	return enumParse(stepKindNames[:], k, b, "step kind")
}

// KindSet is a set of step kinds, as bits: a step's every kind in a few
// bytes, tested without walking a list.
type KindSet uint16

// KindsOf returns the set of ks.
func KindsOf(ks ...StepKind) KindSet {
	var s KindSet
	for _, k := range ks {
		s |= 1 << k
	}
	return s
}

// Has reports whether k is in s.
func (s KindSet) Has(k StepKind) bool { return s&(1<<k) != 0 }

func (s *KindSet) add(k StepKind) { *s |= 1 << k }

// Any reports whether s and o have a kind in common.
func (s KindSet) Any(o KindSet) bool { return s&o != 0 }

// List returns the kinds in s, the most specific reading first (the order
// Features.Kind is chosen by).
func (s KindSet) List() []StepKind {
	var out []StepKind
	for _, k := range kindOrder {
		if s.Has(k) {
			out = append(out, k)
		}
	}
	return out
}

// String writes s as fmt writes a list of its kinds.
func (s KindSet) String() string { return fmt.Sprint(s.List()) }

// MarshalJSON writes s as the list of its kinds' names (null for none, as
// an empty list of kinds was written).
func (s KindSet) MarshalJSON() ([]byte, error) { return json.Marshal(s.List()) }

// ContextType is ECHO's classification of what a step mainly does (§3.1).
// Like StepKind, it is a small number that reads and writes as its name.
type ContextType uint8

const (
	ContextHandoff ContextType = iota + 1
	ContextDecisionQuality
	ContextErrorPropagation
	ContextGeneral
)

var contextTypeNames = [...]string{"", "handoff", "decision_quality", "error_propagation", "general"}

func (c ContextType) String() string { return enumName(contextTypeNames[:], c, "ContextType") }

// MarshalText writes the context type's name.
func (c ContextType) MarshalText() ([]byte, error) {
	return enumText(contextTypeNames[:], c, "context type")
}

// UnmarshalText reads a context type's name.
func (c *ContextType) UnmarshalText(b []byte) error {
	return enumParse(contextTypeNames[:], c, b, "context type")
}

func enumName[E ~uint8](names []string, e E, typ string) string {
	if int(e) < len(names) {
		return names[e]
	}
	return fmt.Sprintf("%s(%d)", typ, e)
}

func enumText[E ~uint8](names []string, e E, what string) ([]byte, error) {
	if int(e) >= len(names) {
		return nil, fmt.Errorf("no %s numbered %d", what, e)
	}
	return []byte(names[e]), nil
}

func enumParse[E ~uint8](names []string, e *E, b []byte, what string) error {
	for i, name := range names {
		if name == string(b) {
			*e = E(i)
			return nil
		}
	}
	return fmt.Errorf("unknown %s %q", what, b)
}
