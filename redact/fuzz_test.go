package redact

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzString checks that redaction never panics, only rewrites text into
// placeholders, and that redacting its own output changes nothing.
func FuzzString(f *testing.F) {
	seeds := []string{
		"", "plain words", "2.4.1 and v1.2.3.4", "mail a@b.co", "10.0.0.1", "2001:db8::1",
		"+44 20 7946 0958", "(415) 555-2671", "020 7946 0958", "password=x;", "token: abc12345",
		"Bearer abcdef0123456789", openAIKey, jwt, pemKey, "postgres://u:p@h/db",
		"[EMAIL_1] [IP_2]", "a@b.co[EMAIL_1]", "1.2.3.4.5", "::", "a:b:c",
	}
	for _, s := range seeds {
		f.Add(s)
	}
	p, err := Compile(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		r := p.NewRedactor()
		once := r.String(in)
		if r.Err() != nil {
			return // withheld whole; nothing more to check
		}
		if !utf8.ValidString(in) {
			return // invalid bytes become U+FFFD where text is rewritten
		}
		twice := p.NewRedactor().String(once)
		if twice != once {
			t.Fatalf("not idempotent:\nin:    %q\nonce:  %q\ntwice: %q", in, once, twice)
		}
		if once != in && !strings.Contains(once, "[") {
			t.Fatalf("changed without a placeholder: %q → %q", in, once)
		}
	})
}
