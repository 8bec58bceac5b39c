package shellword

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"mvdan.cc/sh/v3/syntax"
)

// TestLiteral: a word written out whole reads as the shell reads it,
// quotes and quoting backslashes dropped; a word with any expansion has
// no literal value.
func TestLiteral(t *testing.T) {
	tests := []struct {
		word string
		want string
		ok   bool
	}{
		{`src/app.py`, "src/app.py", true},
		{`'a b $x'`, "a b $x", true},
		{`"a \$x \"q\" \n"`, `a $x "q" \n`, true},
		{`a\ b\\c`, `a b\c`, true},
		{`pre'fix'"ed"`, "prefixed", true},
		{`$HOME/x`, "", false},
		{`"$(pwd)/x"`, "", false},
		{`*.py`, "*.py", true}, // a pattern is not expanded: it is read as written
	}
	for _, tt := range tests {
		t.Run(tt.word, func(t *testing.T) {
			f, err := syntax.NewParser().Parse(strings.NewReader("echo "+tt.word), "")
			require.NoError(t, err)
			args := f.Stmts[0].Cmd.(*syntax.CallExpr).Args
			require.Len(t, args, 2)
			got, ok := Literal(args[1])
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.want, got)
		})
	}
	_, ok := Literal(nil)
	assert.False(t, ok)
}
