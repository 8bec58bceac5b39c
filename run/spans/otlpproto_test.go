package spans

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
)

// tripProto returns the trip example (otel-sdk.jsonl, a TracesData a line)
// as OTLP protobuf messages, one a line of the file.
func tripProto(t testing.TB) (jsonl []byte, msgs [][]byte) {
	t.Helper()
	jsonl, err := os.ReadFile(filepath.Join("..", "..", "testdata", "telemetry", "otel-sdk.jsonl"))
	require.NoError(t, err)
	for _, line := range bytes.Split(bytes.TrimSpace(jsonl), []byte("\n")) {
		rec := bytes.Clone(line)
		require.NoError(t, hexToBase64(line, rec, 0))
		var td tracepb.TracesData
		require.NoError(t, protojson.Unmarshal(rec, &td))
		b, err := proto.Marshal(&td)
		require.NoError(t, err)
		msgs = append(msgs, b)
	}
	return jsonl, msgs
}

// TestOTLPProto: the trip read from OTLP's binary protobuf, as one message
// or as the Collector file exporter's length-prefixed frames, holds the
// same spans as read from OTLP/JSON; text and other bytes are no OTLP.
func TestOTLPProto(t *testing.T) {
	jsonl, msgs := tripProto(t)
	want, err := Decode(context.Background(), jsonl, OTLP)
	require.NoError(t, err)
	for i := range want {
		want[i].Line = 0
	}

	var one tracepb.TracesData
	var framed []byte
	for _, m := range msgs {
		var td tracepb.TracesData
		require.NoError(t, proto.Unmarshal(m, &td))
		one.ResourceSpans = append(one.ResourceSpans, td.ResourceSpans...)
		framed = binary.BigEndian.AppendUint32(framed, uint32(len(m)))
		framed = append(framed, m...)
	}
	single, err := proto.Marshal(&one)
	require.NoError(t, err)

	for name, data := range map[string][]byte{"one message": single, "framed": framed} {
		t.Run(name, func(t *testing.T) {
			assert.True(t, IsOTLPProto(data))
			assert.Equal(t, OTLP, Detect(data))
			got, err := Decode(context.Background(), data, OTLP)
			require.NoError(t, err)
			for i := range got {
				assert.Positive(t, got[i].Line, "the number of the message")
				got[i].Line = 0
			}
			assert.Equal(t, want, got)
		})
	}

	for name, data := range map[string][]byte{
		"JSON":                      jsonl,
		"text":                      []byte("2025-03-01 10:00:00 INFO agent started\n"),
		"bytes that are no message": {0x00, 0x01, 0x02, 0xff, 0xfe},
		"a message with no span":    mustMarshal(t, &tracepb.TracesData{ResourceSpans: []*tracepb.ResourceSpans{{}}}),
	} {
		t.Run(name, func(t *testing.T) {
			assert.False(t, IsOTLPProto(data))
		})
	}
	_, err = Decode(context.Background(), []byte{0x00, 0x01, 0x02, 0xff, 0xfe}, OTLP)
	assert.ErrorContains(t, err, "not OTLP protobuf")
}

func mustMarshal(t testing.TB, m proto.Message) []byte {
	t.Helper()
	b, err := proto.Marshal(m)
	require.NoError(t, err)
	return b
}
