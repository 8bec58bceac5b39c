package redact

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/require"
)

// Both targets are meant for CI with a short budget:
//
//	go test -run '^$' -fuzz '^FuzzString$' -fuzztime 10s ./redact
//	go test -run '^$' -fuzz '^FuzzPlantedSecret$' -fuzztime 10s ./redact
//
// Without -fuzz they run their seeds as ordinary tests.

// FuzzString checks that redaction never panics, only rewrites text into
// placeholders, and that redacting its own output changes nothing; and
// that no hint says no where its rule would mask something, which would be
// a leak.
func FuzzString(f *testing.F) {
	seeds := []string{
		"", "plain words", "2.4.1 and v1.2.3.4", "mail a@b.co", "10.0.0.1", "2001:db8::1",
		"+44 20 7946 0958", "(415) 555-2671", "020 7946 0958", "password=x;", "token: abc12345",
		"Bearer abcdef0123456789", openAIKey, jwt, pemKey, "postgres://u:p@h/db",
		"[EMAIL_1] [IP_2]", "a@b.co[EMAIL_1]", "1.2.3.4.5", "::", "a:b:c",
		"password: [PASSWORD_1]x", "4111 1111 1111 1111 12/25", `{\"pwd\": \"a\\\"b\"}`, "PIN 1234 5678",
		"GB82 WEST 1234 5698 7654 32 DE89 3704", "Password: Tr0ub4dor&3xyz).",
	}
	for _, p := range plantedSecrets {
		seeds = append(seeds, p.text())
	}
	for _, l := range lookAlikes {
		seeds = append(seeds, l.in)
	}
	for _, s := range seeds {
		f.Add(s)
	}
	p, err := Compile(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, in string) {
		checkSearch(t, p, in)
		r := p.NewRedactor()
		once := r.String(in)
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

// FuzzPlantedSecret plants one of plantedSecrets, on a line of its own,
// between arbitrary texts: whatever surrounds it, it must not survive.
func FuzzPlantedSecret(f *testing.F) {
	for i := range plantedSecrets {
		f.Add("", "", uint(i))
	}
	f.Add("password=", "@example.com", uint(0))
	f.Add("-----BEGIN PRIVATE KEY-----", "", uint(1))
	f.Add("4111 1111", "1111 1111", uint(2))
	f.Add(`{"password": "`, `"}`, uint(3))
	f.Add("Bearer", "[CARD_1]", uint(4))
	p, err := Compile(Options{})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, before, after string, pick uint) {
		s := plantedSecrets[pick%uint(len(plantedSecrets))]
		if strings.Contains(before, s.secret) || strings.Contains(after, s.secret) {
			return // the fuzzer wrote the secret itself, in a context of its own
		}
		in := before + "\n" + s.text() + "\n" + after
		r := p.NewRedactor()
		out := r.String(in)
		if strings.Contains(out, s.secret) {
			t.Fatalf("%s survived:\nin:  %q\nout: %q", s.name, in, out)
		}
	})
}

// checkSearch fails t if a rule's pattern, searched where internal/match
// says it can begin, finds other than regexp2's scan of the whole text, or
// a scanner finds something in a text its test says cannot hold it.
func checkSearch(t *testing.T, p *Patterns, text string) {
	t.Helper()
	tx := p.set.Text(text)
	for _, ru := range p.rules {
		if ru.re != nil {
			require.Equal(t, tx.Scan(ru.re, -1), tx.Find(ru.re, -1), "%s on %q", ru.name, text)
		} else if !ru.mayMatch(tx) && len(ru.hits(tx)) > 0 {
			t.Fatalf("the %s scanner's test missed %q", ru.name, text)
		}
	}
}
