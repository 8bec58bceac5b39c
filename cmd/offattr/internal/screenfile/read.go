package screenfile

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// Contents is what a records file holds.
type Contents struct {
	Records []Record
	// Complete is the length of the file up to the end of its last whole
	// line. A screen killed mid-write may leave a partial line after it,
	// which --resume cuts off and redoes.
	Complete int64
	// Header is true when a CSV file starts with its header line.
	Header bool
}

// ReadFile reads a records file in the format its name says. A missing
// file is not an error: it holds no records.
func ReadFile(path string) (Contents, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return unread(path, err)
	}
	return parseFile(path, data)
}

// unread is what a read of path that failed with err returns: no records
// when the file does not exist (nothing was written yet), else the error.
func unread(path string, err error) (Contents, error) {
	if errors.Is(err, os.ErrNotExist) {
		return Contents{}, nil
	}
	return Contents{}, fmt.Errorf("read %s: %w", path, run.PathCause(err))
}

// Resumable is what --resume needs of a records file: where its last
// whole line ends, how many records it holds and the names they record
// (Contents.Files).
type Resumable struct {
	Complete int64
	Records  int
	Names    map[string]bool
}

// ReadOutput reads a records file about to be continued (--resume) as
// Parse would, keeping only what Resumable holds: it reads line by line,
// so a file of many records is never held whole. Only a regular file is
// read, and no more of it than its size when opened, so that a device or
// a pipe named by mistake is refused rather than read without end.
func ReadOutput(path string) (Resumable, error) {
	out := Resumable{Names: map[string]bool{}}
	f, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return out, nil
		}
		return Resumable{}, fmt.Errorf("read %s: %w", path, run.PathCause(err))
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Resumable{}, fmt.Errorf("read %s: %w", path, run.PathCause(err))
	}
	if !fi.Mode().IsRegular() {
		return Resumable{}, fmt.Errorf("read %s: not a regular file", path)
	}
	format := FormatFor(path)
	br := bufio.NewReader(io.LimitReader(f, fi.Size()))
	for i := 0; ; i++ {
		line, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			if !unfinishedRecord(out.Complete > 0, line, format) {
				return Resumable{}, fmt.Errorf("read %s: line %d: %w", path, i+1, errUnfinished)
			}
			return out, nil
		}
		if err != nil {
			return Resumable{}, fmt.Errorf("read %s: %w", path, run.PathCause(err))
		}
		out.Complete += int64(len(line))
		r, ok, err := parseLine(line[:len(line)-1], i, format)
		if err != nil {
			return Resumable{}, fmt.Errorf("read %s: line %d: not a screen record: %v", path, i+1, err)
		}
		if ok {
			out.Records++
			out.Names[r.name()] = true
		}
	}
}

func parseFile(path string, data []byte) (Contents, error) {
	c, err := Parse(data, FormatFor(path))
	if err != nil {
		return Contents{}, fmt.Errorf("read %s: %w", path, err)
	}
	return c, nil
}

// Parse reads records from data. Only the final line may be incomplete
// (no newline yet); it is left out of Records and Complete.
func Parse(data []byte, f Format) (Contents, error) {
	var c Contents
	complete := bytes.LastIndexByte(data, '\n') + 1
	c.Complete = int64(complete)
	if !unfinishedRecord(complete > 0, data[complete:], f) {
		return Contents{}, fmt.Errorf("line %d: %w", bytes.Count(data[:complete], []byte("\n"))+1, errUnfinished)
	}
	lines := bytes.Split(data[:complete], []byte("\n"))
	for i, line := range lines {
		r, ok, err := parseLine(line, i, f)
		if err != nil {
			return Contents{}, fmt.Errorf("line %d: not a screen record: %v", i+1, err)
		}
		switch {
		case ok:
			c.Records = append(c.Records, r)
		case i == 0 && f == CSV && len(bytes.TrimSpace(line)) > 0:
			c.Header = true
		}
	}
	return c, nil
}

