package redact

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"github.com/dlclark/regexp2"
)

// rule is one compiled pattern and what its matches become.
type rule struct {
	name string
	kind Kind
	re   *regexp2.Regexp
	// hint is a cheap test that the pattern may match at all; nil means
	// always run. Most texts hold no secrets, so this is where time goes.
	hint func(string) bool
	// keep vets a match; value is what would be masked (the "secret"
	// group, or the whole match). Nil keeps every match.
	keep func(m *regexp2.Match, value string) bool
}

func (r *rule) mayMatch(text string) bool {
	return r.hint == nil || r.hint(text)
}

// contains is a hint: text holds one of subs.
func contains(subs ...string) func(string) bool {
	return func(text string) bool {
		for _, s := range subs {
			if strings.Contains(text, s) {
				return true
			}
		}
		return false
	}
}

// containsFold is contains ignoring ASCII case; subs are lower-case.
func containsFold(subs ...string) func(string) bool {
	return func(text string) bool {
		return contains(subs...)(strings.ToLower(text))
	}
}

// re2 is a hint: text matches a looser RE2 pattern. Go's regexp runs in
// linear time without backtracking, so it cheaply rules out the texts
// where the exact regexp2 pattern (lookarounds, backreferences) cannot
// match; in a typical step that is every pattern.
func re2(expr string) func(string) bool {
	re := regexp.MustCompile(expr) // constant patterns, checked by tests
	return re.MatchString
}

// providerPrefixes are the literal starts of providerKeys: a text without
// any of them cannot hold a provider key.
var providerPrefixes = []string{"sk-", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "xox", "AIza",
	"sk_", "rk_", "whsec_", "hf_", "glpat-", "npm_", "SG.", "gsk_", "xai-", "pypi-", "dop_v1_",
	"AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA", "ANVA", "AROA", "APKA", "ASCA"}

// Boundaries shared by token-like patterns: a key is not part of a longer
// identifier on either side.
const (
	tokL = `(?<![A-Za-z0-9_-])`
	tokR = `(?![A-Za-z0-9_-])`
)

// providerKeys are API keys recognised by their prefix alone.
var providerKeys = []string{
	`sk-ant-(?:api\d\d-|admin\d\d-)?[A-Za-z0-9_-]{20,}`,
	// OpenAI: require a digit so hyphenated words after "sk-" stay.
	`sk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}`,
	`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}`,
	`github_pat_[A-Za-z0-9_]{22,}`,
	`xox[abposr]-[A-Za-z0-9-]{10,}`,
	`AIza[0-9A-Za-z_-]{35,}`,
	`(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}`,
	`whsec_[0-9A-Za-z]{20,}`,
	`hf_[A-Za-z0-9]{30,}`,
	`glpat-[A-Za-z0-9_-]{20,}`,
	`npm_[A-Za-z0-9]{36,}`,
	`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`,
	`gsk_[A-Za-z0-9]{40,}`,
	`xai-[A-Za-z0-9]{40,}`,
	`pypi-[A-Za-z0-9_-]{50,}`,
	`dop_v1_[a-f0-9]{64}`,
	// AWS access key ids.
	`(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}`,
}

// Key names whose values are secrets. A key may carry a prefix
// (db_password, x-api-key, aws_secret_access_key) but must end in one of
// these, so token_count and max_tokens are not keys. The pattern starts at
// the key word itself, not at the prefix, so regexp2 can skip ahead to its
// first letters instead of trying every position.
const (
	passwordKey = `(?<![A-Za-z0-9])(?i:password|passwd|passphrase|pwd)`
	secretKey   = `(?<![A-Za-z0-9])(?i:api[_-]?key|apikey|secret[_-]?key|access[_-]?key|private[_-]?key|signing[_-]?key|secret|token)`
	// assign is the separator, with the optional closing quote of a JSON key.
	assign = `["']?\s*(?<sep>=>|[:=])\s*`
	// value is quoted or bare; the quote, if any, is kept out of "secret".
	value = `(?:"(?<secret>[^"\r\n]+)"|'(?<secret>[^'\r\n]+)'|(?<q>)(?<secret>[^\s,;"'&<>(){}\[\]]+))`
)

// ipv4 is a dotted quad in range, not inside a longer dotted number and
// not right after a version marker.
const ipv4 = `(?<![A-Za-z0-9_.])(?<!(?i:\b(?:v|ver|version|release|rel|build|firmware|driver|python|go|node))\.?:?\s{0,2})(?<!==|~=|>=|<=)` +
	`(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?![A-Za-z0-9_]|\.[0-9])`

// ipv6 finds candidates; keepIPv6 decides with net/netip.
const ipv6 = `(?<![A-Za-z0-9_:.])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]{1,4})?(?![A-Za-z0-9_:]|\.[0-9])`

const email = `(?<![A-Za-z0-9._%+-])[A-Za-z0-9_%+-](?:[A-Za-z0-9._%+-]{0,62}[A-Za-z0-9_%+-])?@(?:[A-Za-z0-9-]+\.)+` +
	`(?!(?i:png|jpe?g|gif|svg|webp|ico|pdf)\b)[A-Za-z]{2,24}(?![A-Za-z0-9@-]|\.[A-Za-z0-9])`

