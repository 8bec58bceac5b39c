package spans

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// A small JSON scanner: it finds where values start and end without
// decoding them, so that a 100 MB file can be split into records, sniffed
// for its format and have its ids rewritten in one fast pass, leaving the
// decoding of each record to protojson or encoding/json.

// maxDepth bounds nesting, so that a hostile file cannot exhaust the stack
// of the recursive walks (encoding/json and protojson have their own).
const maxDepth = 1000

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// skipSpace returns the offset of the first non-space byte at or after i.
func skipSpace(data []byte, i int) int {
	for i < len(data) && isSpace(data[i]) {
		i++
	}
	return i
}

// errTruncated is a value cut off by the end of the data.
var errTruncated = errors.New("unexpected end of file")

// depthError is nesting deeper than maxDepth, at an offset.
type depthError int

func (e depthError) Error() string { return fmt.Sprintf("nested more than %d deep", maxDepth) }

// skipString returns the offset just past the string whose opening quote
// is at i. It jumps from quote to quote (bytes.IndexByte is vectorised):
// a quote ends the string unless an odd number of backslashes precede it.
func skipString(data []byte, i int) (int, error) {
	for j := i + 1; j < len(data); {
		k := bytes.IndexByte(data[j:], '"')
		if k < 0 {
			break
		}
		j += k
		n := 0
		for b := j - 1; b > i && data[b] == '\\'; b-- {
			n++
		}
		if n%2 == 0 {
			return j + 1, nil
		}
		j++
	}
	return 0, errTruncated
}

// skipValue returns the offset just past the value starting at i (spaces
// before it allowed). It checks the structure (brackets, strings), not the
// scalars: the decoder that reads the value reports those.
func skipValue(data []byte, i int) (int, error) {
	i = skipSpace(data, i)
	if i >= len(data) {
		return 0, errTruncated
	}
	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
	case ',', '}', ']':
		// Not a value; read as an empty one, the callers that walk values
		// one after another would stand still here for ever.
		return 0, fmt.Errorf("unexpected %q", data[i])
	default:
		for i < len(data) && !isSpace(data[i]) && data[i] != ',' && data[i] != '}' && data[i] != ']' {
			i++
		}
		return i, nil
	}
	depth := 0
	for i < len(data) {
		switch c := data[i]; c {
		case '"':
			end, err := skipString(data, i)
			if err != nil {
				return 0, err
			}
			i = end
			continue
		case '{', '[':
			depth++
			if depth > maxDepth {
				return 0, depthError(i)
			}
		case '}', ']':
			depth--
			if depth == 0 {
				return i + 1, nil
			}
		}
		i++
	}
	return 0, errTruncated
}

