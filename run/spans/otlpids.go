package spans

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
)

// OTLP ids, hex in files and base64 in protojson: the one place that
// converts between them.
//
// The OTLP specification writes traceId, spanId and parentSpanId (in spans
// and in links) as hex strings in JSON, against the protobuf JSON mapping,
// which writes bytes fields as base64. protojson follows the mapping: it
// would read the hex "5B8EFFF798038103D269B633813FC60C" as base64 and get
// 24 wrong bytes. So before protojson reads a record, hexToBase64 rewrites
// the value of every id key, in place and length-preserving: the base64
// text is shorter than the hex (24 characters for 32, 12 for 16) and is
// padded with spaces after its closing quote, which JSON ignores. Every
// other byte keeps its offset, so a position protojson reports is a
// position in the user's file. MarshalOTLP does the reverse for writers.
//
// Accepted: hex in either case; base64 of the right length (Tempo's older
// API wrote ids that way); the empty string (no parent). Anything else is
// an error naming the id and its position.

// idKeys are the JSON keys of OTLP id fields, in both spellings protojson
// accepts, with the number of bytes each must decode to.
var idKeys = map[string]int{
	"traceId": 16, "trace_id": 16,
	"spanId": 8, "span_id": 8,
	"parentSpanId": 8, "parent_span_id": 8,
}

// hexToBase64 rewrites the ids in rec (a slice of data, which it changes)
// for protojson; data is the whole file, for positions in errors.
func hexToBase64(data []byte, rec []byte, recStart int) error {
	for i := 0; i < len(rec); {
		k := bytes.IndexByte(rec[i:], '"')
		if k < 0 {
			return nil
		}
		i += k
		end, err := skipString(rec, i)
		if err != nil {
			return nil // protojson reports the broken string
		}
		size, isID := idKeys[string(rec[i+1:end-1])]
		j := skipSpace(rec, end)
		if !isID || j >= len(rec) || rec[j] != ':' {
			i = end
			continue
		}
		v := skipSpace(rec, j+1)
		if v >= len(rec) || rec[v] != '"' {
			i = end
			continue // not a string: protojson says what is wrong
		}
		vend, err := skipString(rec, v)
		if err != nil {
			return nil
		}
		if err := rewriteID(rec[v:vend], size); err != nil {
			line, col := Position(data, recStart+v)
			return fmt.Errorf("invalid %s at line %d, column %d: %w", rec[i+1:end-1], line, col, err)
		}
		i = vend
	}
	return nil
}

// rewriteID turns the quoted hex id q into quoted base64 padded with
// spaces to the same length, or checks that it is base64 already.
func rewriteID(q []byte, size int) error {
	s := q[1 : len(q)-1]
	if len(s) == 0 {
		return nil
	}
	var raw [16]byte
	if len(s) == 2*size {
		if _, err := hex.Decode(raw[:size], s); err == nil {
			n := base64.StdEncoding.EncodedLen(size)
			base64.StdEncoding.Encode(q[1:1+n], raw[:size])
			q[1+n] = '"'
			for i := 2 + n; i < len(q); i++ {
				q[i] = ' '
			}
			return nil
		}
	}
	if b, err := base64.StdEncoding.DecodeString(string(s)); err == nil && len(b) == size {
		return nil
	}
	return fmt.Errorf("%.40q is not an id of %d bytes in hex (%d hex digits)", s, size, 2*size)
}

// hexID renders id bytes as lower-case hex; all-zero ids, which the
// specification calls invalid, as "" (no id).
func hexID(b []byte) string {
	for _, c := range b {
		if c != 0 {
			return hex.EncodeToString(b)
		}
	}
	return ""
}

// base64IDRe matches an id member as protojson writes it.
var base64IDRe = regexp.MustCompile(`"(traceId|spanId|parentSpanId)":"([A-Za-z0-9+/=]*)"`)

// MarshalOTLP writes td as OTLP/JSON with hex ids and enums as numbers, as
// the specification and the OpenTelemetry Collector's file exporter do:
// the inverse of the OTLP decoder, for tests and tools that write traces.
func MarshalOTLP(td *tracepb.TracesData) ([]byte, error) {
	b, err := protojson.MarshalOptions{UseEnumNumbers: true}.Marshal(td)
	if err != nil {
		return nil, err
	}
	// protojson's output is compact but not stable across versions: it may
	// add spaces. Compact it so the rewrite below sees one shape.
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return nil, err
	}
	var failed error
	out := base64IDRe.ReplaceAllFunc(buf.Bytes(), func(m []byte) []byte {
		sm := base64IDRe.FindSubmatch(m)
		raw, err := base64.StdEncoding.DecodeString(string(sm[2]))
		if err != nil {
			failed = err
			return m
		}
		return fmt.Appendf(nil, `"%s":"%s"`, sm[1], hex.EncodeToString(raw))
	})
	return out, failed
}
