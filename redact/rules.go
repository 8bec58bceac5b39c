package redact

import (
	"fmt"
	"slices"
	"strings"

	"github.com/offattr/offattr/internal/match"
)

// rule is one compiled pattern, or one scanner, and what its matches become.
type rule struct {
	name string
	kind Kind
	re   *match.Pattern
	// find replaces re for numbers with a check digit: it returns the spans
	// to mask, already checked.
	find func(runes []rune) []span
	// findHits replaces re for a rule that reads text it decodes: each hit
	// carries the kind and value another rule found in the decoded text.
	findHits func(runes []rune) []hit
	// scans is a scanner's cheap test that the text may hold what it
	// finds; nil means always run. A pattern needs none: internal/match
	// reads from the pattern where it can match.
	scans func(text string) bool
	// cut shortens the value (the "secret" group, or the whole match) to
	// what is to be masked, a prefix of it; nil keeps it whole.
	cut func(m found, value string) string
	// keep vets a match; nil keeps every match.
	keep func(m found, value string) bool
	// learn says whether a value is also masked where it reappears bare;
	// nil leaves it to the kind.
	learn func(m found, value string) bool
}

func (r *rule) mayMatch(t *match.Text) bool {
	return r.scans == nil || r.scans(t.String())
}

// found is a match of a rule's pattern in the runes of the text it was
// found in, off their byte offsets.
type found struct {
	m     match.Match
	runes []rune
	off   []int
}

// runeSpan is g in rune indices.
func (f found) runeSpan(g match.Span) span {
	start, _ := slices.BinarySearch(f.off, g.Start)
	end, _ := slices.BinarySearch(f.off, g.End)
	return span{start, end}
}

// group returns the text of the group called name, and whether it took
// part in the match.
func (f found) group(name string) (string, bool) {
	g := f.m.Group(name)
	if !g.OK {
		return "", false
	}
	sp := f.runeSpan(g)
	return string(f.runes[sp.start:sp.end]), true
}

// str returns the text of the group called name, "" if it did not take part.
func (f found) str(name string) string {
	s, _ := f.group(name)
	return s
}

// Boundaries shared by token-like patterns: a key is not part of a longer
// word on either side. Before it a dash or an underscore may stand: an id
// is sometimes made of a key and a prefix (span-ghp_…, id_sk_live_…).
const (
	tokL = `(?<![A-Za-z0-9])`
	tokR = `(?![A-Za-z0-9_-])`
)

// providerKeys are API keys recognised by their prefix alone.
var providerKeys = []string{
	`sk-ant-(?:api\d\d-|admin\d\d-)?[A-Za-z0-9_-]{20,}`,
	// OpenAI (and Langfuse sk-lf-): require a digit so hyphenated words
	// after "sk-" stay.
	`sk-(?:proj-|svcacct-|admin-|None-)?(?=[A-Za-z0-9_-]*[0-9])[A-Za-z0-9_-]{20,}`,
	`(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{30,}`,
	`github_pat_[A-Za-z0-9_]{22,}`,
	`xox[abposre]-[A-Za-z0-9-]{10,}`,
	`xapp-[0-9]-[A-Za-z0-9-]{10,}`,
	// Google: API keys, OAuth access tokens, OAuth client secrets.
	`AIza[0-9A-Za-z_-]{35,}`,
	`ya29\.[0-9A-Za-z_-]{20,}`,
	`GOCSPX-[A-Za-z0-9_-]{20,}`,
	`(?:sk|rk)_(?:live|test)_[0-9A-Za-z]{10,}`,
	`whsec_[0-9A-Za-z]{20,}`,
	`hf_[A-Za-z0-9]{30,}`,
	`gl(?:pat|dt|rt|cbt|ptt|ft|imt|oas|soat)-[A-Za-z0-9_-]{20,}`,
	`glsa_[A-Za-z0-9_]{32,}`,
	`npm_[A-Za-z0-9]{36,}`,
	`SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}`,
	`gsk_[A-Za-z0-9]{40,}`,
	`xai-[A-Za-z0-9]{40,}`,
	`pypi-[A-Za-z0-9_-]{50,}`,
	`do[opr]_v1_[a-f0-9]{64}`,
	`pplx-[A-Za-z0-9]{40,}`,
	`r8_[A-Za-z0-9]{30,}`,
	`lsv2_(?:pt|sk)_[A-Za-z0-9_]{30,}`,
	`pcsk_[A-Za-z0-9_]{30,}`,
	`shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`,
	`dapi[a-f0-9]{32}`,
	// Twilio API keys and Mailgun keys: a prefix and 32 hex digits, which
	// also end longer names (cache-key-<md5>), so no dash or underscore
	// may precede them.
	`(?<![_-])SK[0-9a-fA-F]{32}`,
	`(?<![_-])key-[0-9a-f]{32}`,
	`ATATT3[A-Za-z0-9_=-]{30,}`,
	`lin_api_[A-Za-z0-9]{40,}`,
	`(?:secret|ntn)_[A-Za-z0-9]{40,}`,
	`hv[sb]\.[A-Za-z0-9_-]{24,}`,
	`figd_[A-Za-z0-9_-]{30,}`,
	`sntry[su]_[A-Za-z0-9+/=_-]{30,}`,
	`AGE-SECRET-KEY-1[0-9A-Z]{58}`,
	`sq0(?:atp|csp)-[0-9A-Za-z_-]{22,}`,
	`PMAK-[a-f0-9]{24}-[a-f0-9]{34}`,
	`dp\.(?:st|sa|ct|pt)\.[A-Za-z0-9_-]{30,}`,
	`EAA[A-Za-z0-9]{80,}`,
	`fw_[A-Za-z0-9]{20,}`,
	// AWS session tokens, whose base64 starts with the same bytes.
	`(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9/+=]{40,}`,
	// AWS access key ids.
	`(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA)[A-Z0-9]{16}`,
}

