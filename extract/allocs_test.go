package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNumberNormAllocs: reading a number's digits builds nothing per
// number beyond its normal form, as a long run holds a great many numbers.
func TestNumberNormAllocs(t *testing.T) {
	for _, tc := range []struct {
		text, want string
		allocs     float64
	}{
		{text: "19_640_000", want: "19640000", allocs: 1},
		{text: "1,234", want: "1234", allocs: 1},
		{text: "42", want: "42", allocs: 0},
		{text: "06385", want: "06385", allocs: 0},
	} {
		t.Run(tc.text, func(t *testing.T) {
			x := newText(tc.text)
			ms := x.numbers(1)
			require.Len(t, ms, 1)
			got, ok := numberNorm(x, ms[0])
			require.True(t, ok)
			assert.Equal(t, tc.want, got)
			allocs := testing.AllocsPerRun(100, func() { numberNorm(x, ms[0]) })
			assert.LessOrEqual(t, allocs, tc.allocs)
		})
	}
}

// TestGroupedAllocs: reading an id written in groups builds nothing per id
// beyond the id it gives.
func TestGroupedAllocs(t *testing.T) {
	x := newText("My order is W 123 4567, thanks.")
	require.Equal(t, []string{"w1234567"}, grouped(x))
	allocs := testing.AllocsPerRun(100, func() { grouped(x) })
	assert.LessOrEqual(t, allocs, float64(3))
}
