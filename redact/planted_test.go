package redact

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// planted is a secret written into a line of a log; %s marks where.
type planted struct {
	name, line, secret string
}

func (p planted) text() string { return fmt.Sprintf(p.line, p.secret) }

// plantedSecrets must all be masked wherever they are written. The fuzz
// target FuzzPlantedSecret plants them in arbitrary text as well.
var plantedSecrets = []planted{
	// Provider keys and tokens, recognised by their prefix alone.
	{"OpenAI project key", "using %s for the call", openAIKey},
	{"OpenAI legacy key", "key %s", openAIOld},
	{"Anthropic key", "client = Anthropic(api_key=%s)", anthropicKey},
	{"GitHub classic token", "git clone https://%s@github.com/x/y", githubPAT},
	{"GitHub fine-grained token", "gh auth login --with-token %s", githubFine},
	{"Slack bot token", "SLACK_BOT=%s", slackToken},
	{"Google API key", "GET /maps?key=%s&q=1", googleKey},
	{"Google OAuth token", "access ya29 token: %s", "ya29.a0AfH6SMBx3kZ9qL2mN8pR4sT6vW1yZ3bC5dE7fG"},
	{"Stripe live key", "stripe.api_key = %s", stripeKey},
	{"HuggingFace token", "HF %s", hfToken},
	{"GitLab token", "glab %s", gitlabToken},
	{"SendGrid key", "mail via %s", "SG.aBcDeFgHiJkLmNoPqRsTuV.wXyZ0123456789aBcDeFgHiJkLmNoPqRsTuVwXyZ01"},
	{"npm token", "//registry.npmjs.org/:_authToken=%s", "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"},
	{"Telegram bot token", "bot %s started", "123456789:AAH4f9Kq2LmN8pR3sT6vW1xY5zA7bC0dE2f"},
	{"AWS access key id", "aws_access_key_id=%s", awsKeyID},
	{"AWS secret key", "aws_secret_access_key = %s", awsSecret},
	{"JWT", "Cookie: session=%s;", jwt},
	{"bearer token", "Authorization: Bearer %s", "abcDEF123456ghiJKL789"},
	{"basic auth", `"Authorization": "Basic %s"`, "dXNlcjpwYXNzd29yZA=="},
	{"PEM private key body", "key file:\n-----BEGIN RSA PRIVATE KEY-----\n%s\n-----END RSA PRIVATE KEY-----", "MIIEowIBAAKCAQEA0Z3VS5JJcds3xfn/ygWyF8PbnGy0AHB7MaEXAMPLE"},

	// Passwords and secrets after a label, whatever their characters.
	{"password with ampersand", "Password: %s", "Tr0ub4dor&3xyz"},
	{"password with semicolon", "PASSWORD=%s", "Sup3r;Secret"},
	{"password with parentheses", "password: %s", "abc(def)ghi"},
	{"password after is", "the admin password is %s then log in", "Hunter2!x"},
	{"password was", "My password was %s.", "Qw3rty#99"},
	{"password in JSON with spaces", `{"password": "%s"}`, "correct horse battery"},
	{"password in JSON with escaped quote", `{"password": "%s"}`, `pa\"ss w0rd`},
	{"password in escaped JSON", `{\"user\": \"bob\", \"password\": \"%s\"}`, "Sup3r;S3cret"},
	{"api key in escaped JSON", `{\"api_key\": \"%s\"}`, "k3y-Valu3-0001-abcd"},
	{"api key in double-escaped JSON", `{\\\"api_key\\\": \\\"%s\\\"}`, "dbl-3scaped-K3y"},
	{"password in URL", "postgres://admin:%s@db.internal:5432/app", "s3cr3t!"},
	{"pwd in connection string", "Driver={x};Uid=me;Pwd=%s;Encrypt=yes", "letmein9"},
	{"passphrase quoted", "passphrase = '%s'", "my voice is my passport"},
	{"prefixed pass key", "export DB_PASS=%s", "qwerty123"},
	{"camel-case api key", "openaiApiKey: %s", "abc123secretvalue"},
	{"client secret", "client_secret: %s", "Zx8Yw7Vu6Ts5"},
	{"secret is", "the shared secret is %s", "t0ps3cret-value"},
	{"PIN without separator", "your card PIN %s arrives by post", "4821"},
	{"PIN code", "pin code: %s", "902114"},

	// Personal data.
	{"e-mail", "write to %s.", "jane.doe+ops@example.co.uk"},
	{"e-mail as agent name", "From: %s\nTo: planner", "alice@corp.example.com"},
	{"e-mail in a file name", "wrote runs/%s.json", "frank.green@woodgrove.com"},
	{"international phone", "call %s now", "+44 20 7946 0958"},
	{"North American phone", "ring %s today", "(415) 555-2671"},
	{"labelled phone digits", "Phone: %s", "4155552671"},
	{"IPv4 address", "connect to %s:8080 failed", "192.168.10.42"},
	{"IPv6 address", "peer %s down", "2001:db8:85a3::8a2e:370:7334"},
	{"IBAN grouped", "IBAN: %s (Barclays)", "GB82 WEST 1234 5698 7654 32"},
	{"IBAN bare", "pay to %s", "DE89370400440532013000"},
	{"IBAN with letters inside", "konto %s", "FR1420041010050500013M02606"},
	{"Visa grouped by spaces", "card %s ok", "4111 1111 1111 1111"},
	{"Mastercard grouped by dashes", "paid with %s", "5500-0000-0000-0004"},
	{"Visa bare", "cc=%s", "4012888888881881"},
	{"Amex four-six-five", "amex %s", "3782 822463 10005"},
	{"card then expiry", "card: %s 12/27 cvc 123", "4242 4242 4242 4242"},
	{"Mastercard 2-series", "num %s,", "2223003122003222"},
	{"card in JSON", `{"card_number":"%s"}`, "6011111111111117"},

	// Identity numbers.
	{"social security number", "customer %s on file", "078-05-1120"},
	{"labelled social security number", "SSN %s", "219 09 9999"},
	{"passport number", `{"passport_number": "%s"}`, "X1234567"},
	{"passport number in prose", "Passport no. %s, expires 2031", "K98765432"},
	{"Brazilian mobile", "ligue %s hoje", "(11) 91234-5678"},
	{"Brazilian landline", "fone %s", "(021) 2345-6789"},

	// Secrets of web services and command lines.
	{"cookie header", "Cookie: %s", "sessionid=9f8e7d6c5b4a; csrftoken=Zx81Qw"},
	{"set-cookie in JSON", `{"Set-Cookie": "%s"}`, "auth=aGVsbG8td29ybGQ; Path=/; HttpOnly"},
	{"Azure SAS signature", "https://acct.blob.core.windows.net/c/b?sv=2022-11-02&se=2030-01-01&sig=%s", "dGhpcyBpcyBub3QgYSByZWFs%2BU0FTc2ln%3D"},
	{"S3 signature", "?X-Amz-Credential=x&X-Amz-Signature=%s", "4f8e1c0b9d2a7e6f5c3b1a0d9e8f7c6b5a4d3e2f1c0b9a8d7e6f5c4b3a2d1e0f"},
	{"Slack webhook", "POST https://hooks.slack.com/services/%s", "T024BE7LD/B01ABCDEF12/x1y2z3w4v5u6t7s8r9q0p1o2"},
	{"password flag with a space", "deploy --password %s --verbose", "Kestrel9Harbor"},
	{"password flag ending a name", "psql --db-pass %s", "Pl4tform.Key!"},
	{"token flag", "cli login --token %s", "tkn_8f7e6d5c4b3a"},
	{"MySQL -p", "mysql -h db -u root -p%s shop", "R00t!pass"},
	{"password ending in punctuation", "PASSWORD=%s", "Sup3r;Secret!."},
	{"base64-encoded password", "env: DB_CONF=%s", "cGFzc3dvcmQ9SHVudGVyMiF4"},
	{"base64-encoded URL-safe API key", "blob %s end", "YXBpX2tleT1rM3ktVmFsdTMtMDAwMS1hYmNk"},
	{"GCP private key id", `{"type": "service_account", "private_key_id": "%s"}`, "8d3f2c1b0a9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c"},

	// The kinds above written another way: a quoted or joined label, other
	// languages' labels, URL-encoded, with JSON's escapes.
	{"SSN as a JSON key", `{"SSN":"%s"}`, "078051120"},
	{"SSN in a snake-case key", "social_security_number=%s", "078051120"},
	{"SSN in a camel-case key", "socialSecurityNumber: %s", "078051120"},
	{"SSN grouped by dots", "ssn: %s", "078.05.1120"},
	{"SSN URL-encoded", "ssn%%3D%s", "078051120"},
	{"Brazilian mobile without brackets", "ligue %s hoje", "11 91234-5678"},
	{"Slack webhook URL-encoded", "url=https%%3A%%2F%%2Fhooks.slack.com%%2Fservices%%2F%s", "T024BE7LD%2FB01ABCDEF12%2Fx1y2z3w4v5u6t7s8r9q0p1o2"},
	{"Slack webhook in escaped JSON", `{"url": "https:\/\/hooks.slack.com\/services\/%s"}`, `T024BE7LD\/B01ABCDEF12\/x1y2z3w4v5u6t7s8r9q0p1o2`},
	{"Discord webhook", "POST https://discord.com/api/webhooks/123456789012345678/%s", "abcdEFGHijklMNOPqrstUVWXyz0123456789abcdEFGH"},
	{"MySQL -p quoted", "mysql -h db -u root -p'%s' shop", "R00t pass"},
	{"passport is", "my passport number is %s", "X1234567"},
	{"passport in French", "passeport %s", "12AB34567"},
	{"passport in Spanish", "pasaporte: %s", "XDB123456"},
	{"password in Spanish", "contraseña: %s", "Secreto99!"},
	{"password in French", "mot de passe: %s", "Secret99!"},
	{"password in Portuguese", "senha=%s", "Segredo99!"},
	{"password in Polish", "hasło: %s", "Tajne99!"},
	{"password in Russian", "пароль: %s", "Sekret99!"},
	{"password in Chinese", "密码：%s", "mima99X!"},
	{"password in Japanese", "パスワード: %s", "himitsu99!"},
	{"password URL-encoded", "next=%%2Flogin%%3Fuser%%3Dbob%%26password%%3D%s", "Hunter2x9"},
	{"password behind a JSON escape", `password=%s`, "Hunter2x9"},
	{"e-mail URL-encoded", "to=%s&subject=hi", "jane.doe%40example.com"},
	{"e-mail behind a JSON escape", "from %s", `jane.doe@example.com`},
	{"e-mail with an accented local part", "write to %s", "josé.garcía@example.com"},
	{"e-mail with an international domain", "write to %s", "jane@例え.jp"},
	{"bearer token of letters", "Authorization: Bearer %s", "abcdefghijklmnopqrstuvwxyzABCD"},
	{"GitLab deploy token", "token %s", "gldt-x1Y2z3A4b5C6d7E8f9G0"},
	{"AWS secret after a spaced label", "aws secret %s", awsSecret},
	{"IBAN grouped by dashes", "iban %s", "DE89-3704-0044-0532-0130-00"},
	{"e-mail as HTML character references", "<a>%s</a>", "jane.doe&#64;example.com"},
	{"e-mail in JSON escaped twice", `{\"args\": \"{\\\"to\\\": \\\"%s\\\"}\"}`, `jane.doe\\u0040example.com`},
	{"base64-encoded password URL-encoded", "?q=conf%%3D%s&x=1", "cGFzc3dvcmQ9SHVudGVyMiF4eQ%3D%3D"},
	{"password behind an HTML character reference", "password&#x3D;%s", "Hunter2x9"},
	{"curl user and password", "curl -u admin:%s https://api.example.com", "S3cretPass"},
	{"curl --user", "curl --user=admin:%s https://api.example.com", "S3cretPass"},
	{"redis-cli -a", "redis-cli -h cache -a %s ping", "R3disPass"},
	{"sshpass -p quoted", "sshpass -p '%s' ssh root@host", "S3cret Pass"},

	// National identity numbers of other countries.
	{"Canadian SIN labelled", "SIN %s", "046 454 286"},
	{"Canadian SIN dashed", "customer %s on file", "046-454-286"},
	{"Canadian SIN bare after its label", `{"social_insurance_number": "%s"}`, "046454286"},
	{"UK NINO spaced", "NI number %s", "QQ 12 34 56 C"},
	{"UK NINO bare", "ref %s", "AB123456C"},
	{"UK NINO labelled in lower case", "National Insurance number: %s", "ab 12 34 56 c"},
	{"Aadhaar grouped", "id %s", "2345 6789 0124"},
	{"Aadhaar labelled bare", "aadhaar no: %s", "234567890124"},
	{"Indian PAN", "PAN %s", "ABCPE1234F"},
	{"Mexican CURP", "curp %s", "GODE561231HDFRRN04"},
	{"Chinese resident id", "身份证 %s", "11010519491231002X"},
	{"French NIR grouped", "sécu %s", "1 84 12 76 451 089 46"},
	{"French NIR bare", "nir=%s", "184127645108946"},
	{"German tax id", "Steuer-ID: %s", "65929970489"},
	{"Brazilian CPF", "cpf %s", "123.456.789-09"},
	{"Brazilian CPF bare after its label", "CPF: %s", "12345678909"},
	{"Spanish DNI", "DNI %s", "12345678Z"},
	{"Spanish NIE", "NIE %s", "X1234567L"},
	{"Korean resident registration number", "rrn %s", "900101-1234567"},
	{"Japanese individual number", "マイナンバー: %s", "1234 5678 9018"},
	{"Italian fiscal code", "cf %s", "RSSMRA85T10A562S"},
	{"driver's licence", "driver's license %s", "D1234567"},
	{"US employer id", "EIN: %s", "12-3456789"},
	{"Australian Medicare number", "Medicare %s", "2123 45670 1"},
	{"Dutch BSN", "BSN %s", "111222333"},
	{"Polish PESEL", "PESEL: %s", "44051401359"},
	{"Swedish personnummer", "personnummer %s", "811218-9876"},
	{"card security code", "card ok, CVV: %s", "737"},
	{"API subscription key", "Ocp-Apim-Subscription-Key: %s", "0123456789abcdef0123456789abcdef"},

	// Cards, addresses and credentials written to dodge a scanner.
	{"card grouped by dots", "card %s", "4111.1111.1111.1111"},
	{"card grouped by underscores", "card %s", "4111_1111_1111_1111"},
	{"Amex grouped by dots", "amex %s", "3782.822463.10005"},
	{"e-mail with [at] and [dot]", "mail %s please", "jane [at] example [dot] com"},
	{"e-mail with (at)", "mail %s please", "jane(at)example.com"},
	{"e-mail with AT and DOT", "mail %s please", "jane AT example DOT com"},
	{"e-mail with at and dot", "reach me: %s", "jane.doe at example dot co dot uk"},
	{"basic credentials without their header", "Basic %s", "dXNlcjpwYXNzd29yZA=="},
	{"base64 user and password alone", "creds %s end", "YWRtaW46aHVudGVyMg=="},

	// Phones of other large countries.
	{"Indian mobile", "call %s", "98765 43210"},
	{"Chinese mobile", "call %s", "138 0013 8000"},
	{"Indonesian mobile", "call %s", "0812-3456-7890"},
	{"Russian number", "call %s", "8 (912) 345-67-89"},
	{"Mexican number", "llama al %s", "55 1234 5678"},
	{"E.164 number", "call %s", "+14155552671"},

	// Keys in other encodings and cloud credentials.
	{"PuTTY private lines", "PuTTY-User-Key-File-2: ssh-rsa\nEncryption: none\nPrivate-Lines: 2\n%s\nPrivate-MAC: 1a2b", "AAABAQCmXmR7kqF9tZ2s\nQ29tcGxldGVseUZha2U"},
	{"JSON Web Key d", `{"kty":"EC","crv":"P-256","d":"%s"}`, "jpsQnnGQmL-YBIffH1136cspYG6-0iY7X1fCE9-E9LI"},
	{"AWS session token", "token %s", "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQDcnU1Q3bq5p3xZvT"},
	{"older AWS session token", "t %s", "FwoGZXIvYXdzEJr//////////wEaDHVzLWVhc3QtMSJHMEUCIQDcnU1Q3bq5p3xZvT"},
	{"Azure AD client secret", "client secret %s", "abc8Q~xyzDEF123ghiJKL456mnoPQR789stuVW"},
	{"Azure storage account key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=%s;EndpointSuffix=core.windows.net", "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw=="},
	{"authorization header of another scheme", "Authorization: Token %s", "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"},
	{"URL query key", "GET /v1/x?key=%s&q=1", "abc123def456"},
	{"URL query KEY", "GET /v1/x?KEY=%s", "abc123def456"},
	{"URL query auth", "GET /v1/x?auth=%s", "abc123def456"},
	{"api key with a dot", "api.key=%s", "abc123def456"},
	{"pass-word label", "pass-word: %s", "abc123def456"},
}

