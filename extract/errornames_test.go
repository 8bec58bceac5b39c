package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/offattr/offattr/run"
)

// The errors are written as Python, pytest, Node, Go, SQLite, MySQL,
// PostgreSQL, coreutils and requests print them.
func TestErrorNames(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
	}{
		{"attribute", "AttributeError: 'Client' object has no attribute 'fetch_users'", []string{"fetch_users"}},
		{"module attribute", "AttributeError: module 'json' has no attribute 'loadz'", []string{"loadz"}},
		{"import name", "E   ImportError: cannot import name 'parse_confg' from 'app.config' (/repo/src/app/config.py)", []string{"parse_confg"}},
		{"module", "ModuleNotFoundError: No module named 'geodistance_tools'", []string{"geodistance_tools"}},
		{"a two-letter module", "E   ModuleNotFoundError: No module named 'db'", []string{"db"}},
		{"a two-letter node module", "Error: Cannot find module 'ui'", []string{"ui"}},
		{"a two-letter key is no name", "KeyError: 'id'", nil},
		{"key", "KeyError: 'user_id'", []string{"user_id"}},
		{"name", "NameError: name 'df_sales' is not defined", []string{"df_sales"}},
		{"keyword", "TypeError: connect() got an unexpected keyword argument 'timeout_s'", []string{"timeout_s"}},
		{"file", "FileNotFoundError: [Errno 2] No such file or directory: 'config/settings.yml'", []string{"config/settings.yml"}},
		{"shell file", "cat: ./config/settings.yml: No such file or directory", []string{"config/settings.yml"}},
		{"shell quoted", "ls: cannot access 'data/raw': No such file or directory", []string{"data/raw"}},
		{"http path", "404 Not Found: /api/v2/orders", []string{"api/v2/orders"}},
		{"http url", "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://shop.internal/api/v2/orders?customer=42", []string{"api/v2/orders"}},
		{"http log", "GET /api/v2/orders 404", []string{"api/v2/orders"}},
		{"sqlite column", "sqlite3.OperationalError: no such column: signup_ts", []string{"signup_ts"}},
		{"mysql column", "ERROR 1054 (42S22): Unknown column 'created' in 'field list'", []string{"created"}},
		{"postgres column", `ERROR:  column "created" does not exist`, []string{"created"}},
		{"js not a function", "TypeError: client.fetchUsers is not a function", []string{"client.fetchUsers"}},
		{"js not defined", "ReferenceError: fetchUsers is not defined", []string{"fetchUsers"}},
		{"go undefined", "./main.go:12:9: undefined: parseConfig", []string{"parseConfig"}},
		{"quoted path not found", "Error: 'config/ghost.yml' not found", []string{"config/ghost.yml"}},
		{"relation", `ERROR:  relation "customer_orders" does not exist`, []string{"customer_orders"}},
		{"a text a search did not find", "Error: The search string 'Eiffel' was not found on this page.", nil},
		{"numbers are not names", "KeyError: 0\nIndexError: list index out of range", nil},
		{"words are not names", "ERROR: file 'file' not found", nil},
		{"prose without an error form", "The parser reads config/settings.yml and calls fetch_users.", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, errorNames(newText(c.text)))
		})
	}
}

// Names are read in a step that reports an error or is a tool's output,
// and kept in its features.
func TestErrorNamesInFeatures(t *testing.T) {
	rf := Run(steps(
		"Designer", "The users table has a column signup_ts; a missing one reads KeyError: 'x' in pandas.",
		"Terminal", "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nKeyError: 'user_id'",
	))
	assert.Empty(t, rf.Steps[0].ErrorNames, "a step without an error quotes none")
	assert.Equal(t, []string{"user_id"}, rf.Steps[1].ErrorNames)
}