// otherPasswords are the word for a password in other languages: Spanish,
// French, Portuguese, Dutch, Polish, Czech, Swedish, Norwegian, Danish,
// Finnish, Turkish, Hungarian, Russian and Ukrainian, Greek, Chinese,
// Japanese, Korean, Vietnamese. Their rule's match starts at the word,
// which the matcher looks for, rather than in a look-behind tried at every
// separator as the English labels are: they are rare in logs.
const otherPasswords = `contrase[nñ]a|mot[ _-]?de[ _-]?passe|senha|wachtwoord|has[lł]o|heslo|l[öo]senord|passord|adgangskode|` +
	`salasana|[şs]ifre|jelsz[óo]|пароль|парол[ья]|κωδικός|密码|密碼|パスワード|비밀번호|m[ậa]t[ _]?kh[ẩa]u`

// Labels whose values are secrets, and how a value is assigned to them.
const (
	// passwordKey: the long labels may end a longer key (dbPassword,
	// MYSQL_ROOT_PASSWORD); the short ones (pass, pwd, pw) must start a
	// word, so "bypass" and "compass" are no labels.
	passwordKey = `(?<key>(?i:password|pass[ _-]word|passwd|passwort|kennwort|passphrase|pass[ _-]phrase|passcode|pass[ _-]code)` +
		`|(?<![A-Za-z0-9])(?i:pass|pwd|pw))`
	// secretKey: API keys and secrets, which also end a longer key
	// (openaiApiKey, client_secret, aws_access_key); "token" too, but only a
	// key-like value counts after it (max_tokens and "the token: it" stay).
	secretKey = `(?<key>(?i:api[._ -]?key|apikey|subscription[_ -]?key|secret[_ -]?key|access[_ -]?key|account[_ -]?key|private[_ -]?key(?:[_ -]?id)?|` +
		`signing[_ -]?key|encryption[_ -]?key|master[_ -]?key|client[_ -]?secret|secret|token))`
	// value is quoted or bare; the quotes are kept out of "secret".
	//
	// Quoted, the value runs to the matching quote preceded by as many
	// backslashes as the opening one, so a value inside escaped JSON
	// (\"…\" or \\\"…\\\") ends where it should and an escaped quote
	// inside it does not end it. A quote with no proper match takes the
	// value to the next space or quote.
	//
	// Bare, the value is anything up to white space or a quote: passwords
	// hold & ; ( ) and the like. It stops only where a connection string
	// or a query goes on to its next key (";Encrypt=true", "&user=x"), and
	// before an escaped quote or line end (\" \n) in escaped text. A run of
	// backslashes is atomic: the look-ahead after it already refuses to
	// give any back, and so the pattern's shape says so (match.Bounded).
	value = `(?:(?<bs>\\*)(?<qc>["'])(?<secret>(?:[^"'\\\r\n]|(?!\k<qc>)["']|\\.)+?)(?<!\\)\k<bs>\k<qc>` +
		`|\\*["'](?<secret>[^\s"']+)` +
		`|(?<q>)(?<secret>[^\s"'\\;&,{\[](?:[^\s"'\\;&,]|[;&,](?![ \t]*[A-Za-z_][A-Za-z0-9_ .-]{0,30}=)|(?>\\+)(?![\\"'nrt]))*))`
	// setTo and said are the separators: after the optional closing quote
	// of a JSON key, escaped or not (\"api_key\": …), one of = : => := or
	// the word "is" or "was".
	setTo = `(?<sep>=>|:=|[:=])`
	// wideSetTo is setTo with the full-width colon, as Chinese and
	// Japanese text writes one, for the labels of other languages.
	wideSetTo = `(?<sep>=>|:=|[:=：])`
	said      = `(?<=[ \t])(?<sep>(?i:is|was))(?![A-Za-z0-9]):?`
	// pin is a PIN after its label, with or without a separator.
	// flagKey is a command-line flag whose value is a secret: one or two
	// dashes, perhaps words joined by dashes or underscores (--db-password),
	// and a label; the value follows after blanks. The match starts at the
	// dash, rarer than the blank before a value.
	flagKey = `(?<![A-Za-z0-9_-])--?(?:[A-Za-z0-9]+[-_.])*(?<key>` + `(?i:password|passwd|passphrase|passcode|pass|pwd|pw)` +
		`|(?i:api[_-]?key|apikey|secret[_-]?key|access[_-]?key|client[_-]?secret|secret|token))`
	pin = `(?<![A-Za-z0-9])(?i:pin)(?:[ _-]?(?i:code|number|no\.?))?(?:\\*["'])?` +
		`(?:[ \t]*(?:[:=#]|(?i:is|was)(?![A-Za-z0-9]))|[ \t])[ \t]*(?:\\*["'])?` +
		`(?<secret>[0-9]{4,12})(?![0-9A-Za-z_]|[.,][0-9])`
)

