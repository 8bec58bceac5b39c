package run

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestTraceLabelWrapperLeavesUnlabelledFilesAlone: every file read by its
// shape is first asked whether a label sits beside its trace; a file
// without one is answered without decoding or copying any of it.
func TestTraceLabelWrapperLeavesUnlabelledFilesAlone(t *testing.T) {
	span := `{"name":"chat","context":{"trace_id":"t1","span_id":"b"},"attributes":{"gen_ai.output.messages":"Lyon."}},`
	for _, tt := range []struct {
		name string
		data []byte
	}{
		{"an object", []byte(`{"info":{"trace_id":"t1"},"data":{"spans":[` + strings.Repeat(span, 200) + `{}]}}`)},
		{"JSON lines", []byte(strings.ReplaceAll(strings.Repeat(span, 200), "},{\"name\"", "}\n{\"name\""))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, _, ok := traceLabelWrapper(tt.data)
			assert.False(t, ok)
			assert.Zero(t, testing.AllocsPerRun(5, func() { traceLabelWrapper(tt.data) }))
		})
	}
}