// The functions a printed failure ran through, and the call whose value a
// failed assertion rejected, as Python and pytest print them; and the
// functions and classes code defines, as Python, JavaScript, Go and Rust
// write them.
func TestFailedInAndDefines(t *testing.T) {
	failures := []struct {
		name, text string
		want       []string
	}{
		{"python frames", "Traceback (most recent call last):\n  File \"/work/main.py\", line 3, in <module>\n    print(days_between(a, b))\n  File \"/work/dates.py\", line 5, in days_between\n    s = date.parse_iso(start)\nAttributeError: type object 'datetime.date' has no attribute 'parse_iso'", []string{"days_between"}},
		{"pytest short frames", "report.py:14: in averages\n    if not row[\"temperature_c\"]:\nE   KeyError: 'temperature_c'", []string{"averages"}},
		{"a rejected value", ">       assert shipping_cost(10) == 17.00\nE       assert 25.0 == 17.0\nE        +  where 25.0 = shipping_cost(10)", []string{"shipping_cost"}},
		{"a method's value", "E        +  where 3 = <Cart object at 0x7f>.total()\nE        +    where <bound method> = cart.total(", []string{"total"}},
		{"a plain traceback's failed assert", "Traceback (most recent call last):\n  File \"/repo/reproduce.py\", line 3, in <module>\n    assert parse_section('[main] ; x') == 'main', parse_section('[main] ; x')\nAssertionError: None", []string{"parse_section"}},
		{"a failed assert of a method's value", "Traceback (most recent call last):\n  File \"/repo/check.py\", line 5, in <module>\n    assert cart.total() == 30\nAssertionError", []string{"total"}},
		{"an assert of no call", "Traceback (most recent call last):\n  File \"/repo/check.py\", line 5, in <module>\n    assert ok\nAssertionError", nil},
		{"pytest's failed line, without its where", "    def test_tax():\n>       assert Invoice(make_items()).tax() == Decimal('32.00')\nE       AssertionError: assert Decimal('24.00') == Decimal('32.00')\ntest_invoice.py:17: AssertionError", []string{"tax"}},
		{"pytest's failed line, a function's call", ">       assert merge_row([2, 2, 4, 0]) == ([4, 4, 0, 0], 4)\nE       assert ([8, 0, 0, 0], 12) == ([4, 4, 0, 0], 4)", []string{"merge_row"}},
		{"a value assigned above pytest's failed line", "    def test_summary():\n        s = summarize([2, 4, 4, 4, 5, 5, 7, 9])\n        assert s.count == 8\n>       assert s.stdev == pytest.approx(2.138, abs=1e-3)\nE       assert 2.0 == 2.138 ± 1.0e-03", []string{"summarize"}},
		{"the failed line before the lines above it", "    def test_chain():\n        rows = load_rows()\n>       assert merge_row([2, 2, 4, 0]) == ([4, 4, 0, 0], 4)\nE       assert ([8, 0, 0, 0], 12) == ([4, 4, 0, 0], 4)", []string{"merge_row"}},
		{"pytest's where before the failed line", "    def test_due():\n        loan = LoanService().checkout(member, 'isbn-1', day)\n>       assert loan.due == date(2024, 3, 15)\nE        +  where datetime.date(2024, 3, 22) = Loan(isbn='isbn-1').due", []string{"Loan"}},
		{"unittest's failed line", "Traceback (most recent call last):\n  File \"tests/test_stats.py\", line 9, in test_summary\n    self.assertAlmostEqual(summarize(DATA).stdev, 2.138, places=3)\nAssertionError: 2.0 != 2.138 within 3 places", []string{"test_summary", "summarize"}},
		{"code that assigns a call, no failed line", "```python\ndef main():\n    s = summarize(values)\n    print(s)\n```", nil},
		{"prose", "The function shipping_cost failed in the heavy parcel test.", nil},
	}
	for _, tt := range failures {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, failedIn(newText(tt.text)))
		})
	}
	code := "```python\nclass StockRecord:\n    pass\n\n\ndef low_stock(path: str) -> list:\n    async def fetch(url):\n        pass\n```\n```js\nexport function parseConfig(text) {}\n```\n```go\nfunc (c *Client) FetchUsers(ctx context.Context) error {\n```\nWe define the function later."
	assert.Equal(t, []string{"StockRecord", "low_stock", "fetch", "parseConfig", "FetchUsers"}, defines(newText(code)))
	listing := "     1\tPER_KG = 2.50\n     2\t\n     3\tdef shipping_cost(weight_kg):\n     4\t    return 5 + weight_kg * PER_KG\n" +
		"    12→class Cart:\n    13→    def total(self):\n"
	assert.Equal(t, []string{"shipping_cost", "Cart", "total"}, defines(newText(listing)), "a listing that numbers its lines")
}

