package redact

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Each check digit accepts its issuer's published example and refuses the
// same number with its last digit changed.
func TestIdentityNumberChecks(t *testing.T) {
	tests := []struct {
		name      string
		keep      func(found, string) bool
		good, bad string
	}{
		{"Canadian SIN", keepLuhnID, "046 454 286", "046 454 287"},
		{"Aadhaar", keepVerhoeff, "2345 6789 0124", "2345 6789 0125"},
		{"Chinese resident id", keepChineseID, "11010519491231002X", "110105194912310021"},
		{"French NIR", keepNIR, "1 84 12 76 451 089 46", "1 84 12 76 451 089 47"},
		{"French NIR of Corsica", keepNIR, "1 84 12 2A 451 089 33", "1 84 12 2A 451 089 34"},
		{"German tax id", keepSteuerID, "65929970489", "65929970488"},
		{"Brazilian CPF", keepCPF, "123.456.789-09", "123.456.789-08"},
		{"Spanish DNI", keepDNI, "12345678Z", "12345678A"},
		{"Spanish NIE", keepDNI, "X1234567L", "X1234567A"},
		{"Japanese individual number", keepMyNumber, "123456789018", "123456789017"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.True(t, tt.keep(found{}, tt.good), tt.good)
			assert.False(t, tt.keep(found{}, tt.bad), tt.bad)
		})
	}
}
