package cmdutil

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"

	"github.com/offattr/offattr/internal/escape"
)

// WriteJSONList writes v as WriteJSON does (WriteJSONLine when line is
// set), byte for byte, but for one long list among v's top-level fields,
// which it writes an item at a time: a long run's candidates need no
// second copy of themselves as one block of bytes. v must hold the list
// empty, as [], under its JSON name key; list is what it holds. The
// output goes out in buffered writes, not one, so an item that cannot be
// encoded (a NaN) ends it partway, with the error.
func WriteJSONList[T any](w io.Writer, v any, key string, list []T, line bool) error {
	head, err := marshal(v, "", line)
	if err != nil {
		return err
	}
	marker := []byte(keyJSON(key) + ": []")
	if line {
		marker = []byte(keyJSON(key) + ":[]")
	}
	at := topLevel(head, marker)
	if at < 0 {
		return fmt.Errorf("encode JSON: no empty %q among the top-level fields", key)
	}
	open := at + len(marker) - 1 // the list's ']'
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.Write(escape.JSON(head[:open]))
	// The items go in chunks, each encoded as a list at the field's
	// depth, brackets left out: the bytes the whole list's encoding holds.
	for start := 0; start < len(list); start += listChunk {
		chunk, err := marshal(list[start:min(start+listChunk, len(list))], "  ", line)
		if err != nil {
			return err
		}
		if start > 0 {
			bw.WriteByte(',')
		}
		end := len(chunk) - 1 // the chunk's ']'
		if !line {
			end -= len("\n  ")
		}
		bw.Write(escape.JSON(chunk[1:end]))
	}
	if len(list) > 0 && !line {
		bw.WriteString("\n  ")
	}
	bw.Write(escape.JSON(head[open:]))
	bw.WriteByte('\n')
	return bw.Flush()
}

// listChunk is how many of a list's items WriteJSONList encodes at once.
const listChunk = 1024

// marshal encodes v compact, or indented by two spaces under prefix.
func marshal(v any, prefix string, compact bool) ([]byte, error) {
	var data []byte
	var err error
	if compact {
		data, err = json.Marshal(v)
	} else {
		data, err = json.MarshalIndent(v, prefix, "  ")
	}
	if err != nil {
		return nil, fmt.Errorf("encode JSON: %w", err)
	}
	return data, nil
}

// topLevel is where in the encoded object data a top-level field begins
// with prefix (its key and what follows), or -1: nested fields and text
// inside strings do not count.
func topLevel(data, prefix []byte) int {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString && c == '\\':
			i++ // the escaped byte cannot end the string
		case inString:
			inString = c != '"'
		case c == '"':
			if depth == 1 && bytes.HasPrefix(data[i:], prefix) {
				return i
			}
			inString = true
		case c == '{' || c == '[':
			depth++
		case c == '}' || c == ']':
			depth--
		}
	}
	return -1
}

// keyJSON is key as the encoder writes an object's key.
func keyJSON(key string) string {
	data, _ := json.Marshal(key) // a string always encodes
	return string(data)
}