// parseLine reads line i (from 0, without its newline) of a records file:
// ok is false for a blank line or a CSV header.
func parseLine(line []byte, i int, f Format) (r Record, ok bool, err error) {
	line = bytes.TrimRight(line, "\r")
	if len(bytes.TrimSpace(line)) == 0 {
		return Record{}, false, nil
	}
	if f == CSV {
		if i == 0 && isCSVHeader(line) {
			return Record{}, false, nil
		}
		r, err = parseCSV(line)
	} else {
		err = json.Unmarshal(line, &r)
		if err == nil && r.File == "" {
			err = errors.New(`no "file" field`)
		}
	}
	return r, err == nil, err
}

// errUnfinished is a last line without its newline that is not the start
// of a record.
var errUnfinished = errors.New("not a screen record, nor the start of one")

// jsonlStart is how every JSONL record begins: its first field is the file.
const jsonlStart = `{"file":`

// unfinishedRecord reports whether tail, the bytes after the last complete
// line, may be cut off as a record a killed screen left half-written: it is
// empty, all zeros (what a crash can leave), the start of a JSONL record,
// or in CSV the start of the header where none is yet, or of any row
// after it. --resume cuts the tail off, so anything else must not be.
func unfinishedRecord(anyComplete bool, tail []byte, f Format) bool {
	if len(bytes.Trim(tail, "\x00")) == 0 {
		return true
	}
	if f == CSV {
		if anyComplete {
			return true
		}
		return bytes.HasPrefix([]byte(strings.Join(csvHeader, ",")), tail) || bytes.HasPrefix([]byte(strings.Join(csvKeyedHeader, ",")), tail)
	}
	t := bytes.TrimLeft(tail, " \t")
	return bytes.HasPrefix(t, []byte(jsonlStart)) || bytes.HasPrefix([]byte(jsonlStart), t)
}

func isCSVHeader(line []byte) bool {
	fields, err := csv.NewReader(bytes.NewReader(line)).Read()
	return err == nil && (slices.Equal(fields, csvHeader) || slices.Equal(fields, csvKeyedHeader))
}

// parseCSV reads a row with or without the key column: a screen resumed
// with --redact appends keyed rows to a file that may have none.
func parseCSV(line []byte) (Record, error) {
	rd := csv.NewReader(bytes.NewReader(line))
	rd.FieldsPerRecord = -1
	f, err := rd.Read()
	if err != nil {
		return Record{}, err
	}
	if len(f) != len(csvHeader) && len(f) != len(csvKeyedHeader) {
		return Record{}, fmt.Errorf("%d fields, want %d or %d", len(f), len(csvHeader), len(csvKeyedHeader))
	}
	for i := range f {
		f[i] = escape.Uncell(f[i]) // Writer neutralised formulas
	}
	r := Record{File: escape.Unname(f[0]), Agent: f[1], Triage: triage.Class(f[4]), Reason: f[5], Mode: f[6], Error: f[7]}
	if len(f) == len(csvKeyedHeader) {
		r.Key = f[8]
	}
	if r.File == "" {
		return Record{}, errors.New("empty file column")
	}
	if r.Failed() {
		return r, nil
	}
	if r.Step, err = strconv.Atoi(f[2]); err != nil {
		return Record{}, fmt.Errorf("step %q is not a number", f[2])
	}
	if r.Confidence, err = strconv.ParseFloat(strings.TrimSpace(f[3]), 64); err != nil {
		return Record{}, fmt.Errorf("confidence %q is not a number", f[3])
	}
	return r, nil
}

// Files returns the set of inputs the records cover: each one's name, or
// its Key when the name is masked.
func (c Contents) Files() map[string]bool {
	out := make(map[string]bool, len(c.Records))
	for _, r := range c.Records {
		out[r.name()] = true
	}
	return out
}

// name is what a record is found by: its key when names are masked, else
// its file.
func (r Record) name() string {
	if r.Key != "" {
		return r.Key
	}
	return r.File
}
