package extract

import (
	"cmp"
	"encoding/json"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

func TestNormalizeClaim(t *testing.T) {
	tests := []struct {
		kind ClaimKind
		in   string
		want string
	}{
		{ClaimNumber, "1,234", "1234"},
		{ClaimNumber, "1234.0", "1234"},
		{ClaimNumber, "1234", "1234"},
		{ClaimNumber, "high 18F", "18 °F"},
		{ClaimNumber, "a low of -3C overnight", "-3 °C"},
		{ClaimNumber, "seat 18F", "18"},
		{ClaimNumber, "$1,234.50", "1234.5"},
		{ClaimNumber, `\$232.00`, "232"},
		{ClaimNumber, "-$23.00", "-23"},
		{ClaimNumber, "25 percent", "25%"},
		{ClaimNumber, "25%", "25%"},
		{ClaimNumber, "1.08 billion", "1080000000"},
		{ClaimNumber, "$5M", "5000000"},
		{ClaimNumber, "78 kg", "78 kg"},
		{ClaimNumber, "1.46 Miles", "1.46 mi"},
		{ClaimNumber, "06385", "06385"},
		{ClaimDate, "March 5, 2020", "2020-03-05"},
		{ClaimDate, "5th of March 2020", "2020-03-05"},
		{ClaimDate, "2020-3-5", "2020-03-05"},
		{ClaimDate, "11/24/22", "2022-11-24"},
		{ClaimDate, "24/11/2022", "2022-11-24"},
		{ClaimDate, "July 2023", "2023-07"},
		{ClaimDate, "06/2026", "2026-06"},
		{ClaimDate, "6/2026", "2026-06"},
		{ClaimTime, "11pm", "23:00"},
		{ClaimTime, "7:30 a.m.", "07:30"},
		{ClaimTime, "12 AM", "00:00"},
		{ClaimTime, "7:30 in the evening", "19:30"},
		{ClaimTime, "7:30 in the morning", "07:30"},
		{ClaimTime, "19:30 in the evening", "19:30"},
		{ClaimTime, "9 o'clock at night", "21:00"},
		{ClaimTime, "half past seven", "07:30"},
		{ClaimTime, "half past seven in the evening", "19:30"},
		{ClaimTime, "a quarter to eight pm", "19:45"},
		{ClaimTime, "quarter past twelve in the afternoon", "12:15"},
		{ClaimTime, "quarter to one", "12:45"},
		{ClaimURL, "https://WWW.Example.com/a/.", "example.com/a"},
		{ClaimURL, "http://example.com/page#google_vignette", "example.com/page"},
		{ClaimQuoted, `"Subway  (1985)"`, "subway (1985)"},
		{ClaimEntity, "The Seattle Children's Museum", "seattle children museum"},
		{ClaimPath, "/workspace/76.pdf.", "workspace/76.pdf"},
		{ClaimPath, "/repo/durations/parser.py", "durations/parser.py"},
		{ClaimPath, "./durations/parser.py", "durations/parser.py"},
		{ClaimPath, "setup.py", "setup.py"},
	}
	for _, tt := range tests {
		t.Run(string(tt.kind)+" "+tt.in, func(t *testing.T) {
			assert.Equal(t, tt.want, NormalizeClaim(tt.kind, tt.in))
		})
	}
}

func TestClaimsInText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string // keys, in order
	}{
		{"money and plain number match by value", "It costs $1,234.50, i.e. 1234.5.", []string{"number:1234.5"}},
		{"list markers are not claims", "1. Gather information\n2. Compare costs of 120 tickets", []string{"number:120"}},
		{"small counts are dropped in steps", "for 2 adults and 14 kids", []string{"number:14"}},
		{"phone numbers and ranges are not numbers", "call (212) 555-1234 between 7-9 pm", []string{"time:21:00"}},
		{"a part of the day sets the clock", "at 7:30 in the evening, not 7:30 in the morning", []string{"time:19:30", "time:07:30"}},
		{"a count before a part of the day is no time", "a table for 4 in the evening", nil},
		{"a pair in brackets is two numbers, no sum", "the point [48.137,11]", []string{"number:48.137"}},
		{"a sum with its currency in brackets is one", "fees [1.200,50 €]", []string{"number:1200.5"}},
		{"an hour alone after a word that sets a time is one", "some time after 2? or until 10 please", []string{"time:14:00", "time:10:00"}},
		{"but not before a thing counted", "after 12 days, around 30 people", []string{"number:12 day", "number:30"}},
		{"identifiers are not numbers", "tmp_code_92ba2 and v3.11.2 and 3rd", nil},
		{"code groups a literal's thousands by underscores", "spending = 19_640_000 and 1_000.5", []string{"number:19640000", "number:1000.5"}},
		{"but a name's digits are no number", "order_123_456 and run_2024_001", nil},
		{"a value of compact JSON is a number", `issue_refund({"amount":39.6,"order_id":"88412"})`, []string{"number:39.6", "number:88412"}},
		{"a port or a time's minutes are not", "listening on :8080 from 10:45", []string{"time:10:45"}},
		{"minutes and seconds, or an hour past the day's, are no time of day", "a lap of 45:30, then 24:30, closing at 24:00", []string{"time:24:00"}},
		{"url swallows its digits", "see https://Example.com/a/123?id=456.", []string{"url:example.com/a/123?id=456"}},
		{"file url is a path", "Address: file:///workspace/76.pdf", []string{"path:workspace/76.pdf"}},
		{"date swallows its numbers", "on August 1, 2015 it", []string{"date:2015-08-01"}},
		{"a month in figures is one date, a span of years two numbers", "as of 06/2026, over 2023-24 and 2024-03", []string{"date:2026-06"}},
		{"ISO's month in running text is no month told: a query's bound, a version, a range", "WHERE month >= '2026-06' on release 2026-06, over 2026-06..2026-09", nil},
		{"a span's first date takes the year its second writes", "closed between January 1 and March 31, 2024?", []string{"date:2024-01-01", "date:2024-03-31"}},
		{"so does a day written before its month", "from 1 January – 31 March 2024", []string{"date:2024-01-01", "date:2024-03-31"}},
		{"a span over the new year begins in the year before", "from December 28 to January 3, 2027", []string{"date:2026-12-28", "date:2027-01-03"}},
		{"so does one whose day comes first", "from 20 November – 10 February 2025", []string{"date:2024-11-20", "date:2025-02-10"}},
		{"entities skip sentence-initial common words", "The Bank of America sold it to Subway.", []string{"entity:bank of america", "entity:subway"}},
		{"sentence-initial single word is not a name", "Subway is open.", nil},
		{"unless a list of names starts there", "Farthest apart: Braintree, Massachusetts, Honolulu, Hawaii", []string{"entity:braintree", "entity:massachusetts", "entity:honolulu", "entity:hawaii"}},
		{"a list needs a name after the comma", "Subway, as always, is open. However, Subway closed.", []string{"entity:subway"}},
		{"title case labels are not entities", "Gather Information: find the Louvre", []string{"entity:louvre"}},
		{"json keys are not quoted claims", `{"reason": "it was found", "answer": "yes"}`, nil},
		{"quoted names", `the film "La Gifle" and 'Subway'`, []string{"quoted:la gifle", "entity:la gifle", "quoted:subway"}},
		{"headings carry no entities", "### Step Two: Total Cost\nNothing.", nil},
		{"a patch's envelope carries no entities", "apply_patch(*** Begin Patch\n*** Update File: /repo/cfg/values.py\n@@\n-    return int(raw)\n+    return float(raw)\n*** End Patch\n)", []string{"path:cfg/values.py"}},
		{"a number before a lone unit letter is a value", "it is 828 m tall; 744.4 m on average; done in 12 s", []string{"number:828", "number:744.4", "number:12"}},
		{"a magnitude's k or M against the digits is its value", "a 17k budget, 5M rows, 2.5M and 12K users", []string{"number:17000", "number:5000000", "number:2500000", "number:12000"}},
		{"but a B, a lower-case m or a letter after a space needs a currency", "a 3B model, 15m away, 5 M and 18.30 M; $3B and €40k", []string{"number:3000000000", "number:40000"}},
		{"a number set aside for the one before it is not stated", "45 / 18 is 2.25, not 2.5; the last term is 41 rather than 39, and 20 x 21 = 420", []string{"number:45", "number:18", "number:2.25", "number:41", "number:20", "number:21", "number:420"}},
		{"money as Europe writes it", "move 1.200 € now; balance 3.450,00 EUR; € 2.500,- and 12,50 €", []string{"number:1200", "number:3450", "number:2500", "number:12.5"}},
		{"but dots and commas without money stay as written", "version 1.200 and 12,50 and 60", []string{"number:1.2", "number:12", "number:60"}},
		{"a capture-the-flag flag is one value", "Output: picoCTF{s4lt3d_435_d3crypt10n} and HTB{f4k3_fl4g_f0r_t35t1ng}", []string{"quoted:picoctf{s4lt3d_435_d3crypt10n}", "quoted:htb{f4k3_fl4g_f0r_t35t1ng}"}},
		{"but markup, a set and a body without an underscore are none", `\text{net_income} of {1200} and map{k2v3}`, []string{"number:1200"}},
		{"a place's line, as grep -n prints it, is a number", "config/prod.yaml:14:  timeout: 5000\nsrc/app.go:212:7: undefined", []string{"path:config/prod.yaml", "number:14", "number:5000", "path:src/app.go", "number:212"}},
		{"but not a path's port or a line 0", "localhost/api:8080/x and build/out.txt:0:", []string{"path:build/out.txt"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, c := range claimsOf(newText(tt.in), nil, true) {
				got = append(got, c.Key())
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestClaimsKeepsSmallNumbersInShortTexts(t *testing.T) {
	cs := Claims("2 adults, Yamasaki")
	require.Len(t, cs, 2)
	assert.Equal(t, "number:2", cs[0].Key())
	assert.Equal(t, "entity:yamasaki", cs[1].Key())
}

func TestClaimMatches(t *testing.T) {
	n := func(s string) Claim { return Claims(s)[0] }
	assert.True(t, n("$232.00").Matches(n("232")))
	assert.True(t, n("1,234").Matches(n("1234.0")))
	assert.False(t, n("25%").Matches(n("25 km")))
	v, ok := n("1.5 km").Number()
	require.True(t, ok)
	assert.InDelta(t, 1.5, v, 1e-9)
}

// TestAgentNamesAreNotEntities: the words of an agent's name, wherever it
// is mentioned and however it is written, are not a name of something
// else; the same words without the rest of the name still are.
func TestAgentNamesAreNotEntities(t *testing.T) {
	agents := map[string]bool{}
	for _, a := range []string{"ZqAB Y", "DoctorWhoScript_Expert", "Dr Lena Holm"} {
		agents[agentKey(a)], agents[entityNorm(a)] = true, true
	}
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Next, ZqAB Y checks the map of Norway.", []string{"norway"}},
		{"Next, ZqAB checks the map of Norway.", []string{"zqab", "norway"}},
		{"As the Doctor Who Script Expert, I read the script of Series Nine.", []string{"series nine"}},
		{"The Doctor Who Script is the source.", []string{"doctor who script"}},
		{"The report by Lena Holm names the Danube.", []string{"lena holm", "danube"}},
		{"The report by Dr Lena Holm names the Danube.", []string{"danube"}},
	} {
		var got []string
		for _, cl := range claimsOf(newText(c.text), newAgentSet(agents), false) {
			if cl.Kind == ClaimEntity {
				got = append(got, cl.Norm)
			}
		}
		assert.Equal(t, c.want, got, c.text)
	}
}

func TestClaimOffsetsAreBytes(t *testing.T) {
	s := "Taishō Tamai wore 19 in 2023."
	for _, c := range claimsOf(newText(s), nil, true) {
		assert.Equal(t, c.Text, s[c.Offset:int(c.Offset)+len(c.Text)], c.Key())
	}
}

// TestMarkedUpValues: a figure bolded or set as code apart from its unit,
// its multiplier or the month before it states the same value as the
// plain one; a product in code is no quantity.
func TestMarkedUpValues(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"The tower is 361 yards tall, 1083 feet.", []string{"361", "1083 ft"}},
		{"The tower is **361** yards tall, **1083** feet.", []string{"361", "1083 ft"}},
		{"It sold for **$1.08** billion.", []string{"1080000000"}},
		{"It sold for `$1.08` billion.", []string{"1080000000"}},
		{"It takes *42* minutes.", []string{"42 min"}},
		{"The August **2021** issue.", []string{"2021-08"}},
		{"Published on March **5**, 2020.", []string{"2020-03-05"}},
		{"area = 25*m", []string{"25"}},
	} {
		var got []string
		for _, cl := range claimsOf(newText(c.text), nil, true) {
			if cl.Kind == ClaimNumber || cl.Kind == ClaimDate {
				got = append(got, cl.Norm)
			}
		}
		assert.Equal(t, c.want, got, c.text)
	}
}

// TestQuantitiesInWords: a number in words with a unit is the quantity
// its digits would state; an order of magnitude, an article, a name and a
// number in words without a unit are not read so. An amount of money
// written with its hundredths after its currency's name is one amount,
// in words or in digits ("5 pounds 50p").
func TestQuantitiesInWords(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"A yard is 3 feet.", []string{"3 ft"}},
		{"A yard is three feet.", []string{"3 ft"}},
		{"It ran for twenty-four hours and fifty-nine minutes.", []string{"24 h", "59 min"}},
		{"It formed a few million years ago, one day.", nil},
		{"Three experts met; Ocean's Eleven minutes.", nil},
		{"The lamp was a hundred and twenty dollars; a thousand years.", []string{"120"}},
		{"Put fifty pounds on it.", []string{"50"}},
		{"Adults pay twenty-one pounds and fifty pence, children seventeen pounds.", []string{"21.5", "17"}},
		{"Put 5 pounds 50p on it, and 12 dollars and 5 cents on the other.", []string{"5.5", "12.05"}},
		{"Top it up by £5.50, or 5 pounds.", []string{"5.5", "5"}},
	} {
		var got []string
		for _, cl := range claimsOf(newText(c.text), nil, true) {
			if cl.Kind == ClaimNumber {
				got = append(got, cl.Norm)
			}
		}
		assert.Equal(t, c.want, got, c.text)
	}
}

