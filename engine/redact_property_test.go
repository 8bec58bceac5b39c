package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"fmt"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	"pgregory.net/rapid"

	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/redact"
	"github.com/offattr/offattr/redact/redacttest"
	"github.com/offattr/offattr/run"
)

// plant is a line of log that holds a secret value.
type plant struct {
	kind         redact.Kind
	line, secret string
}

func digits(t *rapid.T, n int, label string) string {
	return rapid.StringMatching(fmt.Sprintf("[0-9]{%d}", n)).Draw(t, label)
}

// luhn appends the check digit that makes s pass the Luhn check.
func luhn(s string) string {
	sum := 0
	for i := len(s) - 1; i >= 0; i-- {
		d := int(s[i] - '0')
		if (len(s)-i)%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return s + fmt.Sprint((10-sum%10)%10)
}

// iban makes a German IBAN of a random account that passes mod 97.
func iban(t *rapid.T) string {
	bban := digits(t, 18, "bban")
	n, _ := new(big.Int).SetString(bban+"131400", 10) // D=13, E=14, check digits 00
	check := 98 - new(big.Int).Mod(n, big.NewInt(97)).Int64()
	return fmt.Sprintf("DE%02d%s", check, bban)
}

// secretOf draws a random value of each kind, in a line that gives it its
// shape or its label.
var secretOf = map[redact.Kind]func(t *rapid.T) plant{
	redact.PrivateKey: func(t *rapid.T) plant {
		body := rapid.StringMatching(`MII[A-Za-z0-9+/]{40}`).Draw(t, "pem")
		return plant{redact.PrivateKey, "-----BEGIN PRIVATE KEY-----\n" + body + "\n-----END PRIVATE KEY-----", body}
	},
	redact.Token: func(t *rapid.T) plant {
		v := rapid.StringMatching(`[A-Za-z]{8}[0-9]{4}[A-Za-z0-9]{8}`).Draw(t, "token")
		line := rapid.SampledFrom([]string{"Authorization: Bearer %s", "Cookie: sid=%s; theme=dark", "GET /b?sv=2022&sig=%s"}).Draw(t, "token line")
		return plant{redact.Token, fmt.Sprintf(line, v), v}
	},
	redact.APIKey: func(t *rapid.T) plant {
		v := rapid.SampledFrom([]string{"sk-proj-", "ghp_", "hf_"}).Draw(t, "prefix") + rapid.StringMatching(`[A-Za-z]{10}[0-9]{6}[A-Za-z0-9]{20}`).Draw(t, "key")
		return plant{redact.APIKey, "using " + v, v}
	},
	redact.Secret: func(t *rapid.T) plant {
		v := rapid.StringMatching(`[A-Za-z]{6}[0-9]{4}[A-Za-z0-9]{6}`).Draw(t, "secret")
		switch rapid.IntRange(0, 2).Draw(t, "encoded") {
		case 1:
			enc := base64.StdEncoding.EncodeToString([]byte("password=" + v))
			return plant{redact.Secret, "CONF=" + enc, enc}
		case 2:
			enc := base64.StdEncoding.EncodeToString([]byte("admin:" + v))
			return plant{redact.Secret, "Basic " + enc, enc}
		}
		line := rapid.SampledFrom([]string{"api_key=%s", `{"client_secret": "%s"}`, `"private_key_id": "%s"`}).Draw(t, "secret line")
		return plant{redact.Secret, fmt.Sprintf(line, v), v}
	},
	redact.Password: func(t *rapid.T) plant {
		v := rapid.StringMatching(`[A-Za-z]{4}[0-9]{2}[!#%&;.,]{1,2}[A-Za-z0-9]{3}`).Draw(t, "password")
		line := rapid.SampledFrom([]string{"PASSWORD=%s", `{"pwd": "%s"}`, "login --password %s", "mysql -u root -p%s db"}).Draw(t, "password line")
		return plant{redact.Password, fmt.Sprintf(line, v), strings.TrimRight(v, ";")}
	},
	redact.Email: func(t *rapid.T) plant {
		v := rapid.StringMatching(`[a-z]{3,8}\.[a-z]{2,8}@[a-z]{4,10}\.(com|org|de)`).Draw(t, "email")
		if rapid.Bool().Draw(t, "spelt out") {
			local, domain, _ := strings.Cut(v, "@")
			v = local + " [at] " + strings.ReplaceAll(domain, ".", " [dot] ")
		}
		return plant{redact.Email, "write to " + v, v}
	},
	redact.IP: func(t *rapid.T) plant {
		v := fmt.Sprintf("%d.%d.%d.%d", rapid.IntRange(11, 126).Draw(t, "a"), rapid.IntRange(1, 254).Draw(t, "b"),
			rapid.IntRange(1, 254).Draw(t, "c"), rapid.IntRange(1, 254).Draw(t, "d"))
		return plant{redact.IP, "connect to " + v + " failed", v}
	},
	redact.Phone: func(t *rapid.T) plant {
		v := rapid.SampledFrom([]string{
			fmt.Sprintf("(%d) 9%s-%s", rapid.IntRange(11, 99).Draw(t, "ddd"), digits(t, 4, "p1"), digits(t, 4, "p2")),
			"+44 20 7946 " + digits(t, 4, "uk"),
		}).Draw(t, "phone")
		return plant{redact.Phone, "call " + v, v}
	},
	redact.IBAN: func(t *rapid.T) plant {
		v := iban(t)
		return plant{redact.IBAN, "pay to " + v, v}
	},
	redact.Card: func(t *rapid.T) plant {
		v := luhn("4" + digits(t, 14, "card"))
		sep := rapid.SampledFrom([]string{"", " ", "-", ".", "_"}).Draw(t, "card joint")
		v = strings.Join([]string{v[:4], v[4:8], v[8:12], v[12:]}, sep)
		return plant{redact.Card, "card " + v, v}
	},
	redact.SSN: func(t *rapid.T) plant {
		v := fmt.Sprintf("%03d-%02d-%04d", rapid.IntRange(1, 665).Draw(t, "area"), rapid.IntRange(1, 99).Draw(t, "group"), rapid.IntRange(1, 9999).Draw(t, "serial"))
		return plant{redact.SSN, "customer " + v, v}
	},
	redact.NationalID: func(t *rapid.T) plant {
		if rapid.Bool().Draw(t, "SIN") {
			v := luhn(rapid.StringMatching(`[1-79][0-9]{7}`).Draw(t, "sin"))
			sep := rapid.SampledFrom([]string{" ", "-"}).Draw(t, "sin joint")
			return plant{redact.NationalID, "customer " + v[:3] + sep + v[3:6] + sep + v[6:], v[:3] + sep + v[3:6] + sep + v[6:]}
		}
		v := rapid.StringMatching(`[A-CEGHJ-PR-TW-Z]{2}[0-9]{6}[A-D]`).Draw(t, "nino")
		return plant{redact.NationalID, "NI number " + v, v}
	},
	redact.Passport: func(t *rapid.T) plant {
		v := rapid.StringMatching(`[A-Z][0-9]{7}`).Draw(t, "passport")
		return plant{redact.Passport, "Passport no. " + v, v}
	},
}

// escapes are the ways a log writes a character escaped: URL-encoded,
// with JSON's \u escape, as an HTML character reference.
var escapes = []func(r rune) string{
	func(r rune) string { return fmt.Sprintf("%%%02X", r) },
	func(r rune) string { return fmt.Sprintf(`\u%04x`, r) },
	func(r rune) string { return fmt.Sprintf("&#%d;", r) },
}

// escaped writes a plant's line, some of the time, with its punctuation
// escaped one way; the secret sought is then as the line writes it.
func escaped(t *rapid.T, pl plant) plant {
	if !rapid.Bool().Draw(t, "escaped") {
		return pl
	}
	esc := escapes[rapid.IntRange(0, len(escapes)-1).Draw(t, "escape")]
	write := func(s string) string {
		var b strings.Builder
		for _, r := range s {
			if strings.ContainsRune("@=:/+", r) {
				b.WriteString(esc(r))
			} else {
				b.WriteRune(r)
			}
		}
		return b.String()
	}
	return plant{pl.kind, write(pl.line), write(pl.secret)}
}

// TestSecretsPlantedAnywhereReachNoOutput plants random values of every
// kind, written plainly or escaped, in random places of random runs (the task, a step's text, a tool
// call's arguments, an agent's name, a trace or span id, the run's file
// name, the event a step was read from) and checks that
// no string of the analysis holds them: the attribution, the findings, the
// run and features as the stages read them, and the graph as JSON, DOT and
// Mermaid.
func TestSecretsPlantedAnywhereReachNoOutput(t *testing.T) {
	p, err := redact.Compile(redact.Options{})
	require.NoError(t, err)
	analyze, err := New(Options{Redact: p})
	require.NoError(t, err)
	var kinds []redact.Kind
	for k := range secretOf {
		kinds = append(kinds, k)
	}
	require.Len(t, kinds, 13, "a generator for every kind but the user's and withheld text")
	words := []string{"the", "order", "42", "shipped", "Coder", "run", "search(q)", "found", "2024-01-15", "ok", "\n"}
	rapid.Check(t, func(t *rapid.T) {
		agents := []string{"Planner", "Coder", "Checker"}
		r := &run.Run{Source: "x.json", Question: "Find the order of 2024.", GroundTruth: "42"}
		var segments [][]string // each step's text: words, and lines planted whole
		for i := range rapid.IntRange(2, 10).Draw(t, "steps") {
			segments = append(segments, rapid.SliceOfN(rapid.SampledFrom(words), 0, 12).Draw(t, "words"))
			s := run.Step{Index: i, Agent: rapid.SampledFrom(agents).Draw(t, "agent"), Kind: run.KindMessage,
				Extra: &run.Extra{TraceID: "5b8efff798038103d269b633813fc60c", SpanID: fmt.Sprintf("%016x", i+1)},
			}
			if rapid.Bool().Draw(t, "call") {
				s.Edit().ToolCalls = []run.ToolCall{{ID: fmt.Sprintf("call_%d", i), Name: "search", Arguments: `{"q": "order"}`}}
			}
			r.Steps = append(r.Steps, s)
		}
		var plants []plant
		for range rapid.IntRange(1, 4).Draw(t, "plants") {
			pl := escaped(t, secretOf[rapid.SampledFrom(kinds).Draw(t, "kind")](t))
			plants = append(plants, pl)
			step := rapid.IntRange(0, len(r.Steps)-1).Draw(t, "step")
			s := &r.Steps[step]
			switch place := rapid.IntRange(0, 7).Draw(t, "place"); {
			case place == 0:
				r.Question += "\n" + pl.line + "\n"
			case place == 1 && len(s.ToolCalls()) > 0:
				s.ToolCalls()[0].Arguments = fmt.Sprintf(`{"q": %q}`, pl.line)
			case place == 2 && (pl.kind == redact.Email || pl.kind == redact.APIKey):
				// A name or an id is the value itself, not a line.
				for i := range r.Steps {
					if r.Steps[i].Agent == s.Agent {
						r.Steps[i].Agent = pl.secret
					}
				}
			case place == 3 && (pl.kind == redact.Email || pl.kind == redact.APIKey):
				s.Edit().TraceID = pl.secret
			case place == 4 && (pl.kind == redact.Email || pl.kind == redact.APIKey):
				s.Edit().SpanID = pl.secret
			case place == 5 && (pl.kind == redact.Email || pl.kind == redact.APIKey):
				r.Source = "runs/" + pl.secret + ".json"
			case place == 6 && (pl.kind == redact.Email || pl.kind == redact.APIKey):
				s.Edit().From = "event " + pl.secret
			default:
				// Between two of the step's words, never inside a line
				// planted before, which would lose the secret's shape.
				at := rapid.IntRange(0, len(segments[step])).Draw(t, "at")
				segments[step] = slices.Insert(segments[step], at, "\n"+pl.line+"\n")
			}
		}
		for i, segs := range segments {
			r.Steps[i].Content = strings.Join(segs, " ")
		}
		res, err := analyze(context.Background(), r)
		require.NoError(t, err)
		outputs := redacttest.Strings([]any{res.Attribution, res.Findings, res.Input.Run, res.Input.Features})
		for _, write := range []func(*bytes.Buffer, ...graph.EdgeType) error{
			func(b *bytes.Buffer, ts ...graph.EdgeType) error { return res.Input.Graph.WriteJSON(b, ts...) },
			func(b *bytes.Buffer, ts ...graph.EdgeType) error { return res.Input.Graph.WriteDOT(b, ts...) },
			func(b *bytes.Buffer, ts ...graph.EdgeType) error { return res.Input.Graph.WriteMermaid(b, ts...) },
		} {
			var b bytes.Buffer
			require.NoError(t, write(&b))
			outputs = append(outputs, b.String())
		}
		for _, pl := range plants {
			for _, out := range outputs {
				if strings.Contains(out, pl.secret) {
					t.Fatalf("%s %q reached an output:\n%s\nfrom the run %#v", pl.kind, pl.secret, out, r)
				}
			}
		}
	})
}