// cardCode is a card's security code after its label (CVV, CVC, CSC).
const cardCode = `(?<![A-Za-z0-9])(?i:cvv2?|cvc2?|csc|card[ _-]?security[ _-]?code)` + labelSep + `(?<secret>[0-9]{3,4})(?![0-9A-Za-z_]|[.,][0-9])`

// assigned is a value given to a label. The match starts at the
// separator and the label is a lookbehind: regexp2 tries every position
// where a match could start, and separators are far rarer than the first
// letters of the labels. The lookbehind captures the label as "key".
func assigned(key, sep string) string {
	return `(?<=` + key + `(?:\\*["'])?[ \t]*)` + sep + `[ \t]*` + value
}

// ipv4 is a dotted quad in range, not inside a longer dotted number and
// not right after a version marker. Here and in ipv6 an IP placeholder
// counts as the address it replaced, which ended in a digit or a colon.
const ipv4 = `(?<![A-Za-z0-9_.]|\[IP_[0-9]+\])(?<!(?i:\b(?:v|ver|version|release|rel|build|firmware|driver|python|go|node))\.?:?\s{0,2})(?<!==|~=|>=|<=)` +
	`(?:(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])\.){3}(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])(?![A-Za-z0-9_]|\.[0-9])`

// ipv6 finds candidates; keepIPv6 decides with net/netip.
const ipv6 = `(?<![A-Za-z0-9_:.]|\[IP_[0-9]+\])(?:[0-9A-Fa-f]{0,4}:){2,7}(?:(?:[0-9]{1,3}\.){3}[0-9]{1,3}|[0-9A-Fa-f]{1,4})?(?![A-Za-z0-9_:]|\.[0-9])`

// email starts at the '@' and takes the local part in a lookbehind, as
// "lead", for the same reason as assigned: '@' is rare, letters are not.
// A last label that is a file's extension, not a top-level domain, is left
// out: the address in frank@example.com.json is frank@example.com.
const email = `(?<=(?<![\p{L}\p{N}._%+-])(?<lead>[\p{L}\p{N}_%+-](?:[\p{L}\p{N}._%+-]{0,62}[\p{L}\p{N}_%+-])?))` +
	`@(?:[\p{L}\p{N}-]+\.)+(?!(?i:png|jpe?g|gif|svg|webp|ico|pdf|` + fileExts + `)\b)[A-Za-z]{2,24}(?![A-Za-z0-9@-]|\.(?!(?i:` + fileExts + `)\b)[A-Za-z0-9])`

