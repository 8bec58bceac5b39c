package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestConvertedFrom: a figure in one unit is an earlier one in another
// unit of the same quantity when it is the conversion rounded as
// written; a conversion that comes out otherwise, a figure rounded to
// nothing like it, or two units of different quantities are not.
func TestConvertedFrom(t *testing.T) {
	for _, tt := range []struct {
		name, said, read string
		want             bool
	}{
		{"celsius to fahrenheit", "It is 72 °F now.", "temp: 22 °C", true},
		{"fahrenheit to celsius", "It is 22 °C now.", "temp: 72 °F", true},
		{"one decimal", "It is 71.6 °F now.", "temp: 22 °C", true},
		{"wrong conversion", "It is 75 °F now.", "temp: 22 °C", false},
		{"kilometres to miles", "about 5 miles", "8 km away", true},
		{"metres to feet", "about 19,341 feet tall", "5,895 metres tall", true},
		{"kilograms to pounds", "It weighs 11 lb.", "It weighs 5 kg.", true},
		{"wrong factor", "about 8 miles", "8 km away", false},
		{"small figure rounded whole", "1 mile", "1 km", false},
		{"other quantity", "5 kg", "5 mi", false},
		{"same unit", "5 km", "5 km", false},
		{"no unit", "72", "temp: 22 °C", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			said, read := Claims(tt.said), Claims(tt.read)
			if assert.NotEmpty(t, said) && assert.NotEmpty(t, read) {
				assert.Equal(t, tt.want, said[0].ConvertedFrom(read[0]))
			}
		})
	}
}