// eachMember calls fn with the raw key (without quotes, escapes left as
// they are) and the value's start and end offsets of every member of the
// object at i. fn returning false stops the walk.
func eachMember(data []byte, i int, fn func(key []byte, start, end int) bool) error {
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != '{' {
		return errors.New("not a JSON object")
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == '}' {
		return nil
	}
	for i < len(data) {
		if data[i] != '"' {
			return fmt.Errorf("offset %d: want a key", i)
		}
		kend, err := skipString(data, i)
		if err != nil {
			return err
		}
		key := data[i+1 : kend-1]
		i = skipSpace(data, kend)
		if i >= len(data) || data[i] != ':' {
			return fmt.Errorf("offset %d: want ':' after a key", i)
		}
		start := skipSpace(data, i+1)
		end, err := skipValue(data, start)
		if err != nil {
			return err
		}
		if !fn(key, start, end) {
			return nil
		}
		var done bool
		if i, done, err = next(data, end, '}'); done || err != nil {
			return err
		}
	}
	return errTruncated
}

// next moves past the separator after a member or an element that ends at
// end: done at the closing bracket, an error at anything else.
func next(data []byte, end int, closing byte) (i int, done bool, err error) {
	i = skipSpace(data, end)
	switch {
	case i >= len(data):
		return i, false, errTruncated
	case data[i] == ',':
		return skipSpace(data, i+1), false, nil
	case data[i] == closing:
		return i, true, nil
	default:
		return i, false, fmt.Errorf("offset %d: want ',' or '%c'", i, closing)
	}
}

// eachElement calls fn with the start and end offsets of every element of
// the array at i.
func eachElement(data []byte, i int, fn func(start, end int) error) error {
	i = skipSpace(data, i)
	if i >= len(data) || data[i] != '[' {
		return errors.New("not a JSON array")
	}
	i = skipSpace(data, i+1)
	if i < len(data) && data[i] == ']' {
		return nil
	}
	for i < len(data) {
		end, err := skipValue(data, i)
		if err != nil {
			return err
		}
		if err := fn(skipSpace(data, i), end); err != nil {
			return err
		}
		var done bool
		if i, done, err = next(data, end, ']'); done || err != nil {
			return err
		}
	}
	return errTruncated
}

// eachValue calls fn with the start and end offsets of the value of every
// member of the object at i, as eachElement does for an array's elements.
func eachValue(data []byte, i int, fn func(start, end int) error) error {
	var ferr error
	err := eachMember(data, i, func(_ []byte, s, e int) bool {
		ferr = fn(s, e)
		return ferr == nil
	})
	if ferr != nil {
		return ferr
	}
	return err
}

// member returns the value of the first member named key of the object at
// i, or ok false.
func member(data []byte, i int, key string) (start, end int, ok bool) {
	_ = eachMember(data, i, func(k []byte, s, e int) bool {
		if string(k) == key {
			start, end, ok = s, e, true
			return false
		}
		return true
	})
	return start, end, ok
}

// record is one top-level JSON value of a file and where it starts.
type record struct {
	start, end int
}

// records splits data into its top-level values: one for a JSON file, one
// a line for JSON lines.
func records(data []byte) ([]record, error) {
	var out []record
	for i := skipSpace(data, 0); i < len(data); i = skipSpace(data, i) {
		end, err := skipValue(data, i)
		if err != nil {
			return nil, syntaxError(data, i, err)
		}
		out = append(out, record{i, end})
		i = end
	}
	return out, nil
}

// syntaxError explains why the value at start could not be read, with the
// position of the fault: encoding/json finds it precisely, and is run only
// on this error path.
func syntaxError(data []byte, start int, cause error) error {
	var de depthError
	if errors.As(cause, &de) {
		line, col := Position(data, int(de))
		return fmt.Errorf("invalid JSON at line %d, column %d: %v", line, col, de)
	}
	var v json.RawMessage
	err := json.NewDecoder(bytes.NewReader(data[start:])).Decode(&v)
	switch {
	case err == io.EOF:
		err = io.ErrUnexpectedEOF
	case err == nil:
		line, col := Position(data, start)
		return fmt.Errorf("invalid JSON in the value at line %d, column %d: %v", line, col, cause)
	}
	return JSONError(data, start, len(data), err)
}

// Position converts a byte offset of data into a 1-based line and column.
func Position(data []byte, offset int) (line, col int) {
	offset = max(0, min(offset, len(data)))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = offset - bytes.LastIndexByte(before, '\n')
	return line, col
}

// errorQuoteRunes is how much of a value from the file an error quotes.
const errorQuoteRunes = 40

// CutForError is s cut to the first errorQuoteRunes characters an error
// quotes of it, "…" marking the cut, so that a value of a megabyte gives
// an error of one short line.
func CutForError(s string) string {
	n := 0
	for i := range s {
		if n == errorQuoteRunes {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// KeysForError lists keys from the file as an error shows them: each
// cut (CutForError), then joined with commas.
func KeysForError(keys []string) string {
	cut := make([]string, len(keys))
	for i, k := range keys {
		cut[i] = CutForError(k)
	}
	return strings.Join(cut, ", ")
}

// QuoteForError is a value from the file as an error quotes it: cut
// (CutForError), then quoted.
func QuoteForError(s string) string {
	return strconv.Quote(CutForError(s))
}

// decodeJSON decodes the value data[start:end] into v with encoding/json,
// numbers kept as json.Number, and reports a failure with its position in
// the whole file.
func decodeJSON(data []byte, start, end int, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data[start:end]))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return JSONError(data, start, end, err)
	}
	return nil
}

// JSONError explains an encoding/json error on data[start:end] with its
// position in the whole file: the one way offattr tells where a JSON input
// is wrong. An error that carries no offset is placed at the value's start,
// or left as it is when the value is the whole input.
func JSONError(data []byte, start, end int, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		line, col := Position(data, start+int(se.Offset))
		return fmt.Errorf("invalid JSON at line %d, column %d: %s", line, col, se.Error())
	case errors.As(err, &te):
		line, col := Position(data, start+int(te.Offset))
		field := te.Field
		if field == "" {
			field = "value"
		}
		return fmt.Errorf("unexpected JSON at line %d, column %d: %s is %s, want %s", line, col, field, te.Value, te.Type)
	case errors.Is(err, io.ErrUnexpectedEOF):
		line, col := Position(data, end)
		return fmt.Errorf("invalid JSON at line %d, column %d: unexpected end of file (is the file truncated?)", line, col)
	case start == 0 && end == len(data):
		return err
	default:
		line, col := Position(data, start)
		return fmt.Errorf("at line %d, column %d: %w", line, col, err)
	}
}
