package extract

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNames(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"The Bank of America sold it to Subway.", []string{"The Bank of America", "Subway"}},
		{"Foo  of  Bar and Smith & Wesson", []string{"Foo  of  Bar", "Smith & Wesson"}},
		{"Jean-Luc Picard met O’Neil of the Sea", []string{"Jean-Luc Picard", "O’Neil", "Sea"}}, // one connector between words
		{"iPhone X and path/To", []string{"X"}},                                                 // not inside a word or a path
		{"Abc_ Def", []string{"Def"}},                                                           // no name goes on into "_"
		{"A B C D E F G H I", []string{"A B C D E F G", "H I"}},                                 // seven words at most
		{"A" + strings.Repeat("b", 44) + " Cd", []string{"Cd"}},                                 // a word is 41 runes at most
		{"Ürsula von Der Leyen, İstanbul", []string{"Ürsula von Der Leyen", "İstanbul"}},
		{"Rock'n Roll", []string{"Rock'n Roll"}},
		{"de la Fuente", []string{"Fuente"}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			tx := newText(tt.in)
			var got []string
			for _, s := range names(tx) {
				got = append(got, tx.s[s.start:s.end])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestQuotations(t *testing.T) {
	tests := []struct {
		in   string
		want []string // what the quotes enclose
	}{
		{`say "hi there" and “curly one” and 'single one'`, []string{"hi there", "curly one", "single one"}},
		{`"a" is too short, x"abc" follows a word, \"esc" a backslash`, nil},
		{"\"line\nbreak\"", nil},
		{`'it's' and 'ok'`, []string{"ok"}}, // a word goes on after the first closing quote
		{`"` + strings.Repeat("x", 81) + `"`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			tx := newText(tt.in)
			var got []string
			for _, q := range quotations(tx) {
				got = append(got, tx.s[q.inner.start:q.inner.end])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
