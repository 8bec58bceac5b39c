package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestSameCode(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b []string
		want bool
	}{
		{"comment added", []string{"def f(x):\n    return x > 18"}, []string{"def f(x):\n    # adults are older than 18\n    return x > 18"}, true},
		{"docstring reworded", []string{"'''\nfee\n'''\nFEE = 5\n"}, []string{"'''\nfee: free from the minimum\n'''\n\nFEE = 5"}, true},
		{"one-line docstring", []string{"\"\"\"fee\"\"\"\nFEE = 5"}, []string{"FEE = 5"}, true},
		{"comparison changed", []string{"return x > 18"}, []string{"return x >= 18"}, false},
		{"line added", []string{"a = 1"}, []string{"a = 1\nb = 2"}, false},
		{"only comments", []string{"# nothing"}, []string{"# nothing"}, false},
		{"none", nil, nil, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, SameCode(tc.a, tc.b))
		})
	}
}