// The files a failed assertion is in, as pytest (its short location of
// the failed line, for an assert or pytest.raises) and Python's traceback
// (unittest) print them, where an error was raised on a test's own
// line, and a test module pytest could not collect; an exception raised in the code is not an assertion's failure, and an assert in a function the task names (the
// code's own check, which pytest locates in the code's file) is not a
// test's.
func TestFailedAt(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"pytest assert", "    def test_partial_last_page():\n>       assert page_count(21, 10) == 3\nE       assert 2 == 3\n\ntests/test_pager.py:9: AssertionError\n1 failed, 1 passed in 0.05s", []string{"tests/test_pager.py"}},
		{"pytest raises", ">       with pytest.raises(ValueError):\nE       Failed: DID NOT RAISE <class 'ValueError'>\n\ntests/test_values.py:19: Failed", []string{"tests/test_values.py"}},
		{"a helper's assert", "tests/test_core.py:8:\n_ _ _ _\n    def assert_money_equal(a, b):\n>       assert a == b\n\ntests/helpers.py:4: AssertionError", []string{"tests/helpers.py"}},
		{"unittest", "Traceback (most recent call last):\n  File \"/repo/tests/test_pages.py\", line 12, in test_partial\n    self.assertEqual(page_count(21, 10), 3)\nAssertionError: 2 != 3", []string{"tests/test_pages.py"}},
		{"an assert in the code the task names", "    def test_negative_span():\n>       assert span_seconds(\"10:00\", \"09:30\") == -1800\n\ntests/test_span.py:14: \n_ _ _ _ _ _\n\n    def span_seconds(start, end):\n        total = _secs(end) - _secs(start)\n>       assert total >= 0, \"end before start\"\nE       AssertionError: end before start\n\ntimekit/span.py:21: AssertionError", nil},
		{"unittest, in the code the task names", "Traceback (most recent call last):\n  File \"/repo/tests/test_span.py\", line 9, in test_negative\n    span_seconds(\"10:00\", \"09:30\")\n  File \"/repo/timekit/span.py\", line 21, in span_seconds\n    assert total >= 0\nAssertionError", nil},
		{"pytest's short summary of a test's assert", "F.\nFAILED tests/test_wc.py::test_double_space - assert 3 == 2\n1 failed, 1 passed in 0.04s", []string{"tests/test_wc.py"}},
		{"pytest's short summary of a test's assert, by class", "FAILED tests/test_wc.py::TestCount::test_tabs[a\\tb] - assert 1 == 2", []string{"tests/test_wc.py"}},
		{"go test", "--- FAIL: TestParseDuration (0.00s)\n    parse_test.go:14: ParseDuration(\"1h30m\") = 90, want 5400\nFAIL\nFAIL\texample.com/app/timeutil\t0.004s", []string{"parse_test.go"}},
		{"go test, a log line of a passing package", "ok  \texample.com/app/timeutil\t0.003s", nil},
		{"jest", "  ● formatPrice › groups thousands\n\n    expect(received).toBe(expected) // Object.is equality\n\n    Expected: \"$1,234.50\"\n    Received: \"$1234.50\"\n\n    > 11 |     expect(formatPrice(1234.5)).toBe('$1,234.50');\n\n      at Object.toBe (__tests__/format.test.js:11:33)\n", []string{"__tests__/format.test.js"}},
		{"pytest's short summary of the code's own assertion", "FAILED tests/test_span.py::test_negative - AssertionError: end before start", nil},
		{"pytest's short summary of an exception", "FAILED tests/test_wc.py::test_none - TypeError: 'NoneType' object is not iterable", nil},
		{"an error raised on the test's own line", "    def test_zulu():\n        out = parse_feed([{\"published\": \"2024-01-02T03:04:05Z\"}])\n>       assert out[0][\"published\"].tzinfo is not None\nE       AttributeError: 'str' object has no attribute 'tzinfo'\n\ntests/test_parse.py:11: AttributeError", []string{"tests/test_parse.py"}},
		{"an error raised in a helper, not a test", "    def load_rows(path):\n>       return json.load(open(path))[\"rows\"]\nE       KeyError: 'rows'\n\nshop/rows.py:7: KeyError", nil},
		{"a test module pytest could not collect", "E                                                  [100%]\nERROR tests/test_fetch.py - ModuleNotFoundError: No module named 'responses'\n1 error in 0.09s", []string{"tests/test_fetch.py"}},
		{"a test's error is no module's", "ERROR tests/test_db.py::test_rows - sqlite3.OperationalError: no such table: rows", nil},
		{"an exception in the code", "shop/orders.py:4: in order_total\n    discount = order[\"coupon\"][\"percent\"]\nE   TypeError: 'NoneType' object is not subscriptable\n\nshop/orders.py:4: TypeError", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, failedAt(newText(tt.text), "span_seconds('10:00', '09:30') fails; a reversed span should be negative."))
		})
	}
}

