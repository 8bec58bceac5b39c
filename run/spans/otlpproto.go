package spans

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"

	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// OTLP's binary protobuf: a TracesData, or an ExportTraceServiceRequest as
// an OTLP/HTTP exporter sends it (the same on the wire), as one message;
// or the Collector's file exporter's proto format, each message preceded
// by its length in 4 bytes, big-endian.

// binaryProbe is how much of a file Binary reads to tell bytes from text.
const binaryProbe = 4096

// ErrNotOTLPProto: binary data that is no OTLP protobuf holding a span.
var ErrNotOTLPProto = errors.New("not OTLP protobuf")

// Binary reports whether data holds control bytes no JSON text does (NUL
// to US but tab, line feed and carriage return) in its first bytes: a
// protobuf's tags and lengths are such bytes.
func Binary(data []byte) bool {
	for _, c := range data[:min(len(data), binaryProbe)] {
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			return true
		}
	}
	return false
}

// IsOTLPProto reports whether data is OTLP's binary protobuf holding at
// least one span.
func IsOTLPProto(data []byte) bool {
	if !Binary(data) {
		return false
	}
	msgs, err := protoTraces(data)
	return err == nil && len(msgs) > 0
}

// protoTraces decodes data as the file exporter's frames when they cover
// it exactly, else as one message. A reading that holds no span is an
// error: protobuf decodes most bytes as some message of unknown fields.
func protoTraces(data []byte) ([]*tracepb.TracesData, error) {
	var msgs []*tracepb.TracesData
	for rest := data; len(rest) > 0; {
		if len(rest) < 4 {
			msgs = nil
			break
		}
		n := binary.BigEndian.Uint32(rest)
		if uint64(n) > uint64(len(rest)-4) {
			msgs = nil
			break
		}
		var td tracepb.TracesData
		if proto.Unmarshal(rest[4:4+n], &td) != nil || !holdsSpans(&td) {
			msgs = nil
			break
		}
		msgs, rest = append(msgs, &td), rest[4+n:]
	}
	if msgs != nil {
		return msgs, nil
	}
	var td tracepb.TracesData
	if err := proto.Unmarshal(data, &td); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrNotOTLPProto, err)
	}
	if !holdsSpans(&td) {
		return nil, fmt.Errorf("%w: no spans", ErrNotOTLPProto)
	}
	return []*tracepb.TracesData{&td}, nil
}

// holdsSpans reports whether td holds a span.
func holdsSpans(td *tracepb.TracesData) bool {
	for _, rs := range td.GetResourceSpans() {
		for _, ss := range rs.GetScopeSpans() {
			if len(ss.GetSpans()) > 0 {
				return true
			}
		}
	}
	return false
}

// DecodeOTLPProto reads OTLP's binary protobuf; data that is none is
// ErrNotOTLPProto. A binary file has no lines: each span's Line is the
// number of its message, from 1. A caller that would ask IsOTLPProto
// first decodes once by calling this alone.
func DecodeOTLPProto(ctx context.Context, data []byte) ([]Span, error) {
	msgs, err := protoTraces(data)
	if err != nil {
		return nil, err
	}
	var out []Span
	for k, td := range msgs {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for _, rs := range td.GetResourceSpans() {
			ss, err := fromResourceSpans(rs, k+1)
			if err != nil {
				return nil, err
			}
			out = append(out, ss...)
		}
	}
	return out, nil
}
