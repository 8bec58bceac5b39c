package cmdutil

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/offattr/offattr/internal/escape"
)

// WriteJSON writes v as indented JSON in one write, with the characters
// that could act on a terminal escaped (escape.JSON): the data read back
// is the same.
func WriteJSON(w io.Writer, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode JSON: %w", err)
	}
	_, err = w.Write(append(escape.JSON(data), '\n'))
	return err
}

// WriteJSONLine writes v as one line of JSON, escaped like WriteJSON: a
// record of a JSON-lines stream.
func WriteJSONLine(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode JSON: %w", err)
	}
	_, err = w.Write(append(escape.JSON(data), '\n'))
	return err
}