// TestFailedTests: the tests a runner reports failed are named as its
// report names them (pytest's short summary, by class too; go test's
// --- FAIL; cargo test's FAILED line; unittest's FAIL: and ERROR: headers
// above their rule of dashes), whatever failed them; a passing run names
// none.
func TestFailedTests(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"pytest, an assert", "F.\nFAILED tests/test_wc.py::test_double_space - assert 3 == 2\n1 failed, 1 passed in 0.04s", []string{"test_double_space"}},
		{"pytest, an exception, by class", "FAILED tests/test_wc.py::TestCount::test_none - TypeError: 'NoneType' object is not iterable\nFAILED tests/test_wc.py::test_tabs[a\tb] - assert 1 == 2", []string{"test_none", "test_tabs"}},
		{"go test", "--- FAIL: TestParseDuration (0.00s)\n    parse_test.go:14: want 5400\nFAIL", []string{"TestParseDuration"}},
		{"cargo test", "running 2 tests\ntest tests::parses_hours ... ok\ntest tests::parses_minutes ... FAILED\n", []string{"parses_minutes"}},
		{"unittest, a failure and an error", "F.E\n======================================================================\nFAIL: test_top_three (test_counter.TestWordFreq)\n----------------------------------------------------------------------\nTraceback (most recent call last):\n  File \"test_counter.py\", line 10, in test_top_three\n    self.assertEqual(top_words(TEXT, 3), [])\nAssertionError: Lists differ\n\n======================================================================\nERROR: test_empty (__main__.TestWordFreq)\n----------------------------------------------------------------------\nTraceback (most recent call last):\nTypeError: x\n\nFAILED (failures=1, errors=1)", []string{"test_top_three", "test_empty"}},
		{"a line that only reads like unittest's header", "FAIL: test_top_three (test_counter.TestWordFreq) is flaky on CI", nil},
		{"a passing run", "..\n2 passed in 0.02s", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, failedTests(newText(tt.text)))
		})
	}
}

// A test's check of what a call returns, as Python's assert, unittest and
// Jest write it.
func TestAssertions(t *testing.T) {
	code := "def test_heavy_parcel():\n    assert shipping_cost(10) == 25.00\n    assert shipping.shipping_cost(1.5) == 5.0  # base fee\n    assert not passed(59)\n" +
		"        self.assertEqual(page_count(95), 4)\n" +
		"  expect(lateFee(20)).toBe(4.25);\n" +
		"assert 25.0 == 17.0\n"
	assert.Equal(t, []Assertion{{"shipping_cost", "25.00"}, {"shipping_cost", "5.0"}, {"page_count", "4"}, {"lateFee", "4.25"}}, assertions(newText(code)))
}

// Code a coding agent writes as a call's argument (a file's content, an
// edit's new text), as OpenAI function calls, Claude Code's Write and
// Edit and OpenHands' str_replace_editor carry it, defines what it
// defines; a one-line value that names a function defines nothing.
func TestDefinesInCallArguments(t *testing.T) {
	tests := []struct {
		name, tool, args string
		want             []string
	}{
		{"a file written", "write_file", `{"path": "shipping.py", "content": "PER_KG = 1.50\n\n\ndef shipping_cost(weight_kg):\n    return 5 + weight_kg * PER_KG\n"}`, []string{"shipping_cost"}},
		{"an edit", "Edit", `{"file_path": "/repo/app.js", "old_string": "x", "new_string": "export function parseConfig(path) {\n  return load(path);\n}"}`, []string{"parseConfig"}},
		{"an editor's new file", "str_replace_editor", `{"command": "create", "path": "/repo/m.py", "file_text": "class Report:\n    pass\n"}`, []string{"Report"}},
		{"a command", "bash", `{"command": "grep -n 'def shipping_cost(' shipping.py"}`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "t.json", Question: "Fix the module.", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Fix the module."},
				{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: "Writing it.", Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: tt.tool, Arguments: tt.args}}}},
			}}
			assert.Equal(t, tt.want, Run(r).Steps[1].Defines)
		})
	}
}

