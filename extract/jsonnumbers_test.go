package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// TestCompactJSONNumbers: a tool's JSON output states the same numbers
// however compactly it is written (encoders' default separators, as
// JavaScript's JSON.stringify and Go's encoding/json write them, leave
// no space after a colon or a comma), each at its place in the output,
// in the unit its key's last word names (a weather API's "high_c",
// "windSpeedMph", but not the "min" of a range's "temp_min" and
// "temp_max", as OpenWeatherMap writes them; a plan's "data_gb"); small bare integers and long identifiers are no
// claims either way, and a key of one word names no unit.
func TestCompactJSONNumbers(t *testing.T) {
	for _, tt := range []struct {
		name, compact, spaced string
		want                  []string
	}{
		{"an object's fields",
			`{"sku":"A1263","price":49.99,"qty":2,"weight_kg":0.35}`,
			`{"sku": "A1263", "price": 49.99, "qty": 2, "weight_kg": 0.35}`,
			[]string{"49.99", "0.35 kg"}},
		{"an array of numbers",
			`{"scores":[71,85,93],"ids":[1700000000000]}`,
			`{"scores": [71, 85, 93], "ids": [1700000000000]}`,
			[]string{"71", "85", "93"}},
		{"after a label, negative and nested",
			`get_balance -> {"account":{"balance":-120.5,"history":[{"amount":340}]}}`,
			`get_balance -> {"account": {"balance": -120.5, "history": [{"amount": 340}]}}`,
			[]string{"-120.5", "340"}},
		{"keys that name units",
			`{"city":"Oslo","high_c":12,"low_c":-4,"windSpeedMph":23,"elevationFt":75,"m":15}`,
			`{"city": "Oslo", "high_c": 12, "low_c": -4, "windSpeedMph": 23, "elevationFt": 75, "m": 15}`,
			[]string{"12 °C", "-4 °C", "23 mph", "75 ft", "15"}},
		{"a range's bounds beside a duration",
			`{"main":{"temp":6.1,"temp_min":2.4,"temp_max":8.7},"daily":{"priceMin":19.5,"priceMax":24.5},"eta_min":74}`,
			`{"main": {"temp": 6.1, "temp_min": 2.4, "temp_max": 8.7}, "daily": {"priceMin": 19.5, "priceMax": 24.5}, "eta_min": 74}`,
			[]string{"6.1", "2.4", "8.7", "19.5", "24.5", "74 min"}},
		{"keys that name sizes, and milliseconds as prose reads them",
			`{"plan":"Unlimited","data_gb":5,"storage_mb":250,"timeout_ms":500}`,
			`{"plan": "Unlimited", "data_gb": 5, "storage_mb": 250, "timeout_ms": 500}`,
			[]string{"5 gb", "250 mb", "500"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			compact, spaced := toolResultClaims(tt.compact), toolResultClaims(tt.spaced)
			assert.Subset(t, normsOf(compact), tt.want)
			assert.ElementsMatch(t, normsOf(spaced), normsOf(compact))
			for _, c := range compact {
				assert.Equal(t, c.Text, tt.compact[c.Offset:int(c.Offset)+len(c.Text)], "%s is where it is written", c.Norm)
			}
		})
	}
}

// toolResultClaims returns the claims of text read as a tool's output.
func toolResultClaims(text string) []Claim {
	r := chat("user", "What does it cost?", "assistant", "lookup()", "tool", text)
	r.Steps[1].Kind, r.Steps[2].Kind = run.KindToolCall, run.KindToolResult
	return Run(r).Steps[2].Claims
}

func normsOf(cs []Claim) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Norm)
	}
	return out
}
