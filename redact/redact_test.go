package redact

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func newRedactor(t testing.TB) *Redactor {
	t.Helper()
	r, err := New(Options{})
	require.NoError(t, err)
	return r
}

// Fake secrets, shaped like the real thing.
const (
	openAIKey    = "sk-proj-Ab3dEf6hIj9kLm2nOp5qRs8tUv1wXy4z"
	openAIOld    = "sk-4f9Kq2LmN8pR3sT6vW1xY5zA7bC0dE2fG4hJ6kL8mN0pQ"
	anthropicKey = "sk-ant-api03-Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa-_x"
	githubPAT    = "ghp_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R"
	githubFine   = "github_pat_11ABCDEFG0abcdefghijkl_MNOPQRSTUVWXYZ0123456789abcdef"
	slackToken   = "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	googleKey    = "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q"
	stripeKey    = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	hfToken      = "hf_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
	gitlabToken  = "glpat-x1Y2z3A4b5C6d7E8f9G0"
	awsKeyID     = "AKIAIOSFODNN7EXAMPLE"
	awsSecret    = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	jwt          = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	pemKey       = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MaEXAMPLE\nq8yJvYXBz0WsgxT6kFJD1gHb3eDJeY5yfZkgZkB1ZBExAmPlE\n-----END RSA PRIVATE KEY-----"
)

func TestStringMasksEveryKind(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"OpenAI project key", "export OPENAI=" + openAIKey + " now", "export OPENAI=[API_KEY_1] now"},
		{"OpenAI legacy key", "key " + openAIOld, "key [API_KEY_1]"},
		{"Anthropic key", "using " + anthropicKey + ".", "using [API_KEY_1]."},
		{"GitHub classic token", "git clone https://" + githubPAT + "@github.com/x/y", "git clone https://[API_KEY_1]@github.com/x/y"},
		{"GitHub fine-grained token", "token is " + githubFine, "token is [API_KEY_1]"},
		{"Slack token", "SLACK=" + slackToken, "SLACK=[API_KEY_1]"},
		{"Google key", "?key=" + googleKey + "&q=1", "?key=[API_KEY_1]&q=1"},
		{"Stripe live key", "stripe " + stripeKey, "stripe [API_KEY_1]"},
		{"HuggingFace token", "HF " + hfToken, "HF [API_KEY_1]"},
		{"GitLab token", "glab " + gitlabToken, "glab [API_KEY_1]"},
		{"AWS access key id", "id=" + awsKeyID, "id=[API_KEY_1]"},
		{"AWS secret in ini", "aws_secret_access_key = " + awsSecret, "aws_secret_access_key = [SECRET_1]"},
		{"AWS secret in JSON", `{"AWS_SECRET_ACCESS_KEY": "` + awsSecret + `"}`, `{"AWS_SECRET_ACCESS_KEY": "[SECRET_1]"}`},
		{"JWT", "cookie " + jwt + ";", "cookie [TOKEN_1];"},
		{"Bearer token", "Authorization: Bearer abcDEF123456ghiJKL789", "Authorization: Bearer [TOKEN_1]"},
		{"Basic auth", "Authorization: Basic dXNlcjpwYXNzd29yZA==", "Authorization: Basic [TOKEN_1]"},
		{"PEM block", "key:\n" + pemKey + "\nend", "key:\n[PRIVATE_KEY_1]\nend"},
		{"PEM block cut short", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA", "[PRIVATE_KEY_1]"},
		{"URL password", "postgres://admin:s3cr3t!@db.internal:5432/app", "postgres://admin:[PASSWORD_1]@db.internal:5432/app"},
		{"URL password with at sign", "redis://:p@ss@cache:6379", "redis://:[PASSWORD_1]@cache:6379"},
		{"connection string", "Server=db;User Id=sa;Password=Hunter2!;Encrypt=true", "Server=db;User Id=sa;Password=[PASSWORD_1];Encrypt=true"},
		{"pwd in connection string", "Driver={x};Uid=me;Pwd=letmein;", "Driver={x};Uid=me;Pwd=[PASSWORD_1];"},
		{"password in JSON", `{"password": "correct horse"}`, `{"password": "[PASSWORD_1]"}`},
		{"prefixed password key", "DB_PASSWORD=hunter2", "DB_PASSWORD=[PASSWORD_1]"},
		{"api_key assignment", "api_key=a1b2c3d4e5f6", "api_key=[SECRET_1]"},
		{"token colon", "token: 9f8e7d6c5b4a3210", "token: [SECRET_1]"},
		{"x-api-key header", "X-Api-Key: Q2xhdWRlMTIzNDU2Nzg5", "X-Api-Key: [SECRET_1]"},
		{"client secret", `client_secret='AbCdEfGhIjKlMnOpQrSt'`, `client_secret='[SECRET_1]'`},
		{"e-mail", "write to jane.doe+ops@example.co.uk.", "write to [EMAIL_1]."},
		{"IPv4", "connect to 192.168.10.42:8080 failed", "connect to [IP_1]:8080 failed"},
		{"IPv4 CIDR", "allow 10.0.0.0/8", "allow [IP_1]/8"},
		{"IPv6", "peer 2001:db8:85a3::8a2e:370:7334 down", "peer [IP_1] down"},
		{"IPv6 bracketed", "http://[fe80::1ff:fe23:4567:890a]:80/", "http://[[IP_1]]:80/"},
		{"IPv6 full", "addr 2001:0db8:0000:0000:0000:ff00:0042:8329", "addr [IP_1]"},
		{"phone E.164", "call +14155552671 now", "call [PHONE_1] now"},
		{"phone international spaced", "Tel. +44 20 7946 0958", "Tel. [PHONE_1]"},
		{"phone international with parens", "+1 (415) 555-2671", "[PHONE_1]"},
		{"phone US parens", "ring (415) 555-2671 today", "ring [PHONE_1] today"},
		{"phone US dashes", "415-555-2671", "[PHONE_1]"},
		{"phone US dots", "415.555.2671", "[PHONE_1]"},
		{"phone US toll free", "1-800-555-0199", "[PHONE_1]"},
		{"phone UK national", "020 7946 0958", "[PHONE_1]"},
		{"phone UK mobile", "07700 900123", "[PHONE_1]"},
		{"phone FR national", "01 23 45 67 89", "[PHONE_1]"},
		{"phone 00 prefix", "0049 30 12345678", "[PHONE_1]"},
		{"phone labelled bare digits", "Phone: 4155552671", "Phone: [PHONE_1]"},
		{"phone labelled mobile", "mobile number 06 12 34 56 78", "mobile number [PHONE_1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRedactor(t)
			assert.Equal(t, tt.want, r.String(tt.in))
			assert.NoError(t, r.Err())
		})
	}
}

