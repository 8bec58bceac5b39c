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
		{"phone US parens unspaced", "ring (415)555-2671 today", "ring [PHONE_1] today"},
		{"phone US dashes", "415-555-2671", "[PHONE_1]"},
		{"phone US dots", "415.555.2671", "[PHONE_1]"},
		{"phone US toll free", "1-800-555-0199", "[PHONE_1]"},
		{"phone UK national", "020 7946 0958", "[PHONE_1]"},
		{"phone UK mobile", "07700 900123", "[PHONE_1]"},
		{"phone FR national", "01 23 45 67 89", "[PHONE_1]"},
		{"phone 00 prefix", "0049 30 12345678", "[PHONE_1]"},
		{"phone labelled bare digits", "Phone: 4155552671", "Phone: [PHONE_1]"},
		{"phone labelled mobile", "mobile number 06 12 34 56 78", "mobile number [PHONE_1]"},
		{"password with punctuation", "Password: Tr0ub4dor&3xyz", "Password: [PASSWORD_1]"},
		{"password with semicolon", "PASSWORD=Sup3r;Secret", "PASSWORD=[PASSWORD_1]"},
		{"password in parentheses", "(password: abc(def)ghi).", "(password: [PASSWORD_1])."},
		{"password after is", "the password is Hunter2!", "the password is [PASSWORD_1]"},
		{"password in query", "/login?user=bob&password=p@ss;w0rd&next=/", "/login?user=bob&password=[PASSWORD_1]&next=/"},
		{"escaped JSON key", `{\"api_key\": \"a1b2c3d4e5f6\", \"n\": 1}`, `{\"api_key\": \"[SECRET_1]\", \"n\": 1}`},
		{"double-escaped JSON key", `{\\\"password\\\": \\\"hunter2\\\"}`, `{\\\"password\\\": \\\"[PASSWORD_1]\\\"}`},
		{"escaped quote in value", `{"password": "a\"b c"}`, `{"password": "[PASSWORD_1]"}`},
		{"bare password in escaped text", `\"cmd\": \"mysql --password=Hunter2!\"`, `\"cmd\": \"mysql --password=[PASSWORD_1]\"`},
		{"PIN", "PIN: 4821", "PIN: [PASSWORD_1]"},
		{"card spaced", "card 4111 1111 1111 1111 ok", "card [CARD_1] ok"},
		{"card dashed", "5500-0000-0000-0004", "[CARD_1]"},
		{"card bare", "4012888888881881.", "[CARD_1]."},
		{"card then expiry", "4242 4242 4242 4242 12/27", "[CARD_1] 12/27"},
		{"two cards", "4111 1111 1111 1111 5500 0000 0000 0004", "[CARD_1] [CARD_2]"},
		{"card in CJK text", "卡号4111111111111111。", "卡号[CARD_1]。"},
		{"IBAN grouped", "IBAN GB82 WEST 1234 5698 7654 32, thanks", "IBAN [IBAN_1], thanks"},
		{"IBAN lower case", "iban de89 3704 0044 0532 0130 00", "iban [IBAN_1]"},
		{"IBANs in a row", "NL91ABNA0417164300 CH9300762011623852957", "[IBAN_1] [IBAN_2]"},
		{"key glued to an id's prefix", "span-" + githubPAT, "span-[API_KEY_1]"},
		{"key after an underscore", "id_" + stripeKey, "id_[API_KEY_1]"},
		{"passport number again bare", "Agent X1234567 gave passport number X1234567", "Agent [PASSPORT_1] gave passport number [PASSPORT_1]"},
		{"SSN again bare", "SSN: 219099999; on file 219099999", "SSN: [SSN_1]; on file [SSN_1]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newRedactor(t)
			assert.Equal(t, tt.want, r.String(tt.in))
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
		"Password: Tr0ub4dor&3xyz; card 4111 1111 1111 1111 12/25, IBAN GB82 WEST 1234 5698 7654 32",
		`{\"api_key\": \"a1b2c3d4e5f6\", \"pin\": \"4821\"}`,
		pemKey,
	}, "\n")
	once := newRedactor(t).String(in)
	require.NotEqual(t, in, once)
	assert.Equal(t, once, newRedactor(t).String(once))
}

