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

// Accuracy formats a share of cases for a table: three decimals, or "–"
// when there were no cases, so that an empty band does not read as a band
// that was always wrong.
func Accuracy(share float64, cases int) string {
	if cases == 0 {
		return "–"
	}
	return fmt.Sprintf("%.3f", share)
}