// lookAlikes must come through unchanged: they have the shape of a secret
// but not its substance.
var lookAlikes = []struct{ name, in string }{
	{"order id", "order #W2378156 was delivered"},
	{"order with item ids", `{"order_id": "#W4817420", "item_ids": ["6555827912", "1008292230"]}`},
	{"UPS tracking number", "tracking 1Z999AA10123456784"},
	{"USPS tracking number", "tracking 9400 1000 0000 0000 0000 00"},
	{"card-shaped number failing Luhn", "ref 4111 1111 1111 1112"},
	{"long id failing Luhn", "case 2345678901234 opened"},
	{"millisecond timestamp", `"ts": 1700000000000`},
	{"nanosecond timestamp", "t=1717171717171717171"},
	{"ISO timestamp", "2024-01-15T10:30:45.123Z"},
	{"IBAN failing mod 97", "GB82 WEST 1234 5698 7654 33"},
	{"IBAN-shaped word", "the DE89 model"},
	{"semantic version", "upgraded to 2.4.1 from 2.3.9"},
	{"v-prefixed four-part version", "build v1.2.3.4 is broken"},
	{"pinned version", "pin requests to 2.31.0 and pinned numpy"},
	{"ISO date", "on 2024-01-15 at 10:30:45"},
	{"slash date", "15/01/2024 and 01/15/2024"},
	{"UUID", "id 123e4567-e89b-12d3-a456-426614174000"},
	{"commit hash", "commit a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 (e50f3c3)"},
	{"sha256 digest", "sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
	{"ISBN-13 with dashes", "ISBN 978-3-16-148410-0"},
	{"bare ISBN", "ISBN 9780306406157"},
	{"prices", "$1,299.99 or €12.50, total 1,234,567.00"},
	{"step indices", "Step 12 of 40: see step 3 and [7]"},
	{"long plain number", "The answer is 5551234567"},
	{"range", "100-200"},
	{"word password without a value", "Enter your password to continue; password reset links expire."},
	{"password label on its own line", "Password:\nNext, click Sign in."},
	{"prose after password colon", "Invalid password: too short"},
	{"prose after password is", "The password is incorrect."},
	{"prose after api key is", "the API key is missing"},
	{"test runner pass line", "--- PASS: TestLogin (0.00s)"},
	{"working directory", "PWD=/home/dev/project"},
	{"bypass and compass", "bypass: true, compass=north"},
	{"max tokens", `{"max_tokens": 4096, "total_tokens": 12345678}`},
	{"prose token", "the token: it expired"},
	{"password env reference", "password=${DB_PASSWORD}"},
	{"masked password", `"password": "********"`},
	{"null secret", `"api_key": null`},
	{"hidden secret", "secret: (hidden)"},
	{"loopback", "listening on 127.0.0.1:11434"},
	{"retina image", "icon@2x.png"},
	{"at mention", "ping @alice and use @property"},
	{"C++ scope", "std::vector and add::dead"},
	{"hyphenated sk word", "sk-some-long-hyphenated-identifier-name"},
	{"MAC address", "hw 00:1A:2B:3C:4D:5E"},
	{"coordinates", "48.8566, 2.3522"},
	{"ordinary words", "The Orchestrator asked the WebSurfer to verify the claim."},
	{"version word", "Version 10.0.0.1 released"},
	{"version colon", "version: 1.2.3.4"},
	{"pinned package", "requests==2.31.0.1"},
	{"five-part version", "1.2.3.4.5"},
	{"out-of-range quad", "value 300.1.2.3"},
	{"unspecified", "bind 0.0.0.0"},
	{"netmask", "netmask 255.255.255.0"},
	{"IPv6 loopback", "[::1]:8080"},
	{"year", "In 2024 the answer was 42."},
	{"decimal", "pi is 3.14 and e is 2.718"},
	{"thousands", "1,234 and 1,234,567 items"},
	{"money", "$1,299.99 or €12.50"},
	{"dotted date", "01.02.2024"},
	{"spaced date", "01 02 2024"},
	{"ISBN-10", "ISBN 0-306-40615-2"},
	{"time", "12:30:45"},
	{"scikit-learn", "pip install scikit-learn and sk-learn"},
	{"token count key", "token_count=123456789"},
	{"bearer prose", "send a Bearer token in the header"},
	{"score", "won +3 and lost -2"},
	{"scientific", "6.022e23"},
	{"SSN-shaped number no one holds", "ref 000-12-3456 and 987-65-4321"},
	{"passport without a number", "bring your passport: it is required"},
	{"cookie prose", "Cookie: none set"},
	{"password flag without a value", "run with --password-file ./secret.txt"},
	{"mysql prompting", "mysql -u root -p shop"},
	{"long word", "internationalization and characterization"},
	{"area code of too few digits", "(11) 123"},
	{"percent-encoded prose", "q=hello%20world%21 at 100%25"},
	{"escaped accent", `"caf\u00e9 au lait"`},
	{"escaped path", `"path": "\/usr\/local\/bin"`},
	{"bearer prose in capitals", "Bearer Authentication Is Required"},
	{"passport is prose", "the passport is required"},
	{"score pair", "won 11 91234 games"},
	{"uid and gid", "docker run -u 1000:1000 image"},
	{"HTML references to punctuation", "AT&amp;T said &#8220;hi&#8221; and &#39;ok&#39;"},
	{"decimals with many digits", "p = 0.4111111111111111 and pi = 3.1415926535897932"},
	{"dotted version of four-digit parts", "release 2024.1001.1234.5678"},
	{"at and dot in prose", "look at the dot com bubble and at it dot by dot"},
	{"AT in capitals", "MEET AT NOON DOT"},
	{"base64 of an image", "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="},
	{"base64 of a URL", "aHR0cHM6Ly9leGFtcGxlLmNvbS9wYXRo"},
	{"base64 of a time", "MTI6MzA6NDU="},
	{"authorization prose", "Authorization: required for this endpoint"},
	{"short query code", "GET /status?code=200&key=en"},
	{"SIN-shaped number failing Luhn", "ref 046 454 287"},
	{"numbers in groups of three", "population 123 456 789 in 2024"},
	{"DNI-shaped code with a wrong letter", "ref 12345678A"},
	{"twelve digits in fours failing Verhoeff", "batch 2345 6789 0125"},
	{"fetch credentials mode", `fetch(url, {credentials: "include"}) and credentials: 'same-origin'`},
	{"capitals glued to an id", "FINAL ANSWER: 80NSSC21K0223"},
	{"short numbers after id labels", "DL 2 and TIN 42 and PAN 7"},
	{"security code prose", "the CVV field is required"},
	{"md5 after a key prefix", "cache-key-d41d8cd98f00b204e9800998ecf8427e and id_SK0123456789abcdef0123456789abcdef"},
}

func TestPlantedSecretsDoNotSurvive(t *testing.T) {
	assert.GreaterOrEqual(t, len(plantedSecrets), 40)
	for _, p := range plantedSecrets {
		t.Run(p.name, func(t *testing.T) {
			r := newRedactor(t)
			out := r.String(p.text())
			assert.NotContains(t, out, p.secret)
			assert.Contains(t, out, "[", "masked by a placeholder")
		})
	}
}

func TestLookAlikesSurvive(t *testing.T) {
	assert.GreaterOrEqual(t, len(lookAlikes), 20)
	for _, tt := range lookAlikes {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.in, newRedactor(t).String(tt.in))
		})
	}
}

// Every planted secret in one text, each redacted twice: the placeholders
// are stable and redacting the result again changes nothing.
func TestPlantedSecretsTogether(t *testing.T) {
	var lines []string
	for _, p := range plantedSecrets {
		lines = append(lines, p.text(), p.text())
	}
	in := strings.Join(lines, "\n")
	r := newRedactor(t)
	once := r.String(in)
	for _, p := range plantedSecrets {
		assert.NotContains(t, once, p.secret, p.name)
	}
	assert.Equal(t, once, newRedactor(t).String(once))
	assert.Equal(t, once, r.String(in), "the same redactor gives the same placeholders")
}