// TestSentenceStartAfterAnySpace: a capitalised word opening a sentence
// is no name whichever space stands before it (a page's no-break or em
// space reads as a space).
func TestSentenceStartAfterAnySpace(t *testing.T) {
	for _, text := range []string{"3 Discography. 4 References.", "3\u00a0Discography. 4\u00a0References.", "Done.\u2003Discography follows."} {
		var got []string
		for _, cl := range claimsOf(newText(text), nil, true) {
			if cl.Kind == ClaimEntity {
				got = append(got, cl.Norm)
			}
		}
		assert.Empty(t, got, "%q", text)
	}
}

// TestWordAfterAProtocolTagIsNoName: a protocol's tag in capitals
// (ChatDev's "<INFO> Finished") opens what follows as a sentence does, so
// the word after it is no name; a name inside an HTML tag still is.
func TestWordAfterAProtocolTagIsNoName(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"I have no further comments.\n\n<INFO> Finished", nil},
		{"The software ran successfully. <INFO> Finished", nil},
		{"The capital is <b>Canberra</b> since 1913.", []string{"canberra"}},
	} {
		var got []string
		for _, cl := range claimsOf(newText(tt.text), nil, true) {
			if cl.Kind == ClaimEntity {
				got = append(got, cl.Norm)
			}
		}
		assert.Equal(t, tt.want, got, "%q", tt.text)
	}
}

