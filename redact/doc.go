// Package redact masks secrets and personal data in run text before offattr
// writes it anywhere or sends it to a model. It decides what looks like a
// secret and how it is replaced; what to redact and when is the caller's call.
//
// # What is masked
//
// Each kind gets numbered placeholders, [KIND_N], and the same value always
// gets the same placeholder within one Redactor (one run), so a redacted
// transcript stays readable: "[EMAIL_1] wrote to [EMAIL_2], then [EMAIL_1]…".
//
//   - PRIVATE_KEY: PEM private-key blocks, including a block cut off before
//     its END line (logs truncate).
//   - TOKEN: JWTs, "Bearer …" tokens, "Authorization: Basic …".
//   - API_KEY: provider keys by prefix (OpenAI sk-/sk-proj-, Anthropic
//     sk-ant-, GitHub ghp_/gho_/ghu_/ghs_/ghr_/github_pat_, Slack xox?-,
//     Google AIza, Stripe sk_/rk_ live/test, HuggingFace hf_, GitLab glpat-,
//     npm, SendGrid, Groq, xAI, PyPI, DigitalOcean) and AWS key ids
//     (AKIA/ASIA/… + 16).
//   - SECRET: values assigned to keys ending in api_key, secret, token,
//     access_key, private_key… (aws_secret_access_key = …, "token": "…") when
//     the value looks like a key: 8+ token characters with a digit, or 16+
//     with both cases. "max_tokens: 4096" and "the token: it" stay.
//   - PASSWORD: the password in scheme://user:pass@host, and values of
//     password/passwd/pwd/passphrase keys (connection strings "Pwd=…;").
//     After "password:" an unquoted all-lowercase word is taken for prose
//     ("invalid password: too short") and kept; after "=" or in quotes
//     anything is masked.
//   - EMAIL: addresses with a real-looking top-level domain (not icon@2x.png).
//   - IP: IPv4 dotted quads (each part 0–255, no leading zeros) and IPv6
//     addresses, except loopback, unspecified and netmask-like addresses,
//     which carry no personal data and explain network errors.
//   - PHONE: international "+" numbers (8–15 digits), North American numbers
//     written with separators ((555) 123-4567, 555-123-4567, 1-800-…),
//     national numbers with a trunk 0 and separators (020 7946 0958,
//     01 23 45 67 89: 10–11 digits, 11–15 after 00), and any number after a
//     label such as "phone:", "tel", "mobile", "fax".
//   - CUSTOM: matches of the user's patterns (Options.PatternsFile). A pattern
//     with a group named "secret" masks only that group.
//
// A secret value of 6+ characters found once (a password, key or token) is
// also masked wherever else it appears in later text of the same run, even
// without its key around it.
//
// # What is deliberately kept
//
// Version numbers (2.4.1, v1.2.3.4, "version 1.2.3.4", pkg==1.2.3.4), step
// indices, plain numbers (2024, 42, 3.14, 1,234, 5551234567 with no
// separators or label), dates, times, ISBNs, UUIDs, MAC addresses, hex
// commit hashes and digests (not secrets on their own; a hex value assigned
// to a secret key is masked as SECRET), ordinary words. A bare four-part
// dotted quad that fits the IPv4 ranges, such as 1.2.3.4 with no version
// marker before it, is taken for an address: masking a version number
// costs a little readability, leaking an address costs privacy.
//
// # Failure
//
// Every pattern runs with a match timeout. If one times out on some text,
// that whole text is replaced by [WITHHELD_N] (fail closed: nothing
// unchecked gets through) and Redactor.Err reports it.
package redact