// obfuscatedEmail is an address written to dodge harvesters: "jane [at]
// example [dot] com", "jane(at)example.com", "jane AT example DOT com".
// The match starts at the "at", the local part being a lookbehind as in
// email. A bracketed "at" takes dots of any kind after it; a bare "at" or
// "AT" is an address only with a bare "dot" or "DOT" of the same case and a
// common top-level domain after it, so that English ("look at it dot by
// dot", "the dot com bubble") stays.
const obfuscatedEmail = `(?<=(?<![\p{L}\p{N}._%+-])(?<lead>[\p{L}\p{N}_%+-](?:[\p{L}\p{N}._%+-]{0,62}[\p{L}\p{N}_%+-])?)[ \t]{0,3})` +
	`(?:[\[({<][ \t]{0,3}(?i:at)[ \t]{0,3}[\])}>][ \t]{0,3}(?:[\p{L}\p{N}-]+` + anyDot + `){1,6}[A-Za-z]{2,24}(?![A-Za-z0-9@-]|` + anyDot + `[A-Za-z0-9])` +
	`|(?<=[ \t])AT[ \t]+(?!` + determiners + `)(?:[\p{L}\p{N}-]+[ \t]+DOT[ \t]+){1,4}(?i:` + commonTLDs + `)(?![A-Za-z0-9@.-])` +
	`|(?<=[ \t])at[ \t]+(?!` + determiners + `)(?:[\p{L}\p{N}-]+[ \t]+dot[ \t]+){1,4}(?i:` + commonTLDs + `)(?![A-Za-z0-9@.-]))`

// determiners start English phrases that read like an obfuscated
// address: "at the dot com bubble", "at this dot".
const determiners = `(?i:the|a|an|this|that|these|those|it|its|his|her|our|their|my|your|one|some|any|each|every|no)[ \t]`

// obfuscatedLike is obfuscatedEmail's cheap test: "at" in brackets, or
// "dot" or "DOT" between blanks.
func obfuscatedLike(text string) bool {
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '[', '(', '{', '<':
			j := i + 1
			for j < len(text) && j-i <= 4 && (text[j] == ' ' || text[j] == '\t') {
				j++
			}
			if j+1 < len(text) && (text[j]|0x20) == 'a' && (text[j+1]|0x20) == 't' {
				return true
			}
		case 'd', 'D':
			if i > 0 && i+3 < len(text) && (text[i-1] == ' ' || text[i-1] == '\t') && (text[i+3] == ' ' || text[i+3] == '\t') &&
				(text[i:i+3] == "dot" || text[i:i+3] == "DOT") {
				return true
			}
		}
	}
	return false
}

// anyDot is the dot of an obfuscated address: a dot, or "dot" in brackets
// or between blanks.
const anyDot = `(?:\.|[ \t]{0,3}[\[({<][ \t]{0,3}(?i:dot)[ \t]{0,3}[\])}>][ \t]{0,3}|[ \t]+(?:DOT|dot)[ \t]+)`

// commonTLDs are the top-level domains an address written with bare
// words is taken to end in.
const commonTLDs = `com|org|net|edu|gov|mil|int|info|biz|io|ai|co|me|dev|app|uk|us|ca|de|fr|es|it|nl|be|ch|at|se|no|dk|fi|pl|ru|ua|cn|jp|kr|in|br|mx|ar|au|nz|za`

// fileExts are the extensions of the files offattr reads and writes, none
// a top-level domain.
const fileExts = `json|jsonl|ndjson|csv|txt|log|ya?ml|xml|html?|gz`

