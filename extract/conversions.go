package extract

import (
	"math"
	"strconv"
	"strings"
)

// conversion is how a figure in one unit is written in another: times
// factor, plus offset.
type conversion struct{ factor, offset float64 }

// conversions is the one table of factors between units of one quantity,
// keyed by the units' normal names (numberNorm's) in lower case, as
// indexes fold them: temperature, length and mass. Each pair is listed both ways.
var conversions = map[[2]string]conversion{
	{"°c", "°f"}: {1.8, 32},
	{"°f", "°c"}: {1 / 1.8, -32 / 1.8},
	{"km", "mi"}: {1 / 1.609344, 0},
	{"mi", "km"}: {1.609344, 0},
	{"m", "ft"}:  {1 / 0.3048, 0},
	{"ft", "m"}:  {0.3048, 0},
	{"kg", "lb"}: {1 / 0.45359237, 0},
	{"lb", "kg"}: {0.45359237, 0},
}

// maxScaleSlip bounds how far a figure converted by a factor may lie from
// the one written, as a share of it: rounding a small figure to a whole
// one ("1 mi" for 1 km's 0.62) is no conversion.
const maxScaleSlip = 0.05

// ConvertedFrom reports whether number claim c, in one unit, is number
// claim o, in another unit of the same quantity, converted and rounded to
// the places c is written with ("72 °F" from 22 °C's 71.6, "5 mi" from
// 8 km's 4.97): a figure told in the unit its reader asked for, not one
// made up. A conversion that comes out otherwise is not.
func (c Claim) ConvertedFrom(o Claim) bool {
	if c.Kind != ClaimNumber || o.Kind != ClaimNumber {
		return false
	}
	cv, cu := c.Value()
	ov, ou := o.Value()
	conv, ok := conversions[[2]string{strings.ToLower(ou), strings.ToLower(cu)}]
	if !ok {
		return false
	}
	want, err1 := strconv.ParseFloat(cv, 64)
	from, err2 := strconv.ParseFloat(ov, 64)
	if err1 != nil || err2 != nil {
		return false
	}
	got := from*conv.factor + conv.offset
	places := 0
	if k := strings.IndexByte(cv, '.'); k >= 0 {
		places = len(cv) - k - 1
	}
	scale := math.Pow(10, float64(places))
	if math.Abs(math.Round(got*scale)/scale-want) > 0.5/scale/1e6 {
		return false
	}
	return conv.offset != 0 || math.Abs(got-want) <= maxScaleSlip*math.Abs(want)
}
