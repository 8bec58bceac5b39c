// Package redact masks secrets and personal data in run text before offattr
// writes it anywhere or sends it to a model. It decides what looks like a
// secret and how it is replaced; what to redact and when is the caller's call.
//
// # Using it
//
// Compile the patterns once (Compile; a nil *Patterns means redaction is
// off) and make one Redactor per run with NewRedactor. Redactor.Run returns
// the run with every text redacted, agent names, roles, targets and tool
// names included (an agent may be named by its e-mail address); afterwards the same Redactor's String and Error mask
// anything else printed about that run (an error message, a file's agent
// list, a report line) with the run's own placeholders, so every output
// says [EMAIL_1] for the same address. A nil *Redactor returns everything
// unchanged, so callers need no second code path when redaction is off.
//
// # What is masked
//
// Each kind gets numbered placeholders, [KIND_N], and the same value always
// gets the same placeholder within one Redactor (one run), so a redacted
// transcript stays readable: "[EMAIL_1] wrote to [EMAIL_2], then [EMAIL_1]…".
// E-mail addresses are the same value whatever their case; card numbers,
// IBANs and phone numbers whatever their grouping.
//
//   - PRIVATE_KEY: PEM private-key blocks, including a block cut off before
//     its END line (logs truncate); the private lines of a PuTTY key file;
//     a JSON Web Key's private members (d, p, q, dp, dq, qi, k: 40+
//     characters of base64url).
//   - TOKEN: JWTs, "Bearer …" tokens (with a digit, or 20+ characters of
//     both cases), "Authorization: Basic …", the value
//     of a Cookie or Set-Cookie header (to the end of its line or quote,
//     when it holds a name=value pair), URL signatures (Azure SAS
//     sig=, S3 X-Amz-Signature=; 16+ characters), and the key-like
//     credential of an Authorization header of any scheme (Token …).
//   - API_KEY: provider keys by prefix: OpenAI sk-/sk-proj-, Anthropic
//     sk-ant-, GitHub ghp_/gho_/ghu_/ghs_/ghr_/github_pat_, Slack xox?-/xapp-,
//     Google AIza/ya29./GOCSPX-, Stripe sk_/rk_ live/test and whsec_,
//     HuggingFace hf_, GitLab glpat-/gldt-/glrt-/…, Grafana glsa_, npm, SendGrid, Groq,
//     xAI, PyPI, DigitalOcean, Perplexity, Replicate, LangSmith, Pinecone,
//     Shopify, Databricks, Twilio SK…, Mailgun key-…, Atlassian, Linear,
//     Notion, Vault, Figma, Sentry, age, Telegram bot tokens, Square,
//     Postman, Doppler, Facebook, Fireworks, AWS key ids (AKIA/ASIA/… +
//     16) and session tokens (IQoJb3JpZ2luX2Vj…, FwoGZXIvYXdz…), Azure AD
//     client secrets (…8Q~…), and the path of a Slack or Discord webhook URL.
//   - PASSWORD: the password in scheme://user:pass@host; the value after a
//     password label (password, passwd, pwd, pw, pass, passphrase, passcode,
//     Passwort, Kennwort, and the common word in other languages:
//     contraseña, mot de passe, senha, hasło, пароль, 密码, パスワード…; also
//     ending a longer key such as DB_PASSWORD or userPassword); the value after such a flag and a blank (--password
//     VALUE, --db-pass VALUE, --token VALUE); MySQL's -pVALUE after a
//     mysql or mariadb command, quoted or not; the value of sshpass -p and
//     redis-cli -a; the password of -u or --user USER:PASSWORD (curl, wget;
//     not a uid:gid of digits); and PINs (4–12 digits after "PIN", "PIN code"…, with or
//     without a separator), and a card's security code after CVV, CVC or CSC.
//   - SECRET: the value after a key label (api key, subscription key, secret key, access key,
//     private key, private key id, client secret, secret… also ending a
//     longer key such as aws_secret_access_key or openaiApiKey), and after a token label
//     (access_token…) when the value looks like a key: 8+ characters with a
//     digit, or 16+ with both cases, so "max_tokens: 4096" and "the token:
//     it" stay; the same key-like values in a URL's query after key=,
//     auth=, code=, sid=, session=, jwt=. Also a run of base64 (12+
//     characters) whose decoded text is readable and holds anything
//     another rule masks (cGFzc3dvcmQ9… is "password=…"), or is a user and
//     password joined by a colon (basic credentials without their header):
//     the whole run is masked.
//   - SSN: US social security numbers, 078-05-1120 anywhere and any
//     grouping after "SSN" or "social security number" (social_security_number,
//     socialSecurityNumber, a JSON key), except numbers
//     none is given (area 000, 666, 9xx; group 00; serial 0000).
//   - PASSPORT: 6–9 letters and digits, with a digit, after "passport",
//     "passport no.", "passport_number", "passport number is", "passeport",
//     "pasaporte", "Reisepass"….
//   - NATIONAL_ID: identity numbers of other countries, by a shape that
//     stands alone and a check digit where there is one, or after their
//     label: Canadian SIN (046 454 286, Luhn), UK National Insurance
//     number (QQ 12 34 56 C), Indian Aadhaar (2345 6789 0124, Verhoeff) and
//     PAN, Mexican CURP, Chinese resident id (MOD 11-2), French NIR (its
//     key), German tax id (after its label, MOD 11,10), Brazilian CPF,
//     Spanish DNI and NIE (their letter), Korean RRN, Japanese My Number
//     (after its label), Italian fiscal code; and any number of five digits
//     or more after an identity label written out (driver's licence,
//     national id, tax id, Medicare, personnummer…) or as capitals (EIN,
//     TIN, BSN, PESEL, NHS, NRIC, HKID…).
//   - EMAIL: addresses with a real-looking top-level domain (not icon@2x.png;
//     in frank@example.com.json the address is frank@example.com), also
//     spelt out: jane [at] example [dot] com, jane(at)example.com, jane AT
//     example DOT com (bare words only before a common top-level domain,
//     and not before "the", "this"…), with the placeholder of the address
//     they spell.
//   - IBAN: a country code, two check digits and the country's length of
//     letters and digits (bare or grouped by spaces or dashes), passing the ISO 13616
//     mod-97 check.
//   - CARD: 13–19 digits starting with 2–6, bare or in groups joined by
//     single spaces or dashes (or by dots or underscores, in a card's own
//     groups: 4-4-4-4, 4-6-5), passing the Luhn check; in a longer run of
//     groups, the longest stretch of whole groups that passes ("4111 1111
//     1111 1111 12/25" masks the card and keeps the expiry).
//   - IP: IPv4 dotted quads (each part 0–255, no leading zeros) and IPv6
//     addresses, except loopback, unspecified and netmask-like addresses,
//     which carry no personal data and explain network errors.
//   - PHONE: international "+" numbers (8–15 digits), North American numbers
//     written with separators ((555) 123-4567, 555-123-4567, 1-800-…),
//     national numbers with a trunk 0 and separators (020 7946 0958,
//     01 23 45 67 89: 10–12 digits, 11–15 after 00), numbers with an area
//     code in brackets ((11) 91234-5678, (021) 2345-6789: 9–13 digits) or
//     a Brazilian mobile's two-digit area code before it (11 91234-5678),
//     the usual groups of Indian (98765 43210), Chinese (138 0013 8000),
//     Mexican (55 1234 5678) and Russian (8 (912) 345-67-89) numbers,
//     and any number after a label such as "phone:", "tel", "mobile", "fax".
//   - CUSTOM: matches of the user's patterns (Options.PatternsFile). A pattern
//     with a group named "secret" masks only that group.
//
// Any of these written with escapes, URL-encoded (password%3D…,
// jane%40example.com), with JSON's \u escapes and escaped slashes
// (jane\u0040example.com, hooks.slack.com\/services\/…) or HTML's numeric
// character references (jane&#64;example.com), is found in the decoded
// text and masked where it stands, escapes and all, with the placeholder
// its decoded value gets elsewhere. Only escapes of ASCII characters make
// a text worth decoding: a text whose escapes are all of other scripts is
// read as it is.
//
// A label takes its value after ':', '：', '=', '=>', ':=' or the word "is" or
// "was", after a closing quote or not, in plain text, JSON, or JSON that
// was escaped once or twice ({\"api_key\": \"…\"}, \\\"…\\\"). A quoted value
// runs to its closing quote, escaped quotes inside it included. A bare value
// runs to white space or a quote, whatever its characters (Tr0ub4dor&3xyz,
// Sup3r;Secret, abc(def)ghi); it stops early only where a connection string
// or a query goes on to its next key (";Encrypt=true", "&user=x"). After
// '=' it runs to its end, punctuation included (PASSWORD=Sup3r;Secret!.),
// but for a final semicolon (a statement's or a connection string's);
// after ':', "is" or "was" it leaves out a final full stop, comma,
// semicolon or colon (the sentence's). Either way it leaves out a
// closing bracket it did not open. A quoted value is masked to its quote.
//
// A secret value of 6+ characters found once (a password, key, token, card
// number or IBAN) is also masked wherever else it appears in the same run,
// even without its label around it. A plain word found after a colon or
// "is" is not hunted that way ("Password: Required" must not mask every
// "Required").
//
// # What is deliberately kept
//
// Version numbers (2.4.1, v1.2.3.4, "version 1.2.3.4", pkg==1.2.3.4), step
// indices, plain numbers (2024, 42, 3.14, 1,234, 5551234567 with no
// separators or label), order ids (#W2378156), tracking numbers and other
// long numbers that fail the Luhn check or start with 0, 1, 7, 8 or 9
// (millisecond timestamps start with 1), dates, times, ISBNs, UUIDs, MAC
// addresses, hex commit hashes and digests (not secrets on their own; a hex
// value assigned to a secret key is masked as SECRET), ordinary words. A
// bare four-part dotted quad that fits the IPv4 ranges, such as 1.2.3.4
// with no version marker before it, is taken for an address: masking a
// version number costs a little readability, leaking an address costs
// privacy.
//
// A label without a value stays: "password" in a sentence, "Password:" at
// the end of a line (the value must be on the same line), prose after a
// colon or "is" ("invalid password: too short", "the password is
// incorrect": a single lower-case word), placeholders for a secret rather
// than secrets (null, ****, (hidden), $VAR, ${VAR}, %VAR%, {{ var }},
// <your-key>), test runners' "PASS: TestName", "pass is …", and the working
// directory in PWD=/home/… .
//
// # Idempotence
//
// Redacting redacted text changes nothing: no pattern matches inside or
// across a placeholder, and the rules run over a text again until it stops
// changing (four passes at most), since a placeholder can change what surrounds a candidate
// (a phone number is not taken from the middle of a run of digit groups,
// but "[PHONE_1] 0000 0000000" is no longer such a run). Patterns whose
// context a placeholder of their own kind could change count that
// placeholder as what it replaced.
//
// # Failure
//
// No pattern has a time limit, so that what is masked does not depend on
// the machine's load: every built-in pattern, and every user pattern when
// it is loaded, is held to a shape whose backtracking is bounded
// (match.Bounded); card numbers and IBANs are found by scanners that run
// in linear time. A match then cannot fail, and every text is read whole.
package redact