// Phone numbers. A phone is recognised by its shape (separators, + or a
// trunk 0) or its label, never from a bare run of digits: those are answers.
// Nor does one start inside a longer run of digit groups, such as a
// tracking number ("9400 1000 0000 0000 0000 00"). A phone placeholder
// counts as the digits it replaced: redacting the output again must see
// the context the first pass saw.
const (
	phoneEnd   = `(?![A-Za-z0-9_]|[.-][0-9])`
	phoneLabel = `(?<![A-Za-z])(?i:phone|tel|telephone|mobile|cell|fax|whatsapp)(?:\s*(?i:no\.?|number|#))?\s*[:.]?\s*` +
		`(?<secret>\+?\(?[0-9][0-9 .()-]{5,22}[0-9])` + phoneEnd
	phoneIntl  = `(?<![A-Za-z0-9_+]|\[PHONE_[0-9]+\])\+[0-9]{1,3}(?:[ .-]?\(?(?>[0-9]{1,5})\)?){1,6}` + phoneEnd
	phoneNANP  = `(?<![A-Za-z0-9_+.-]|(?:[0-9]|\[PHONE_[0-9]+\])[ -])(?:1[ .-]?)?(?:\([2-9][0-9]{2}\)[ ]?[2-9][0-9]{2}[-. ]|[2-9][0-9]{2}(?<s>[-. ])[2-9][0-9]{2}\k<s>)[0-9]{4}` + phoneEnd
	phoneTrunk = `(?<![A-Za-z0-9_+.-]|(?:[0-9]|\[PHONE_[0-9]+\])[ -])0[0-9]{1,4}(?:[ -](?>[0-9]{2,8})){1,4}` + phoneEnd
)

// Identity numbers: a US social security number, in its dashed shape
// anywhere or after its label with any grouping, and a passport number
// after its label.
const (
	ssn      = `(?<![0-9A-Za-z_.-])[0-9]{3}-[0-9]{2}-[0-9]{4}(?![0-9A-Za-z_]|[-.][0-9])`
	ssnLabel = `(?<![A-Za-z])(?i:ssn|social[ _-]?security` + numberWord + `)` + labelSep +
		`(?<secret>[0-9]{3}(?<s>[ .-]?)[0-9]{2}\k<s>[0-9]{4})(?![0-9A-Za-z_]|[-.][0-9])`
	passportNo = `(?<![A-Za-z])(?i:passport|passeport|pasaporte|passaporte|reisepass|paszport|паспорт)(?:[_ -]?(?i:no\.?|number|num|id|#))?` + labelSep +
		`(?<secret>(?=[A-Za-z0-9]{0,8}[0-9])[A-Za-z0-9]{6,9})(?![A-Za-z0-9_])`
)

// phoneArea is a number with its area code in brackets, as Brazil and
// many others write them: (11) 91234-5678, (021) 2345 6789.
const phoneArea = `(?<![A-Za-z0-9_+.-])(?:\(0?[1-9][0-9]{1,3}\)[ ]?(?:9[ ]?)?[0-9]{3,5}[-. ]?[0-9]{4}|[1-9][0-9][ ]9[0-9]{4}-[0-9]{4})` + phoneEnd

// phoneGrouped is a national number of a large country written in its
// usual groups, without a trunk 0 or brackets of area code: an Indian
// mobile (98765 43210), a Chinese mobile (138 0013 8000), a Mexican
// number (55 1234 5678), and a Russian one with its area code in
// brackets and the last four digits in pairs (8 (912) 345-67-89).
const phoneGrouped = `(?<![A-Za-z0-9_+.-]|(?:[0-9]|\[PHONE_[0-9]+\])[ -])(?:[6-9][0-9]{4}[ -][0-9]{5}|1[3-9][0-9](?:[ ][0-9]{4}[ ]|-[0-9]{4}-)[0-9]{4}` +
	`|[1-9][0-9](?:[ ][0-9]{4}[ ]|-[0-9]{4}-)[0-9]{4}|(?:[78][ ]?)?\([0-9]{3,5}\)[ ]?[0-9]{2,3}-[0-9]{2}-[0-9]{2})(?![A-Za-z0-9_]|[.-][0-9]|[ ][0-9])`