// TestAssentIsNoName: a word that assents, opening an answer read
// leniently, is no name of it, however the assent is worded.
func TestAssentIsNoName(t *testing.T) {
	for _, text := range []string{"Sure, the area is 259.81.", "Agreed, the area is 259.81."} {
		var got []string
		for _, cl := range Claims(text) {
			if cl.Kind == ClaimEntity {
				got = append(got, cl.Norm)
			}
		}
		assert.Empty(t, got, "%q", text)
	}
}

// TestAgentNumbersAreNotValues: a number that ends an agent's name where
// the name is mentioned says who, not what, and the words before it are
// not a name of something else; the same number standing alone is still a
// value.
func TestAgentNumbersAreNotValues(t *testing.T) {
	agents := map[string]bool{"agent10": true, "researchagent2": true}
	agents[agentKey("Web Surfer-3")] = true
	for _, c := range []struct {
		text string
		want []string
	}{
		{"Agent 10 found 42 results.", []string{"42"}},
		{"Over to Agent 10.", nil},
		{"As agent-10 said, the answer is 7 km.", []string{"7 km"}},
		{"Research Agent 2 counted 17 stations.", []string{"17"}},
		{"web surfer 3 opened the page and saw 1,234 rows", []string{"1234"}},
		{"Agent 11 found 42 results.", []string{"11", "42"}},
		{"The count is 10.", []string{"10"}},
	} {
		var got []string
		for _, cl := range claimsOf(newText(c.text), newAgentSet(agents), false) {
			switch cl.Kind {
			case ClaimNumber:
				got = append(got, cl.Norm)
			case ClaimEntity:
				if !strings.Contains(c.text, "11") {
					assert.NotContains(t, []string{"agent", "research agent", "web surfer"}, cl.Norm, "a part of an agent's name: %s", c.text)
				}
			}
		}
		assert.Equal(t, c.want, got, c.text)
	}
}