func TestStringKeeps(t *testing.T) {
	tests := []struct{ name, in string }{
		{"semantic version", "upgraded to 2.4.1 from 2.3.9"},
		{"v-prefixed four-part version", "build v1.2.3.4 is broken"},
		{"version word", "Version 10.0.0.1 released"},
		{"version colon", "version: 1.2.3.4"},
		{"pinned package", "requests==2.31.0.1"},
		{"five-part version", "1.2.3.4.5"},
		{"out-of-range quad", "value 300.1.2.3"},
		{"loopback", "listening on 127.0.0.1:11434"},
		{"unspecified", "bind 0.0.0.0"},
		{"netmask", "netmask 255.255.255.0"},
		{"IPv6 loopback", "[::1]:8080"},
		{"step indices", "Step 12 of 40: see step 3 and [7]"},
		{"year", "In 2024 the answer was 42."},
		{"decimal", "pi is 3.14 and e is 2.718"},
		{"thousands", "1,234 and 1,234,567 items"},
		{"long plain number", "The answer is 5551234567"},
		{"money", "$1,299.99 or €12.50"},
		{"ISO date", "on 2024-01-15 at 10:30:45"},
		{"slash date", "15/01/2024 and 01/15/2024"},
		{"dotted date", "01.02.2024"},
		{"spaced date", "01 02 2024"},
		{"ISBN-13", "ISBN 978-3-16-148410-0"},
		{"ISBN-10", "ISBN 0-306-40615-2"},
		{"bare ISBN", "ISBN 9780306406157"},
		{"UUID", "id 123e4567-e89b-12d3-a456-426614174000"},
		{"commit hash", "commit a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 (e50f3c3)"},
		{"MAC address", "hw 00:1A:2B:3C:4D:5E"},
		{"time", "12:30:45"},
		{"C++ scope", "std::vector and add::dead"},
		{"scikit-learn", "pip install scikit-learn and sk-learn"},
		{"hyphenated sk word", "sk-some-long-hyphenated-identifier-name"},
		{"prose password", "Invalid password: too short"},
		{"prose token", "the token: it expired"},
		{"max tokens", `{"max_tokens": 4096, "total_tokens": 12345678}`},
		{"token count key", "token_count=123456789"},
		{"password env reference", "password=${DB_PASSWORD}"},
		{"masked password", `"password": "********"`},
		{"null secret", `"api_key": null`},
		{"bearer prose", "send a Bearer token in the header"},
		{"at mention", "ping @alice and use @property"},
		{"retina image", "icon@2x.png"},
		{"score", "won +3 and lost -2"},
		{"coordinates", "48.8566, 2.3522"},
		{"scientific", "6.022e23"},
		{"range", "100-200"},
		{"ordinary words", "The Orchestrator asked the WebSurfer to verify the claim."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRedactor(t)
			assert.Equal(t, tt.in, r.String(tt.in))
		})
	}
}

