package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestStemGivesAWordsFormsOneStem(t *testing.T) {
	forms := [][]string{
		{"exclude", "excludes", "excluded", "excluding"},
		{"cancel", "cancels", "cancelled", "cancelling"},
		{"modify", "modifies", "modified", "modifi"},
		{"delete", "deletes", "deleted", "deleting"},
		{"destroy", "destroys", "destroyed", "destroying"},
		{"drop", "drops", "dropped", "dropping"},
		{"tax", "taxes", "taxed"},
		{"status", "statuses"},
		{"weekday", "weekdays"},
		{"wipe", "wipes", "wiped", "wiping"},
		{"fill", "fills", "filled", "filling"},
		{"mode", "modes"},
		{"take", "takes", "taking"},
		{"copy", "copies", "copied"},
	}
	for _, ws := range forms {
		t.Run(ws[0], func(t *testing.T) {
			want := Stem(ws[0])
			for _, w := range ws {
				assert.Equal(t, want, Stem(w), w)
				if len(want) > 4 {
					assert.Truef(t, len(want) <= len(w) && w[:len(want)] == want, "the stem %q begins %q", want, w)
				}
			}
		})
	}
}

func TestStemLeavesWhatNoEndingInflects(t *testing.T) {
	for w, want := range map[string]string{
		"string":   "string",
		"uses":     "use",
		"analysis": "analysis",
		"is":       "is",
		"weekdays": "weekday",
		"taxes":    "tax",
		"fixed":    "fix",
		"mode":     "mode",
		"sales":    "sale",
	} {
		assert.Equal(t, want, Stem(w), w)
	}
}

func TestSameStem(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"cancelled", "cancel", true},
		{"modify", "modified", true},
		{"cancellation", "cancel", true},
		{"modification", "modify", true},
		{"deletion", "delete", true},
		{"exchange", "exchanged", true},
		{"book", "booking", true},
		{"book", "bookmark", false},
		{"cancel", "candle", false},
		{"add", "added", false}, // too short to tell
	}
	for _, tt := range tests {
		t.Run(tt.a+"/"+tt.b, func(t *testing.T) {
			assert.Equal(t, tt.want, SameStem(tt.a, tt.b))
			assert.Equal(t, tt.want, SameStem(tt.b, tt.a))
		})
	}
}