// FuzzAgentNameEndingAt holds agentNameEndingAt, which first rules out a
// number that ends no agent's key, to the words before the number read
// and joined as they stand.
func FuzzAgentNameEndingAt(f *testing.F) {
	for _, s := range []string{"Agent 10 found 42", "research-agent-2", "Web Surfer-3 says 3", "Dr Smith 2", "agent 1,000", "x 10", "10"} {
		f.Add(s)
	}
	agents := map[string]bool{"agent10": true, "researchagent2": true, "websurfer3": true, "drsmith2": true, "agent1000": true, "0": true}
	// The same names looked up in a set large enough to be searched
	// through its index: the names added end in no number.
	small, large := newAgentSet(agents), newAgentSet(padded(agents))
	plain := func(s string, start, end int) (int, bool) {
		key := agentKey(s[start:end])
		for i, words := start, 0; words < 3; words++ {
			k, j := wordBefore(s, i)
			if k == j || j == i && words == 0 {
				return 0, false
			}
			if key = agentKey(s[k:j]) + key; agents[key] {
				return k, true
			}
			i = k
		}
		return 0, false
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range newText(s).numbers(maxMatches) {
			wantFrom, wantOK := plain(s, m.all.Start, m.all.End)
			for _, set := range []*agentSet{small, large} {
				from, ok := agentNameEndingAt(s, m.all.Start, m.all.End, set)
				assert.Equal(t, [2]any{wantFrom, wantOK}, [2]any{from, ok}, "%q at %d, %d names", s, m.all.Start, len(set.keys))
			}
		}
	})
}