// Secrets of web services: a cookie header's value (to the end of its
// line or its quote), a URL signature (Azure SAS sig=, S3 Signature=), a
// Slack or Discord webhook's path, a MySQL password given as -pVALUE, and
// the password of a few other commands' flags.
const (
	cookie    = `(?<![A-Za-z0-9_-])(?i:set-cookie|cookie)(?:\\*["'])?[ \t]*[:=][ \t]*(?:\\*["'])?(?<secret>(?:[^\r\n"'\\]|\\(?![\\"'nrt]))+)`
	signature = `(?<![A-Za-z0-9_])(?i:sig|signature)=(?<secret>[A-Za-z0-9%+/=_-]{16,})`
	webhook   = `hooks\.slack\.com/(?:services|workflows|triggers)/(?<secret>[A-Za-z0-9_/-]{8,})` +
		`|discord(?:app)?\.com/api/webhooks/(?<secret>[0-9]{5,}/[A-Za-z0-9_-]{20,})`
	mysqlCommand = `(?<![A-Za-z0-9_-])(?i:mysql[a-z]*|mariadb[a-z-]*)(?:[ \t]+(?!-p)[^\s]+)*?[ \t]+-p` + commandValue
	// Other commands that take a password after a short flag: sshpass -p,
	// redis-cli -a.
	passwordCommand = `(?<![A-Za-z0-9_-])(?:sshpass(?:[ \t]+(?!-p)[^\s]+)*?[ \t]+-p|redis-cli(?:[ \t]+(?!-a)[^\s]+)*?[ \t]+-a)[ \t]+` + commandValue
	// userFlag is a user and password given together after -u or --user
	// (curl, wget): the password follows the first colon.
	userFlag = `(?<![A-Za-z0-9_-])(?:-u|--user)(?:[ \t]+|=)(?:\\*["'])?[^\s:"'\\]+:(?<secret>[^\s"'\\]+)`
	// commandValue is a command's password, quoted (spaces and all) or bare.
	commandValue = `(?:(?<mq>["'])(?<secret>[^"'\r\n]+)\k<mq>|(?<secret>[^\s"'\x60;|&]+))`
)

// Keys that other rules do not reach: the private lines of a PuTTY key
// file; the private members of a JSON Web Key (RSA's d, p, q, dp, dq, qi,
// EC's d, a symmetric key's k; 40+ characters of base64url); an Azure AD
// client secret (three characters, a digit and Q~ before the rest); the
// credential after an Authorization header's scheme (Token, Digest, a
// custom one); and secrets in a URL's query under names too short or
// common to be labels anywhere else (key, auth, code, sid, session).
const (
	puttyKey      = `Private-Lines:[ \t]*[0-9]{1,4}[ \t]*\r?\n(?<secret>[A-Za-z0-9+/=]+(?:\r?\n[A-Za-z0-9+/=]+(?![^\r\n]))*)`
	jwkMember     = `(?<![\\A-Za-z0-9_])\\{0,3}["'](?:d|p|q|dp|dq|qi|k)\\{0,3}["'][ \t]*:[ \t]*\\{0,3}["'](?<secret>[A-Za-z0-9_-]{40,})`
	azureAD       = `(?<=(?<![A-Za-z0-9_~.-])(?<lead>[A-Za-z0-9_.-]{3}[0-9]))Q~[A-Za-z0-9_~.-]{31,34}(?![A-Za-z0-9_~.-])`
	authorization = `(?<![A-Za-z0-9_])(?i:(?:proxy-)?authorization)(?:\\*["'])?[ \t]*[:=][ \t]*(?:\\*["'])?` +
		`(?:[A-Za-z][A-Za-z0-9_-]{1,30}[ \t]+)?(?<secret>[A-Za-z0-9._~+/=:-]{8,})`
	querySecret = `[?&](?<key>(?i:key|auth|code|sid|session(?:[_-]?id)?|jwt))=(?<secret>[^\s&#"'<>\\]+)`
)

// minIntlDigits is the fewest digits an international number is masked
// with; shorter runs after a '+' are scores, offsets and versions.
const minIntlDigits = 8

type spec struct {
	name  string
	kind  Kind
	expr  string
	find  func([]rune) []span
	scans func(string) bool
	cut   func(found, string) string
	keep  func(found, string) bool
	learn func(found, string) bool
}