func TestPlaceholdersAreStable(t *testing.T) {
	r := newRedactor(t)
	first := r.String("from a@example.com to b@example.com, cc a@example.com; host 10.1.2.3")
	second := r.String("again b@example.com and 10.1.2.3, new c@example.com")
	assert.Equal(t, "from [EMAIL_1] to [EMAIL_2], cc [EMAIL_1]; host [IP_1]", first)
	assert.Equal(t, "again [EMAIL_2] and [IP_1], new [EMAIL_3]", second)
	assert.Equal(t, map[Kind]int{Email: 3, IP: 1}, r.Masked())

	// A fresh redactor is a fresh run: numbering starts again.
	assert.Equal(t, "[EMAIL_1]", newRedactor(t).String("c@example.com"))
}

func TestKnownSecretMaskedBare(t *testing.T) {
	r := newRedactor(t)
	assert.Equal(t, "password=[PASSWORD_1]", r.String("password=Tr0ub4dor"))
	assert.Equal(t, "I typed [PASSWORD_1] again", r.String("I typed Tr0ub4dor again"))
}

func TestRedactingRedactedTextChangesNothing(t *testing.T) {
	in := strings.Join([]string{
		"mail jane@example.com from 192.168.0.1 or 2001:db8::7",
		"key " + openAIKey + " and password=hunter2; url ftp://u:pw@host/x",
		"call +44 20 7946 0958, token: 9f8e7d6c5b4a3210",
		pemKey,
	}, "\n")
	once := newRedactor(t).String(in)
	require.NotEqual(t, in, once)
	assert.Equal(t, once, newRedactor(t).String(once))
}

func TestPathologicalInputReturnsPromptly(t *testing.T) {
	inputs := map[string]string{
		"long local part":  strings.Repeat("a", 50000) + "@",
		"dotted labels":    "a@" + strings.Repeat("a.", 20000),
		"digits and dots":  strings.Repeat("1.", 30000),
		"colons":           strings.Repeat("a:", 30000),
		"phone groups":     "+1" + strings.Repeat(" 12", 20000),
		"unterminated key": "-----BEGIN PRIVATE KEY-----" + strings.Repeat("A", 100000),
		"assignments":      strings.Repeat("token=token=", 10000),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			r, err := New(Options{})
			require.NoError(t, err)
			out := r.String(in)
			if r.Err() != nil {
				assert.Equal(t, "[WITHHELD_1]", out, "a timeout withholds the text")
			}
		})
	}
}

func TestHints(t *testing.T) {
	assert.True(t, assignedKey("token")(`{"Access_Token" : "x"}`))
	assert.False(t, assignedKey("token")("token_count: 3, the token is here"))
	assert.True(t, emailLike("a@b.co"))
	assert.False(t, emailLike("@alice and x@y and a@b."))
	assert.True(t, ipv6Like("fe80::1"))
	assert.True(t, ipv6Like("2001:db8:1::"))
	assert.False(t, ipv6Like("list:: and a: b and 12:xx:"))
}
