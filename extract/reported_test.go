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
