package screenfile

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/offattr/offattr/internal/escape"
)

// Writer writes records one whole line at a time, so an interrupted screen
// leaves a file of complete records.
type Writer struct {
	w      io.Writer
	format Format
	keyed  bool
	buf    bytes.Buffer
}

// NewWriter returns a writer of format f. With header set, a CSV writer
// starts with the column names (not when appending to a resumed file).
// With keyed set (names are masked), CSV rows end with the key column.
func NewWriter(w io.Writer, f Format, header, keyed bool) (*Writer, error) {
	wr := &Writer{w: w, format: f, keyed: keyed}
	if f == CSV && header {
		h := csvHeader
		if keyed {
			h = csvKeyedHeader
		}
		if err := wr.writeCSV(h); err != nil {
			return nil, err
		}
	}
	return wr, nil
}

// Write writes one record.
func (w *Writer) Write(r Record) error {
	if w.format == CSV {
		step, conf := strconv.Itoa(r.Step), strconv.FormatFloat(r.Confidence, 'f', 4, 64)
		if r.Failed() {
			step, conf = "", ""
		}
		row := []string{
			escape.Cell(escape.Name(r.File)), text(r.Agent), step, conf, text(string(r.Triage)), text(r.Reason), text(r.Mode), text(r.Error),
		}
		if w.keyed {
			row = append(row, r.Key) // hex digits only
		}
		return w.writeCSV(row)
	}
	line, err := json.Marshal(r)
	if err != nil {
		return fmt.Errorf("encode record for %s: %w", r.File, err)
	}
	return w.flush(append(escape.JSON(line), '\n'))
}

// text is a CSV cell of text that may come from a log: neither a formula
// for a spreadsheet nor control characters for a terminal that shows the
// file. The file column is escaped reversibly (escape.Name), so that
// --resume reads back the names it wrote.
func text(s string) string { return escape.Cell(escape.Line(s)) }

func (w *Writer) writeCSV(fields []string) error {
	w.buf.Reset()
	cw := csv.NewWriter(&w.buf)
	if err := cw.Write(fields); err != nil {
		return err
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return err
	}
	return w.flush(w.buf.Bytes())
}

// flush hands one complete line to the underlying writer in one call.
func (w *Writer) flush(line []byte) error {
	if _, err := w.w.Write(line); err != nil {
		return fmt.Errorf("write record: %w", err)
	}
	return nil
}