func TestPathologicalInputReturnsPromptly(t *testing.T) {
	inputs := map[string]string{
		"long local part":       strings.Repeat("a", 50000) + "@",
		"dotted labels":         "a@" + strings.Repeat("a.", 20000),
		"digits and dots":       strings.Repeat("1.", 30000),
		"colons":                strings.Repeat("a:", 30000),
		"phone groups":          "+1" + strings.Repeat(" 12", 20000),
		"unterminated key":      "-----BEGIN PRIVATE KEY-----" + strings.Repeat("A", 100000),
		"assignments":           strings.Repeat("token=token=", 10000),
		"password values":       "password=" + strings.Repeat(`a\\b;c&d=`, 20000),
		"quoted backslashes":    `password: "` + strings.Repeat(`\\`, 50000),
		"escaped quotes":        `{\"password\": \"` + strings.Repeat(`\\\"`, 20000),
		"labels":                strings.Repeat("password is pass: pwd= ", 5000),
		"digit groups":          strings.Repeat("4111 ", 30000),
		"IBAN starts":           strings.Repeat("GB82 ", 30000),
		"PIN labels":            strings.Repeat("PIN 12 ", 20000),
		"at signs":              strings.Repeat("a.b@", 30000),
		"percent escapes":       strings.Repeat("a%40b%3D", 20000),
		"JSON escapes":          strings.Repeat(`x\u0040y\/`, 20000),
		"escaped labels":        strings.Repeat("password%3D", 10000),
		"escaped addresses":     strings.Repeat("x%40example.com ", 20000),
		"groups of three":       strings.Repeat("046 454 ", 20000),
		"bracketed ats":         strings.Repeat("a [at] b [dot] ", 10000),
		"word ats":              strings.Repeat("a at b dot ", 10000),
		"JSON key quotes":       strings.Repeat(`\"d\": \"`, 10000),
		"PuTTY lines":           "Private-Lines: 9\n" + strings.Repeat("QUFB\n", 30000),
		"query keys":            strings.Repeat("?key=&auth=", 20000),
		"authorization headers": strings.Repeat("Authorization: x ", 20000),
		"dotted digit groups":   strings.Repeat("4111.", 30000),
		"Azure secret starts":   strings.Repeat("abc8Q~", 20000),
		"base64 credentials":    strings.Repeat("YWRtaW46aHVudGVyMg", 5000),
	}
	for name, in := range inputs {
		t.Run(name, func(t *testing.T) {
			r, err := New(Options{})
			require.NoError(t, err)
			once := r.String(in)
			assert.Equal(t, once, r.String(once), "what is masked stays masked, and nothing more is")
		})
	}
}

// A search that passes over where its rule would mask something is a leak.
func TestSearchesMissNothingPlanted(t *testing.T) {
	p, err := Compile(Options{})
	require.NoError(t, err)
	for _, s := range plantedSecrets {
		checkSearch(t, p, s.text())
	}
}

// addFree keeps what an earlier rule found and adds only what overlaps
// none of it, in order.
func TestAddFree(t *testing.T) {
	h := func(start, end int) hit { return hit{span: span{start, end}} }
	tests := []struct {
		name              string
		held, found, want []hit
	}{
		{"none held", nil, []hit{h(1, 3), h(5, 8)}, []hit{h(1, 3), h(5, 8)}},
		{"between", []hit{h(0, 2), h(10, 12)}, []hit{h(4, 6)}, []hit{h(0, 2), h(4, 6), h(10, 12)}},
		{"overlapping the one before", []hit{h(0, 5)}, []hit{h(4, 6)}, []hit{h(0, 5)}},
		{"overlapping the one after", []hit{h(5, 9)}, []hit{h(2, 6)}, []hit{h(5, 9)}},
		{"same start", []hit{h(3, 4)}, []hit{h(3, 9)}, []hit{h(3, 4)}},
		{"touching", []hit{h(0, 3), h(6, 9)}, []hit{h(3, 6)}, []hit{h(0, 3), h(3, 6), h(6, 9)}},
		{"after all", []hit{h(0, 1)}, []hit{h(2, 3), h(4, 5)}, []hit{h(0, 1), h(2, 3), h(4, 5)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, addFree(tt.held, tt.found))
		})
	}
}