// Phone numbers. A phone is recognised by its shape (separators, + or a
// trunk 0) or its label, never from a bare run of digits: those are answers.
const (
	phoneEnd   = `(?![A-Za-z0-9_]|[.-][0-9])`
	phoneLabel = `(?<![A-Za-z])(?i:phone|tel|telephone|mobile|cell|fax|whatsapp)(?:\s*(?i:no\.?|number|#))?\s*[:.]?\s*` +
		`(?<secret>\+?\(?[0-9][0-9 .()-]{5,22}[0-9])` + phoneEnd
	phoneIntl  = `(?<![A-Za-z0-9_+])\+[0-9]{1,3}(?:[ .-]?\(?(?>[0-9]{1,5})\)?){1,6}` + phoneEnd
	phoneNANP  = `(?<![A-Za-z0-9_+.-])(?:1[ .-]?)?(?:\([2-9][0-9]{2}\)[ ]?[2-9][0-9]{2}[-. ]|[2-9][0-9]{2}(?<s>[-. ])[2-9][0-9]{2}\k<s>)[0-9]{4}` + phoneEnd
	phoneTrunk = `(?<![A-Za-z0-9_+.-])0[0-9]{1,4}(?:[ -](?>[0-9]{2,8})){1,4}` + phoneEnd
)

type spec struct {
	name string
	kind Kind
	expr string
	hint func(string) bool
	keep func(*regexp2.Match, string) bool
}

// specs lists the built-in rules in the order they run: containers first
// (a key block, a URL password, an assigned value), so their whole value is
// masked before finer rules could pick pieces out of it.
var specs = []spec{
	{name: "private key block", kind: PrivateKey, hint: contains("PRIVATE KEY"),
		expr: `-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\z)`},
	{name: "JWT", kind: Token, hint: contains("eyJ"),
		expr: tokL + `eyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*` + tokR},
	{name: "provider API key", kind: APIKey, hint: contains(providerPrefixes...),
		expr: tokL + `(?:` + strings.Join(providerKeys, "|") + `)` + tokR},
	{name: "AWS secret key", kind: Secret, hint: containsFold("aws"),
		expr: `(?i:aws_?secret_?(?:access_?)?key|aws_?session_?token)["']?\s*[:=]\s*["']?(?<secret>[A-Za-z0-9/+=]{40,})(?![A-Za-z0-9/+=])`},
	{name: "bearer token", kind: Token, hint: containsFold("bearer"),
		expr: `(?<![A-Za-z0-9])(?i:bearer)\s+(?<secret>(?=[A-Za-z0-9._~+/-]*[0-9])[A-Za-z0-9._~+/-]{16,}=*)`},
	{name: "basic auth", kind: Token, hint: containsFold("basic"),
		expr: `(?i:authorization)["']?\s*[:=]\s*["']?(?i:basic)\s+(?<secret>[A-Za-z0-9+/]{8,}=*)`},
	{name: "URL password", kind: Password, hint: re2(`://[^\s:/?#@]*:[^\s/?#]*@`),
		expr: `(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20}://[^\s:/?#@\[\]"'<>]*:(?<secret>[^\s/?#"'<>]+)@(?=[A-Za-z0-9\[])`},
	{name: "password assignment", kind: Password, hint: assignedKey("password", "passwd", "passphrase", "pwd"),
		expr: passwordKey + assign + value, keep: keepPassword},
	{name: "secret assignment", kind: Secret, hint: assignedKey("key", "secret", "token"),
		expr: secretKey + assign + value, keep: keepSecret},
	{name: "e-mail address", kind: Email, hint: emailLike, expr: email},
	{name: "IPv6 address", kind: IP, hint: ipv6Like, expr: ipv6, keep: keepIPv6},
	{name: "IPv4 address", kind: IP, hint: re2(`[0-9]\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]`), expr: ipv4, keep: keepIPv4},
	{name: "labelled phone number", kind: Phone,
		hint: containsFold("phone", "tel", "mobile", "cell", "fax", "whatsapp"),
		expr: phoneLabel, keep: digitsBetween(7, 15)},
	{name: "international phone number", kind: Phone, hint: re2(`\+[0-9]{1,3}[ .(-]{0,2}[0-9]`), expr: phoneIntl, keep: digitsBetween(8, 15)},
	{name: "North American phone number", kind: Phone, hint: re2(`[0-9]{3}\)?[-. ]{1,2}[0-9]{3}[-. ][0-9]{4}`), expr: phoneNANP},
	{name: "national phone number", kind: Phone, hint: re2(`0[0-9]{1,4}[ -][0-9]{2}`), expr: phoneTrunk, keep: keepTrunkPhone},
}

// builtins compiles specs with the given timeout. Patterns are constants,
// so an error here is a bug, but it is reported rather than panicking.
func builtins(timeout time.Duration) ([]*rule, error) {
	out := make([]*rule, 0, len(specs))
	for _, s := range specs {
		re, err := regexp2.Compile(s.expr, regexp2.None)
		if err != nil {
			return nil, fmt.Errorf("redact: built-in %s pattern: %w", s.name, err)
		}
		re.MatchTimeout = timeout
		out = append(out, &rule{name: s.name, kind: s.kind, re: re, hint: s.hint, keep: s.keep})
	}
	return out, nil
}
