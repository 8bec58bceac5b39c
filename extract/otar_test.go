package extract

import (
	"testing"

	"github.com/dlclark/regexp2"
	"github.com/stretchr/testify/assert"
)

// TestFirstForSkipsOnlyWhatSetOnceKeeps holds the searches otar skips to
// what setOnce does: a part that is not empty keeps its text whatever is
// offered, and an empty part is offered the first match.
func TestFirstForSkipsOnlyWhatSetOnceKeeps(t *testing.T) {
	tx := newText("I think we should check. I will now search the web. The output shows 3.")
	for _, re := range []*regexp2.Regexp{reasonedRe, intendedRe, observedRe} {
		want, wantOK := tx.first(re)
		got, ok := firstFor("", tx, re)
		assert.True(t, wantOK)
		assert.Equal(t, wantOK, ok)
		assert.Equal(t, want, got)
		_, ok = firstFor("read before", tx, re)
		assert.False(t, ok)
	}
	for _, offered := range []string{"", "  ", "new text", "\tnew\n"} {
		part := "read before"
		setOnce(&part, offered)
		assert.Equal(t, "read before", part, "%q", offered)
	}
}