// TestUnreachable: a tool result that reports a failure of the network
// (Python's requests and urllib3, curl, Node's error codes, pip finding no
// versions it could fetch) says so; a failure of the code, a timeout the
// code sets and prose about a network are none. A failure of the network
// is the service's too (ServiceFault), and so is a timeout of the request
// or of an upstream service, a 5xx status (under a JSON or a Python
// mapping's quoted key too), a rate limit or an overloaded service; a
// failure the request's own arguments cause (a 4xx naming a bad
// parameter, a timeout parameter out of range, a record not found), a
// failure of the code and a result that only names a status are none.
func TestUnreachable(t *testing.T) {
	for _, tt := range []struct {
		name, text           string
		unreachable, service bool
	}{
		{"requests", "E   requests.exceptions.ConnectionError: HTTPSConnectionPool(host='api.example.test', port=443): Max retries exceeded with url: / (Caused by NewConnectionError('Failed to establish a new connection: [Errno -3] Temporary failure in name resolution'))\n1 error in 3.02s", true, true},
		{"pip", "WARNING: Retrying (Retry(total=4)) after connection broken by 'ReadTimeoutError(\"HTTPSConnectionPool(host='pypi.org', port=443): Read timed out. (read timeout=15)\")'\nERROR: Could not find a version that satisfies the requirement responses>=0.23 (from versions: none)\nERROR: No matching distribution found for responses>=0.23", true, true},
		{"curl", "curl: (6) Could not resolve host: example.test\n[exit code 6]", true, true},
		{"node", "Error: getaddrinfo ENOTFOUND registry.npmjs.org\n    at GetAddrInfoReqWrap.onlookup [as oncomplete] (node:dns:107:26)", true, true},
		{"an assertion", "FAILED tests/test_fetch.py::test_timeout - AssertionError: assert None == 10\n1 failed in 0.04s", false, false},
		{"a passing run that names a connection", "tests/test_retry.py::test_connection_refused_is_retried PASSED\n1 passed in 0.02s", false, false},
		{"an upstream timeout", "FlightDataError: upstream status service timed out after 10s", false, true},
		{"a timeout in JSON", `{"error": "timeout after 30s"}`, false, true},
		{"a request timeout", "Error: Request timed out.", false, true},
		{"a 503", "Error: HTTP 503 Service Unavailable", false, true},
		{"a 502 status", `{"error": "upstream returned status 502"}`, false, true},
		{"a rate limit", "openai.RateLimitError: Error code: 429 - {'error': {'message': 'Rate limit reached for requests'}}", false, true},
		{"an overloaded service", `Error: {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}`, false, true},
		{"a bad parameter", `Error: HTTP 400 Bad Request: parameter "date" must be YYYY-MM-DD`, false, false},
		{"not found", "Error: order #W123 not found (404)", false, false},
		{"a status that is no failure", `{"status": 500, "items": 3}`, false, false},
		{"a 503 under a JSON key", `{"error": {"code": 503, "message": "Try again later."}}`, false, true},
		{"a status code under a JSON key", `{"status_code": 503, "error": "unavailable"}`, false, true},
		{"a 429 under a Python key", `Error: {'code': 429, 'message': 'slow down'}`, false, true},
		{"a timeout named as a parameter", `{"error": "Invalid request: 'timeout' must be an integer"}`, false, false},
		{"a timeout parameter out of range", "Error: request parameter timeout must be positive", false, false},
		{"a timeout said not to be one", "Error: the server rejected the request: invalid api key (no timeout)", false, false},
		{"a request that did not time out", "Error: request failed without a timeout: schema mismatch in field 'date'", false, false},
		{"a traceback whose error is not the service's", "Traceback (most recent call last):\n  File \"fetch.py\", line 9, in get\n    # retried on 503 Service Unavailable\nKeyError: 'price'", false, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "t.json", Question: "Fix fetch.", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Fix fetch."},
				{Index: 1, Agent: "tool", Kind: run.KindToolResult, Content: tt.text},
			}}
			f := Run(r).Steps[1]
			assert.Equal(t, tt.unreachable, f.Unreachable)
			assert.Equal(t, tt.service, f.ServiceFault)
		})
	}
}