func TestVerdictsAreNotAnswers(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Thus, the result is verified. The final answer is 42.", "42"},
		{"We have confirmed that the result is accurate. FINAL ANSWER: Paris", "Paris"},
		{"The answer is as follows:\n- Paris", ""},
		{"The final answer is well-rounded. Therefore, the answer is 7 km.", "7 km"},
		{"The result is correct.", ""},
		{"The answer is Correctional Services of Canada.", "Correctional Services of Canada"},
		// A verdict worded otherwise: what was done to the answer.
		{"- Ensure the solution is checked for correctness.", ""},
		{"The result is double-checked against the source. The final answer is 42.", "42"},
		{"The answer is validated. Thus, the answer is 142 (thousand years).", "142 (thousand years)"},
		{"The answer is red.", "red"},
		{"The answer is Alfred.", "Alfred"},
		// After a label's colon, in a box or in answer tags, a participle
		// is the value given, not a passive saying what was done to it.
		{"The page says what happened.\n\nFINAL ANSWER: vetoed", "vetoed"},
		{"Answer: delivered", "delivered"},
		{"So \\boxed{married}.", "married"},
		{"<answer>cancelled</answer>", "cancelled"},
		{"The final answer is: verified", ""},
	} {
		rf := Run(&run.Run{Steps: []run.Step{{Agent: "A", Kind: run.KindMessage, Content: c.text}}})
		assert.Equal(t, c.want, rf.Steps[0].Answer, c.text)
	}
}