// specs lists the built-in rules in the order they run: containers first
// (a key block, a URL password, an assigned value), so their whole value is
// masked before finer rules could pick pieces out of it; numbers with a
// check digit before phone numbers, which would take a card for a phone.
var specs = []spec{
	{name: "private key block", kind: PrivateKey, expr: `-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----|\z)`},
	{name: "cookie", kind: Token, expr: cookie, cut: trimBlanks, keep: keepCookie},
	{name: "JWT", kind: Token, expr: tokL + `eyJ[A-Za-z0-9_-]{6,}\.eyJ[A-Za-z0-9_-]{6,}\.[A-Za-z0-9_-]*` + tokR},
	{name: "provider API key", kind: APIKey, expr: tokL + `(?:` + strings.Join(providerKeys, "|") + `)` + tokR},
	// Telegram bot tokens (the bot's id, a colon, AA and 33 characters) on
	// their own: the id's digits would have the provider pattern tried at
	// every digit.
	{name: "Telegram bot token", kind: APIKey, expr: `(?<![A-Za-z0-9_-])[0-9]{8,10}:AA[A-Za-z0-9_-]{33}` + tokR},
	{name: "AWS secret key", kind: Secret, expr: `(?i:aws[_ -]?secret(?:[_ -]?(?:access[_ -]?)?key)?|aws[_ -]?session[_ -]?token)(?:\\*["'])?\s*(?:[:=]|(?i:is)(?![A-Za-z0-9]))?\s*(?:\\*["'])?(?<secret>[A-Za-z0-9/+=]{40,})(?![A-Za-z0-9/+=])`},
	{name: "bearer token", kind: Token, expr: `(?<![A-Za-z0-9])(?i:bearer)\s+(?<secret>(?=[A-Za-z0-9._~+/-]*[0-9]|(?=[A-Za-z0-9._~+/-]*[a-z])(?=[A-Za-z0-9._~+/-]*[A-Z])[A-Za-z0-9._~+/-]{20})[A-Za-z0-9._~+/-]{16,}=*)`},
	{name: "PuTTY private key", kind: PrivateKey, expr: puttyKey},
	{name: "JSON Web Key private member", kind: PrivateKey, expr: jwkMember},
	{name: "Azure AD client secret", kind: APIKey, expr: azureAD},
	{name: "basic auth", kind: Token, expr: `(?i:authorization)(?:\\*["'])?\s*[:=]\s*(?:\\*["'])?(?i:basic)\s+(?<secret>[A-Za-z0-9+/]{8,}=*)`},
	// The scheme is a lookbehind, so that the match starts at "://".
	{name: "URL password", kind: Password, expr: `(?<=(?<![A-Za-z0-9+.-])[A-Za-z][A-Za-z0-9+.-]{1,20})://[^\s:/?#@\[\]"'<>]*:(?<secret>[^\s/?#"'<>]+)@(?=[A-Za-z0-9\[])`},
	{name: "authorization header", kind: Token, expr: authorization, keep: keepKeyLike},
	{name: "URL signature", kind: Token, expr: signature},
	{name: "URL query secret", kind: Secret, expr: querySecret, keep: keepKeyLike},
	{name: "webhook", kind: APIKey, expr: webhook},
	{name: "MySQL password", kind: Password, expr: mysqlCommand},
	{name: "command password", kind: Password, expr: passwordCommand},
	{name: "user and password flag", kind: Password, expr: userFlag, keep: notNumber},
	{name: "password flag", kind: Password, expr: flagKey + `(?:\\*["'])?(?<sep>[ \t])[ \t]*` + value, cut: cutValue, keep: keepFlag, learn: learnAssigned},
	{name: "password assignment", kind: Password, expr: assigned(passwordKey, setTo), cut: cutValue, keep: keepPassword, learn: learnAssigned},
	{name: "password statement", kind: Password, expr: assigned(passwordKey, said), cut: cutValue, keep: keepPassword, learn: learnAssigned},
	{name: "password in another language", kind: Password, expr: `(?<![A-Za-z])(?<key>(?i:` + otherPasswords + `))(?:\\*["'])?[ \t]*` + wideSetTo + `[ \t]*` + value,
		cut: cutValue, keep: keepPassword, learn: learnAssigned},
	{name: "PIN", kind: Password, expr: pin},
	{name: "card security code", kind: Password, expr: cardCode},
	{name: "secret assignment", kind: Secret, expr: assigned(secretKey, setTo), cut: cutValue, keep: keepSecret, learn: learnAssigned},
	{name: "secret statement", kind: Secret, expr: assigned(secretKey, said), cut: cutValue, keep: keepSecret, learn: learnAssigned},
	{name: "encoded secret", kind: Secret, scans: base64Like},
	{name: "social security number", kind: SSN, expr: ssn, keep: keepSSN},
	{name: "labelled social security number", kind: SSN, expr: ssnLabel, keep: keepSSN},
	{name: "passport number", kind: Passport, expr: passportNo},
	{name: "Canadian social insurance number", kind: NationalID, expr: sin, scans: digitRunLike(9), keep: keepLuhnID},
	{name: "labelled Canadian social insurance number", kind: NationalID, expr: sinLabel, keep: keepLuhnID},
	{name: "UK National Insurance number, Indian PAN, Mexican CURP or Italian fiscal code", kind: NationalID, expr: upperCode, scans: upperCodeLike},
	{name: "labelled UK National Insurance number", kind: NationalID, expr: ninoLabel},
	{name: "Aadhaar number", kind: NationalID, expr: aadhaar, scans: digitRunLike(12), keep: keepVerhoeff},
	{name: "labelled Aadhaar number", kind: NationalID, expr: aadhaarLabel, keep: keepVerhoeff},
	{name: "Chinese resident identity number", kind: NationalID, expr: chineseID, scans: digitRunLike(17), keep: keepChineseID},
	{name: "French NIR", kind: NationalID, expr: nir, keep: keepNIR},
	{name: "German tax id", kind: NationalID, expr: steuerID, keep: keepSteuerID},
	{name: "Brazilian CPF", kind: NationalID, expr: cpf, keep: keepCPF},
	{name: "labelled Brazilian CPF", kind: NationalID, expr: cpfLabel, keep: keepCPF},
	{name: "Spanish DNI or NIE", kind: NationalID, expr: dni, scans: digitRunLike(7), keep: keepDNI},
	{name: "Korean resident registration number", kind: NationalID, expr: rrn, scans: digitRunLike(13)},
	{name: "Japanese individual number", kind: NationalID, expr: myNumber, keep: keepMyNumber},
	{name: "labelled identity number", kind: NationalID, expr: idLabel + idValue, keep: keepIDValue},
	{name: "identity number after its acronym", kind: NationalID, expr: idAcronym + idValue, keep: keepIDValue},
	{name: "e-mail address", kind: Email, expr: email},
	{name: "obfuscated e-mail address", kind: Email, expr: obfuscatedEmail, scans: obfuscatedLike},
	{name: "IBAN", kind: IBAN, scans: ibanLike, find: findIBANs},
	{name: "card number", kind: Card, scans: digitRunLike(minCardDigits), find: findCards},
	{name: "card number with dots or underscores", kind: Card, expr: cardDotted, keep: keepDottedCard},
	{name: "IPv6 address", kind: IP, expr: ipv6, keep: keepIPv6},
	{name: "IPv4 address", kind: IP, expr: ipv4, keep: keepIPv4},
	{name: "labelled phone number", kind: Phone,
		expr: phoneLabel, keep: digitsBetween(7, 15)},
	{name: "international phone number", kind: Phone, expr: phoneIntl, keep: digitsBetween(minIntlDigits, 15)},
	{name: "North American phone number", kind: Phone, expr: phoneNANP},
	{name: "phone number with area code", kind: Phone, expr: phoneArea, keep: digitsBetween(9, 13)},
	{name: "national phone number", kind: Phone, expr: phoneTrunk, keep: keepTrunkPhone},
	{name: "grouped national phone number", kind: Phone, expr: phoneGrouped, keep: digitsBetween(10, 11)},
	{name: "escaped secret", kind: Secret, scans: escapedLike},
}

