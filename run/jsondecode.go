package run

// Decoding JSON inputs, with errors that say where in the file.

import (
	"bytes"
	"encoding/json"
	"fmt"
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
	var out []json.RawMessage
	err := eachLine(data, func(_ int, v json.RawMessage) error {
		out = append(out, v)
		return nil
	})
	return out, err
}

// eachLine calls f with each JSON value of data, a JSONL file, and the line
// it starts on; a line that is no JSON is an error naming it. f's error is
// returned naming the line.
func eachLine(data []byte, f func(line int, v json.RawMessage) error) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	line := 1
	var last int64
	for {
		var v json.RawMessage
		err := dec.Decode(&v)
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return jsonError(data, err)
		}
		start := dec.InputOffset() - int64(len(v))
		line += bytes.Count(data[last:start], []byte("\n"))
		last = start
		if err := f(line, v); err != nil {
			return fmt.Errorf("line %d: %w", line, err)
		}
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