// FuzzDecimalIsItsRat: decimalNorm writes the digits of a number, integers
// included, as big.Rat and ratString would, wherever it reads them.
func FuzzDecimalIsItsRat(f *testing.F) {
	for _, d := range []string{"0", "7", "1234", "10", "12345678901234567890123", "0.0", "007", "1.50", "0.000000000001", "12.3456789012345", "00.10", ".5", "", "1.2.3", "١.٥", "12345678901234567890.5"} {
		f.Add(d, false)
		f.Add(d, true)
	}
	f.Fuzz(func(t *testing.T, d string, neg bool) {
		n, ok := decimalNorm(d, neg)
		if !ok {
			return
		}
		v, ok := new(big.Rat).SetString(d)
		require.True(t, ok, d)
		if neg {
			v.Neg(v)
		}
		assert.Equal(t, ratString(v), n, "%q negated %v", d, neg)
	})
}

// FuzzCollapse: collapse returns a text it finds collapsed as it stands,
// where it otherwise joins the fields; the two must agree.
func FuzzCollapse(f *testing.F) {
	for _, s := range []string{"", " ", "Paris", "New York", "New  York", " a", "a ", "a\tb", "a\u00a0b", "a\u0085b", "héllo world", "x\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		assert.Equal(t, strings.Join(strings.Fields(s), " "), collapse(s), "%q", s)
	})
}

// TestDedupeScanOrMap: a list short enough to be scanned and one long
// enough to be indexed keep the same claims, the first of each kind and
// value in order of offset, as a map kept over any list does.
func TestDedupeScanOrMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	kinds := []ClaimKind{ClaimNumber, ClaimEntity, ClaimDate}
	for n := 1; n <= 3*dedupeScan; n++ {
		for range 20 {
			cs := make([]Claim, n)
			for i := range cs {
				cs[i] = Claim{Kind: kinds[rng.IntN(len(kinds))], Norm: strconv.Itoa(rng.IntN(n/2 + 1)), Offset: int32(rng.IntN(2 * n))}
			}
			slices.SortStableFunc(cs, func(a, b Claim) int { return cmp.Compare(a.Offset, b.Offset) })
			var want []Claim
			seen := map[string]bool{}
			for _, c := range cs {
				if !seen[c.Key()] && len(want) < maxClaims {
					seen[c.Key()] = true
					want = append(want, c)
				}
			}
			assert.Equal(t, want, dedupe(slices.Clone(cs)), "%d claims", n)
		}
	}
}

// BenchmarkClaimsDev reads the claims of every dev step once per
// iteration, its text read beforehand: the part of extraction claimsOf is.
func BenchmarkClaimsDev(b *testing.B) {
	texts := loweredTexts(devRuns(b))
	cpu := cpuTime()
	for b.Loop() {
		for _, t := range texts {
			claimsOf(t, nil, true)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu)/float64(b.N), "cpu-ns/op")
}

// TestClaimJSON: a claim's JSON keeps its fields in the order readers
// know, and reads back as it was.
func TestClaimJSON(t *testing.T) {
	c := Claim{Kind: ClaimNumber, Text: "1,234", Norm: "1234", Offset: 7}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	assert.Equal(t, `{"kind":"number","text":"1,234","norm":"1234","offset":7}`, string(b))
	var back Claim
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, c, back)
	assert.Error(t, json.Unmarshal([]byte(`{"kind":"bogus"}`), &back))
}

