// Package screenfile reads and writes the records of `offattr screen`, one
// per input, as JSONL or CSV. Screen writes them; --resume and
// `export --from` read them back. It knows nothing of how records are made.
package screenfile

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/triage"
)

// Record is the outcome for one input. A failed input carries only File
// and Error, and is written as {"file":…,"error":…}.
type Record struct {
	File  string `json:"file"`
	Agent string `json:"agent"`
	Step  int    `json:"step"`
	// TraceID and SpanID locate the step in the telemetry it came from.
	TraceID    string            `json:"trace_id,omitempty"`
	SpanID     string            `json:"span_id,omitempty"`
	Confidence float64           `json:"confidence"`
	Triage     triage.Class      `json:"triage"`
	Reason     string            `json:"reason"`
	Mode       string            `json:"mode"`
	Candidates []rules.Candidate `json:"candidates,omitempty"`
	// Model is how the model was asked (the strategy auto chose, the steps
	// it could name); JSONL only.
	Model *rules.ModelReview `json:"model,omitempty"`
	Usage rules.Usage        `json:"usage"`
	Error string             `json:"error,omitempty"`
}

// Failed reports whether the input could not be analysed.
func (r Record) Failed() bool { return r.Error != "" }

// MarshalJSON writes failures in their short form.
func (r Record) MarshalJSON() ([]byte, error) {
	if r.Failed() {
		return json.Marshal(struct {
			File  string `json:"file"`
			Error string `json:"error"`
		}{r.File, r.Error})
	}
	type plain Record // no MarshalJSON: no recursion
	return json.Marshal(plain(r))
}

// Format is how records are laid out in a file.
type Format string

const (
	JSONL Format = "jsonl"
	CSV   Format = "csv"
)

// FormatFor picks the format from a file name: .csv is CSV, anything else
// (including stdout) JSONL.
func FormatFor(path string) Format {
	if strings.EqualFold(filepath.Ext(path), ".csv") {
		return CSV
	}
	return JSONL
}

// csvHeader names the CSV columns; candidates and usage stay JSONL-only.
var csvHeader = []string{"file", "agent", "step", "confidence", "triage", "reason", "mode", "error"}
