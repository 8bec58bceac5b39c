package cmdutil

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// The flag values below check their range as the command line is parsed,
// so a value out of range is a usage error (exit 2) whatever else the
// command line holds, before any input is read.

// IntVar defines an int flag that accepts only values in [lo, hi].
func IntVar(fs *pflag.FlagSet, p *int, name string, def, lo, hi int, usage string) {
	*p = def
	fs.Var(&intRange{p: p, lo: lo, hi: hi}, name, usage)
}

// IntVarP is IntVar with a shorthand letter.
func IntVarP(fs *pflag.FlagSet, p *int, name, short string, def, lo, hi int, usage string) {
	*p = def
	fs.VarP(&intRange{p: p, lo: lo, hi: hi}, name, short, usage)
}

// FloatVar defines a float flag that accepts only finite values in [lo, hi]
// (above lo when open is true).
func FloatVar(fs *pflag.FlagSet, p *float64, name string, def, lo, hi float64, open bool, usage string) {
	*p = def
	fs.Var(&floatRange{p: p, lo: lo, hi: hi, open: open}, name, usage)
}

// DurationVar defines a duration flag that accepts only positive values.
func DurationVar(fs *pflag.FlagSet, p *time.Duration, name string, def time.Duration, usage string) {
	*p = def
	fs.Var(&positiveDuration{p: p}, name, usage)
}

// ChoiceVar defines a string flag that accepts only one of choices.
func ChoiceVar(fs *pflag.FlagSet, p *string, name, def string, choices []string, usage string) {
	*p = def
	fs.Var(&choice{p: p, choices: choices}, name, usage)
}

// NamesVar defines a comma-separated list flag whose every element must
// be one of known() (read when the flag is parsed).
func NamesVar(fs *pflag.FlagSet, p *[]string, name string, known func() []string, usage string) {
	fs.Var(&names{p: p, known: known}, name, usage)
}

type intRange struct {
	p      *int
	lo, hi int
}

func (v *intRange) String() string { return strconv.Itoa(*v.p) }
func (v *intRange) Type() string   { return "int" }
func (v *intRange) Set(s string) error {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("not a whole number")
	}
	if n < v.lo || n > v.hi {
		return fmt.Errorf("%s", rangeText(strconv.Itoa(v.lo), strconv.Itoa(v.hi), v.hi == math.MaxInt, false))
	}
	*v.p = n
	return nil
}

type floatRange struct {
	p      *float64
	lo, hi float64
	open   bool
}

func (v *floatRange) String() string { return strconv.FormatFloat(*v.p, 'g', -1, 64) }
func (v *floatRange) Type() string   { return "float" }
func (v *floatRange) Set(s string) error {
	f, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("not a number")
	}
	if f < v.lo || f > v.hi || (v.open && f == v.lo) {
		return fmt.Errorf("%s", rangeText(strconv.FormatFloat(v.lo, 'g', -1, 64), strconv.FormatFloat(v.hi, 'g', -1, 64), math.IsInf(v.hi, 1), v.open))
	}
	*v.p = f
	return nil
}

// rangeText says which values a flag takes.
func rangeText(lo, hi string, unbounded, open bool) string {
	switch {
	case unbounded && open:
		return "must be above " + lo
	case unbounded:
		return "must be at least " + lo
	case open:
		return fmt.Sprintf("must be above %s and at most %s", lo, hi)
	}
	return fmt.Sprintf("must be from %s to %s", lo, hi)
}

type positiveDuration struct{ p *time.Duration }

func (v *positiveDuration) String() string { return v.p.String() }
func (v *positiveDuration) Type() string   { return "duration" }
func (v *positiveDuration) Set(s string) error {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil {
		return fmt.Errorf("not a duration (such as 90s or 5m)")
	}
	if d <= 0 {
		return fmt.Errorf("must be positive")
	}
	*v.p = d
	return nil
}

type choice struct {
	p       *string
	choices []string
}

func (v *choice) String() string { return *v.p }
func (v *choice) Type() string   { return "string" }
func (v *choice) Set(s string) error {
	if !slices.Contains(v.choices, s) {
		return fmt.Errorf("want one of %s", strings.Join(v.choices, ", "))
	}
	*v.p = s
	return nil
}

type names struct {
	p       *[]string
	known   func() []string
	changed bool
}

func (v *names) String() string { return strings.Join(*v.p, ",") }
func (v *names) Type() string   { return "strings" }
func (v *names) Set(s string) error {
	known := v.known()
	var got []string
	for _, n := range strings.Split(s, ",") {
		n = strings.TrimSpace(n)
		if n == "" {
			continue
		}
		if !slices.Contains(known, n) {
			return fmt.Errorf("unknown name %q; known: %s", n, strings.Join(known, ", "))
		}
		got = append(got, n)
	}
	if !v.changed {
		*v.p = nil // the first use replaces the default, later ones add
		v.changed = true
	}
	*v.p = append(*v.p, got...)
	return nil
}
