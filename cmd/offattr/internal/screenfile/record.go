// Package screenfile reads and writes the records of `offattr screen`, one
// per input, as JSONL or CSV. Screen writes them; --resume and
// `export --from` read them back. It knows nothing of how records are made.
package screenfile

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/triage"
)

// Record is the outcome for one input. A failed input carries only File
// and Error, and is written as {"file":…,"error":…}.
type Record struct {
	File string `json:"file"`
	// Key names the input when File does not: screen --redact masks
	// what a name holds (runs/frank@example.com.json is
	// runs/[EMAIL_1].json), and Key, a digest of the name as it was
	// (KeyOf), is what --resume finds the input by. Empty when nothing
	// in the name was masked.
	Key   string `json:"key,omitempty"`
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

// KeyOf is the Key of a record for the input name: the first 16 hex
// digits of its SHA-256, enough to tell a million inputs apart. It hides
// the name from anyone who cannot guess it whole.
func KeyOf(name string) string {
	h := sha256.Sum256([]byte(name))
	return hex.EncodeToString(h[:8])
}

// Masked returns r naming its input by shown (the input's name as
// redaction masks it) rather than by name; Key keeps name's digest when
// the two differ.
func (r Record) Masked(name, shown string) Record {
	r.File = shown
	if shown != name {
		r.Key = KeyOf(name)
	}
	return r
}

// ErrMasked says why a record whose name is masked (it has a Key) cannot
// lead back to its run, for the commands that read the runs again
// (export --from, report --pages).
var ErrMasked = errors.New("its file name is masked (screened with --redact): screen without --redact to read the runs again; export and report redact what they write by default")

// Failed reports whether the input could not be analysed.
func (r Record) Failed() bool { return r.Error != "" }

// MarshalJSON writes failures in their short form. A file name JSON cannot
// hold as it is (bytes that are not UTF-8, which a JSON string would turn
// into U+FFFD) is written as a Go quoted string, as is one that starts
// with a double quote, so that UnmarshalJSON reads back every name exactly
// and --resume, export --from and report --pages find the input again.
func (r Record) MarshalJSON() ([]byte, error) {
	r.File = jsonName(r.File)
	if r.Failed() {
		return json.Marshal(struct {
			File  string `json:"file"`
			Key   string `json:"key,omitempty"`
			Error string `json:"error"`
		}{r.File, r.Key, r.Error})
	}
	type plain Record // no MarshalJSON: no recursion
	return json.Marshal(plain(r))
}

// UnmarshalJSON reads a record MarshalJSON wrote.
func (r *Record) UnmarshalJSON(data []byte) error {
	type plain Record // no UnmarshalJSON: no recursion
	if err := json.Unmarshal(data, (*plain)(r)); err != nil {
		return err
	}
	r.File = unJSONName(r.File)
	return nil
}

// jsonName is name as a record's file field holds it: as it is when it is
// UTF-8 and does not start with a double quote, else Go quoted.
func jsonName(name string) string {
	if utf8.ValidString(name) && !strings.HasPrefix(name, `"`) {
		return name
	}
	return strconv.Quote(name)
}

// unJSONName undoes jsonName.
func unJSONName(s string) string {
	if strings.HasPrefix(s, `"`) {
		if u, err := strconv.Unquote(s); err == nil {
			return u
		}
	}
	return s
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
// A screen that masks names (--redact) adds a last column, key.
var csvHeader = []string{"file", "agent", "step", "confidence", "triage", "reason", "mode", "error"}

var csvKeyedHeader = append(slices.Clip(csvHeader), "key")
