package run

// Decoding JSON inputs, with errors that say where in the file.

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/offattr/offattr/run/spans"
)

// decodeStrict decodes exactly one JSON value and reports syntax errors with
// their line and column.
func decodeStrict(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return jsonError(data, err)
	}
	return nil
}

// decodeStream splits a file into its top-level JSON values (one for a plain
// JSON file, many for JSONL).
func decodeStream(data []byte) ([]json.RawMessage, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var out []json.RawMessage
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, jsonError(data, err)
		}
		out = append(out, v)
	}
}

// jsonError is spans.JSONError on the whole of data: where in it err
// happened, by line and column.
func jsonError(data []byte, err error) error {
	return spans.JSONError(data, 0, len(data), err)
}

// lineOfValue returns the line on which the i-th top-level value of a JSONL
// file starts.
func lineOfValue(data []byte, i int) int {
	dec := json.NewDecoder(bytes.NewReader(data))
	for n := 0; ; n++ {
		start := dec.InputOffset()
		var v json.RawMessage
		if dec.Decode(&v) != nil || n == i {
			// InputOffset is before any whitespace preceding the value.
			rest := data[start:]
			skip := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n"))
			line, _ := spans.Position(data, int(start)+skip)
			return line
		}
	}
}