// A JSON document's keys name its fields: a team whose roles post their
// documents as JSON objects (MetaGPT's "[CONTENT] {...} [/CONTENT]")
// repeats the same keys in every one, and what a key holds is the claim.
// A title in quotes elsewhere in prose is still a name.
func TestJSONKeysAreNotEntities(t *testing.T) {
	for _, c := range []struct {
		name, text string
		keys       []string // not entities
		want       []string // entities
	}{
		{"keys of a document", "[CONTENT]\n{\n    \"Programming Language\": \"Python\",\n    \"Anything UNCLEAR\": \"\",\n    \"Competitive Analysis\": [\"Acme Shipping Calculator\"]\n}\n[/CONTENT]",
			[]string{"programming language", "anything unclear", "competitive analysis"}, []string{"acme shipping calculator"}},
		{"keys on the object's line", "{\"Product Goals\": [\"A checkout for Northwind Traders\"], \"User Stories\": []}",
			[]string{"product goals", "user stories"}, []string{"northwind traders"}},
		{"a quoted title in prose", "The novel \"Pale Fire\": a poem and its commentary.", nil, []string{"pale fire"}},
		{"the fields of a tool's record", "{\"order_id\": \"#W4817420\", \"Order Status\": \"Processing\", \"Shipping Carrier\": \"UPS Ground\", \"Refund Eligible\": false, \"Gift Note\": null}",
			[]string{"order status", "shipping carrier", "refund eligible", "gift note"}, []string{"ups ground"}},
		{"values named by their keys", "{\"source\": \"INSEE 2021\", \"populations\": {\"Paris\": 2133111, \"Marseille\": 873076}, \"Alice Smith\": {\"age\": 30}}",
			nil, []string{"paris", "marseille", "alice smith"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got []string
			for _, cl := range claimsOf(newText(c.text), nil, false) {
				if cl.Kind == ClaimEntity {
					got = append(got, cl.Norm)
				}
			}
			for _, k := range c.keys {
				assert.NotContains(t, got, k)
			}
			for _, w := range c.want {
				assert.Contains(t, got, w)
			}
		})
	}
}

// FuzzClockTimes: every time a text is read to hold is a time of a
// 24-hour clock, however its hour and part of the day are written.
func FuzzClockTimes(f *testing.F) {
	for _, s := range []string{"7:30 in the evening", "half past seven", "a quarter to one am", "19:30 in the morning", "12 o'clock at night", "quarter past 13 pm", "half to nine", "9:75 tonight", "a table for 4 in the evening"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, c := range Claims(s) {
			if c.Kind != ClaimTime {
				continue
			}
			require.Len(t, c.Norm, 5, c.Text)
			h, err := strconv.Atoi(c.Norm[:2])
			require.NoError(t, err, c.Norm)
			m, err := strconv.Atoi(c.Norm[3:])
			require.NoError(t, err, c.Norm)
			require.True(t, h <= 24 && m <= 59 && c.Norm[2] == ':', c.Norm)
		}
	})
}

// TestClaimMoney: a number claim is a sum of money when a currency's
// sign, code or name stands beside its figure, however the figure is
// written; a figure with another unit, or none, is not, nor is a claim
// of another kind.
func TestClaimMoney(t *testing.T) {
	for _, tt := range []struct {
		claim Claim
		want  bool
	}{
		{Claim{Kind: ClaimNumber, Text: "$14.00"}, true},
		{Claim{Kind: ClaimNumber, Text: "US$14"}, true},
		{Claim{Kind: ClaimNumber, Text: "14.00 USD"}, true},
		{Claim{Kind: ClaimNumber, Text: "GBP 142"}, true},
		{Claim{Kind: ClaimNumber, Text: "1.200 €"}, true},
		{Claim{Kind: ClaimNumber, Text: "14 dollars"}, true},
		{Claim{Kind: ClaimNumber, Text: "twenty-one pounds and fifty pence"}, true},
		{Claim{Kind: ClaimNumber, Text: "14 km"}, false},
		{Claim{Kind: ClaimNumber, Text: "14"}, false},
		{Claim{Kind: ClaimNumber, Text: "14 usd"}, false},
		{Claim{Kind: ClaimQuoted, Text: "$14"}, false},
	} {
		assert.Equal(t, tt.want, tt.claim.Money(), tt.claim.Text)
	}
}