// TestCallArgumentsReportNothing: a step that only makes a shell's or an
// editor's call (its content the call written out, as transcripts, Claude
// Code and Codex logs give a call with no text) reports no failure, though
// its code or edit holds failure words, nor does the command line a
// SWE-agent reply writes in its text; the same words in the agent's own
// text do.
func TestCallArgumentsReportNothing(t *testing.T) {
	edit := run.ToolCall{Name: "str_replace_editor", Arguments: `{"command": "str_replace", "path": "/repo/net/fetch.py", "old_str": "requests.get(url)", "new_str": "requests.get(url, timeout=timeout)"}`}
	shell := run.ToolCall{Name: "bash", Arguments: `{"command": "grep -rn 'failed to connect' src"}`}
	for _, tt := range []struct {
		name    string
		call    run.ToolCall
		content string
		errors  bool
	}{
		{"an edit's text", edit, edit.Name + "(" + edit.Arguments + ")", false},
		{"a command line", shell, shell.Name + "(" + shell.Arguments + ")", false},
		{"the agent's own words beside the call", edit, "The request timed out, so I could not test it.", true},
		{"a command line written in the reply's text", shell, "DISCUSSION\nLook for where the client gives up.\n\n```\ngrep -rn 'failed to connect' src\n```", false},
		{"the reply's own words beside its command line", shell, "DISCUSSION\nThe connection failed with a timeout earlier.\n\n```\ngrep -rn 'failed to connect' src\n```", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := &run.Run{Source: "t.json", Question: "Pass the timeout to requests.get.", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Pass the timeout to requests.get."},
				{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: tt.content, Extra: &run.Extra{ToolCalls: []run.ToolCall{tt.call}}},
			}}
			assert.Equal(t, tt.errors, len(Run(r).Steps[1].Errors) > 0)
		})
	}
}

// TestZeroCountIsNoFailure: a test runner's tally of none ("0 failed", as
// cargo test prints on every run) is no failure; a count of some is, and
// so are "10 failed" and "1.0 failed". A name that ends in 0 ("agent0",
// "the ZqAA0", "worker 0") is no count.
func TestZeroCountIsNoFailure(t *testing.T) {
	for _, tt := range []struct {
		text   string
		failed bool
	}{
		{"running 3 tests\ntest tests::plain ... ok\n\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured", false},
		{"test result: FAILED. 2 passed; 1 failed; 0 ignored", true},
		{"Summary: 10 failed, 2 passed", true},
		{"0 failed", false},
		{"The results the agent0 gave did not return the details", true},
		{"The search by the ZqAA0 did not return the details", true},
		{"worker_0 failed to start", true},
		{"The search by the Agent 0 did not return the details", true},
		{"Tests: 0 failed, 12 passed, 12 total", false},
		{"12 passing (0 failed)", false},
		{"1,0 failed", true},
		// A tally of none written after its label, or with what it counts
		// between ("dotnet test", JUnit's console launcher).
		{"Passed!  - Failed:     0, Passed:    12, Skipped:     0, Total:    12, Duration: 41 ms - Shop.Tests.dll (net8.0)", false},
		{"Failed!  - Failed:     1, Passed:    11, Skipped:     0, Total:    12", true},
		{"[         3 tests successful      ]\n[         0 tests failed          ]", false},
		{"[         2 tests failed          ]", true},
		{"failed=0 passed=4", false},
		{"Tests run: 3\nFailed: 0", false},
		{"Tests run: 3\nFailed: 2", true},
		{"The build failed: 0.5% of the requests timed out", true},
		// A tally under a JSON or a Python mapping's quoted key.
		{`{"build": "rc4", "passed": 415, "failed": 0}`, false},
		{`{'passed': 415, 'failed': 0}`, false},
		{`{"build": "rc3", "passed": 412, "failed": 3}`, true},
	} {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.failed, len(errorSignals(newText(tt.text))) > 0)
		})
	}
}

// TestTypographicApostrophes: a negation written with a typographic
// apostrophe ("didn’t fail") negates as one with a straight one does.
func TestTypographicApostrophes(t *testing.T) {
	for _, tt := range []struct {
		text   string
		failed bool
	}{
		{"The migration didn't fail this time.", false},
		{"The migration didn’t fail this time.", false},
		{"The order hasn’t failed.", false},
		{"We weren’t able to reach the server.", true},
	} {
		t.Run(tt.text, func(t *testing.T) {
			assert.Equal(t, tt.failed, len(errorSignals(newText(tt.text))) > 0)
		})
	}
}
