package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestReportedResults: the results a bug report says the code gives,
// after returns, gives, prints and the like, quoted or not, and not the
// ones it says the code should give.
func TestReportedResults(t *testing.T) {
	for _, tt := range []struct {
		task string
		want []string
	}{
		{"to_roman(4) returns 'IIII'; it should return 'IV'.", []string{"IIII"}},
		{`strip_scheme("https://hostname.org") returns "ostname.org": characters are removed.`, []string{"ostname.org"}},
		{"format_bytes(1536) gives `1536 B` instead of 1.5 KiB.", []string{"1536 B"}},
		{"chunk([1, 2, 3, 4, 5], 2) returns [[1, 2], [3, 4]] instead of keeping the last one.", []string{"[[1, 2], [3, 4]]"}},
		{"age_on(date(2000, 12, 31), date(2024, 6, 1)) returns 24.", []string{"24"}},
		{"lookup('x') returns None for a key that exists.", []string{"None"}},
		{"mean([]) prints nan and -0.5 is rounded wrongly", []string{"nan"}},
		{"parse_duration('1h30m') returns 5400 but parse_duration('1h 30m') returns 3600.", nil},
		{"It should return 'IV'. The parser is expected to give 3.", nil},
		{"parse_date('2024-02-30') returns date(2024, 3, 1) instead of raising.", nil},
		{"The function returns the wrong value.", nil},
		{"It never returns 'ok'.", nil},
	} {
		t.Run(tt.task, func(t *testing.T) {
			assert.Equal(t, tt.want, reportedResults(tt.task))
		})
	}
}

// TestTestedFile: the module a test file is named for, by each
// language's convention; none for a file that is not named as a test.
func TestTestedFile(t *testing.T) {
	for _, tt := range []struct{ path, want string }{
		{"tests/test_rates.py", "rates.py"},
		{"pkg/rates_test.py", "rates.py"},
		{"cache/cache_test.go", "cache.go"},
		{"__tests__/date.test.ts", "date.ts"},
		{"src/date.spec.js", "date.js"},
		{"src/test/java/com/acme/DateParserTest.java", "DateParser.java"},
		{"Billing.Tests/InvoiceTests.cs", "Invoice.cs"},
		{"shipkit/rates.py", ""},
		{"tests/conftest.py", ""},
		{"test_.py", ""},
		{"Makefile", ""},
	} {
		t.Run(tt.path, func(t *testing.T) {
			assert.Equal(t, tt.want, TestedFile(tt.path))
		})
	}
}

// TestChangesCopy: a call that changes a file in a copy of code made
// from elsewhere (build output, a vendored or installed dependency), by
// an editor's arguments or a command line's writes; not one that only
// names such a file to read it, nor a source file.
func TestChangesCopy(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       bool
	}{
		{"an edit of a build copy", `{"command": "str_replace", "path": "/repo/build/lib/listutils/util.py", "old_str": "a", "new_str": "b"}`, true},
		{"an edit of a vendored module", `{"command": "str_replace", "path": "/repo/vendor/github.com/acme/tabular/join.go", "old_str": "a", "new_str": "b"}`, true},
		{"an edit in place of an installed package", `{"command": "sed -i 's/a/b/' .venv/lib/python3.12/site-packages/httpx/_models.py"}`, true},
		{"an edit of the source", `{"command": "str_replace", "path": "/repo/src/listutils/util.py", "old_str": "a", "new_str": "b"}`, false},
		{"a read of a build copy", `{"command": "cat dist/format.js"}`, false},
		{"a source file named like a copy directory", `{"command": "str_replace", "path": "/repo/tools/build.py", "old_str": "a", "new_str": "b"}`, false},
		{"a package named like a build's output", `{"command": "str_replace", "path": "/repo/src/build/env.py", "old_str": "a", "new_str": "b"}`, false},
		{"a build's output by a relative path", `{"command": "sed -i 's/a/b/' dist/format.js"}`, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, newCall("bash", tt.args, -1).ChangesCopy())
		})
	}
}

// TestTaskFiles: the files a task names, by path and by the frames of a
// Python traceback it quotes (not a copy's: an installed package; nor
// the interpreter's standard library's).
func TestTaskFiles(t *testing.T) {
	task := "parse_date in calkit/core/dates.py accepts 2024-02-30.\n\nTraceback (most recent call last):\n  File \"/repo/calkit/importer.py\", line 41, in load_row\n    when = parse_date(row[\"date\"])\n  File \"/usr/lib/python3.12/site-packages/dateutil/parser.py\", line 9, in parse\n  File \"/repo/calkit/core/dates.py\", line 12, in parse_date\nValueError: day is out of range for month"
	assert.Equal(t, []string{"core/dates.py", "calkit/importer.py"}, taskFiles(task))
	assert.Empty(t, taskFiles("to_roman(4) returns 'IIII'."))
	assert.Empty(t, taskFiles("  File \"/repo/app/__init__.py\", line 3, in <module>\n  File \"/repo/app/main.py\", line 9, in run"), "entry files name no module of their own")
	assert.Equal(t, []string{"acme/transport.py"}, taskFiles("Requests hang.\n  File \"/repo/acme/transport.py\", line 58, in send\n  File \"/usr/lib/python3.11/http/client.py\", line 1378, in getresponse\n  File \"/opt/conda/lib/python3.9/socket.py\", line 706, in readinto\n  File \"C:\\Python311\\Lib\\http\\client.py\", line 1378, in getresponse"), "the standard library's frames are the interpreter's, not the project's")
}