// TestAfternoonHours: in a conversation with a person, an hour of one to
// seven and its minutes with no am or pm ("2:30") is in the afternoon;
// with its leading zero, a part of the day, in a tool's output or
// between agents it is as written.
func TestAfternoonHours(t *testing.T) {
	for _, tt := range []struct {
		name string
		kind run.Kind
		text string
		want string
	}{
		{"the customer's words", run.KindUser, "Ines at 2:30 please.", "14:30"},
		{"the assistant's words to the customer", run.KindMessage, "Shall I put you in with Ines at 6:45?", "18:45"},
		{"with its leading zero", run.KindUser, "Ines at 02:30 please.", "02:30"},
		{"in the morning", run.KindUser, "Ines at 2:30 in the morning please.", "02:30"},
		{"an hour past seven", run.KindUser, "Ines at 9:30 please.", "09:30"},
		{"a tool's output", run.KindToolResult, `{"time": "2:30"}`, "02:30"},
	} {
		r := &run.Run{Question: "Book me in.", Steps: []run.Step{
			{Index: 0, Agent: "assistant", Kind: tt.kind, Content: tt.text},
			{Index: 1, Agent: "user", Kind: run.KindUser, Content: "Thanks."},
		}}
		var got []string
		for _, c := range Run(r).Steps[0].Claims {
			if c.Kind == ClaimTime {
				got = append(got, c.Norm)
			}
		}
		assert.Equal(t, []string{tt.want}, got, tt.name)
	}
}

// TestClaimRounding: a figure with a magnitude's letter against its
// digits is a rounding to its last written digit's place; a figure
// written in full, or a letter read only beside a currency, is none.
func TestClaimRounding(t *testing.T) {
	for _, tt := range []struct {
		in           string
		value, place float64
		ok           bool
	}{
		{"11k closed", 11000, 1000, true},
		{"2.5M rows", 2500000, 100000, true},
		{"a $40k budget", 40000, 1000, true},
		{"a 40k USD budget", 40000, 1000, true},
		{"10.5k eur", 10500, 100, true},
		{"11,013 closed", 0, 0, false},
		{"$3B", 0, 0, false},
	} {
		t.Run(tt.in, func(t *testing.T) {
			claims := claimsOf(newText(tt.in), nil, true)
			assert.NotEmpty(t, claims)
			value, place, ok := claims[0].Rounding()
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.value, value)
			assert.Equal(t, tt.place, place)
		})
	}
}

// TestNumberValues: the numbers a fact's value writes, by their values,
// whatever way it writes them; a value of no figure has none.
func TestNumberValues(t *testing.T) {
	for _, tt := range []struct {
		value string
		want  []string
	}{
		{"3.0", []string{"3"}},
		{`Decimal("50")`, []string{"50"}},
		{"€39.78", []string{"39.78"}},
		{"22.1 litres at 1.80", []string{"22.1", "1.8"}},
		{"Paris", nil},
	} {
		t.Run(tt.value, func(t *testing.T) {
			assert.Equal(t, tt.want, NumberValues(tt.value))
		})
	}
}

// TestScaleLetterAgainstDigits: a temperature scale's capital written
// against a figure ("18F", "-3C") is degrees in that scale, so that the
// figure is a value and does not match the same digits in the other
// scale; a letter of a word, a lower-case one or one before more of a
// code is not.
func TestScaleLetterAgainstDigits(t *testing.T) {
	for _, tt := range []struct {
		text string
		want []string
	}{
		{"Lyon tomorrow: high 18F, low 9F.", []string{"18 °F", "9 °F"}},
		{"a low of -3C overnight", []string{"-3 °C"}},
		{"high 21.5C", []string{"21.5 °C"}},
		{"It is 75°F.", []string{"75 °F"}},
		{"high of 18 F", []string{"18"}},
		{"the 18Fx router", nil},
		{"flight 18F-2", nil},
		{"18f", nil},
		{"redirect_uri=https%3A%2F%2Fexample.org%2F now", nil},
		{"a 7B model", nil},
		{"the sign U+003C is less-than", nil},
		{"set x = 0.5F in the shader", nil},
		{"I have seat 18F on the flight.", nil},
		{"She lives in apartment 4C.", nil},
		{"Boarding at gate 12C.", nil},
		{"The office is in the room on 3F.", nil},
		{"Forecast: 003C tomorrow", nil},
		{"Rome: warm, 27C by noon. Seat 18F is booked.", []string{"27 °C"}},
	} {
		var got []string
		for _, c := range Claims(tt.text) {
			if c.Kind == ClaimNumber {
				got = append(got, c.Norm)
			}
		}
		assert.Equal(t, tt.want, got, tt.text)
	}
	assert.False(t, Claims("high 18F")[0].Matches(Claims("high 18°C")[0]), "a figure in one scale is not the same digits in the other")
}
