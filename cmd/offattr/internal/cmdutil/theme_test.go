package cmdutil

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTheme(t *testing.T) {
	assert.Equal(t, "clear", Plain.Band("clear"), "plain output is not styled")
	assert.Equal(t, "x", Plain.Bold("x"))
	assert.Equal(t, Plain, (&IOStreams{OutTTY: false}).Theme(), "no colour where Out is not a terminal")

	c := newColourTheme()
	assert.True(t, strings.HasPrefix(c.Band("clear"), "\x1b[32;1mclear\x1b["), "green: %q", c.Band("clear"))
	assert.True(t, strings.HasPrefix(c.Band("escalate"), "\x1b[31;1mescalate\x1b["), "red: %q", c.Band("escalate"))
	assert.True(t, strings.HasPrefix(c.Bold("step"), "\x1b[1mstep\x1b["), "bold: %q", c.Bold("step"))
	assert.Equal(t, "other", c.Band("other"))

	env := func(vars map[string]string) func(string) string {
		return func(k string) string { return vars[k] }
	}
	assert.True(t, colourWanted(env(nil)))
	assert.False(t, colourWanted(env(map[string]string{"NO_COLOR": "1"})), "NO_COLOR turns colour off")
	assert.False(t, colourWanted(env(map[string]string{"TERM": "dumb"})))
}