// builtins compiles specs. Patterns are constants, so an error here is a
// bug, but it is reported rather than panicking. No pattern has a time
// limit: a set refuses a pattern that is not match.Bounded.
func builtins(set *match.Set) ([]*rule, error) {
	out := make([]*rule, 0, len(specs))
	for _, s := range specs {
		ru := &rule{name: s.name, kind: s.kind, find: s.find, scans: s.scans, cut: s.cut, keep: s.keep, learn: s.learn}
		if s.expr != "" {
			re, err := set.Compile(s.expr, 0)
			if err != nil {
				return nil, fmt.Errorf("redact: built-in %s pattern: %w", s.name, err)
			}
			ru.re = re
		}
		out = append(out, ru)
	}
	// The encoded- and escaped-secret rules read the text they decode with
	// every other rule. What is escaped may be base64 (a query's
	// cGFzc3dvcmQ9…%3D%3D), so the escaped text is read by the encoded
	// rule too; base64 is not read for escapes.
	var plain []*rule
	for _, ru := range out {
		if ru.re != nil || ru.find != nil {
			plain = append(plain, ru)
		}
	}
	var encoded *rule
	for _, ru := range out {
		if ru.name == "encoded secret" {
			ru.find = encodedFinder(set, plain)
			encoded = ru
		}
	}
	for _, ru := range out {
		if ru.name == "escaped secret" {
			ru.findHits = escapedFinder(set, append(plain, encoded))
		}
	}
	return out, nil
}
