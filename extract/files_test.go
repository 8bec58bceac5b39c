package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestNamedFiles(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string
	}{
		{"a design's JSON list", `"File list": ["main.py", "importer.py", "test_report.py"],`, []string{"main.py", "importer.py", "test_report.py"}},
		{"a markdown list", "## Task list\n1. products_api.py\n2. `repo.py`\n- README.md", []string{"products_api.py", "repo.py", "readme.md"}},
		{"in a sentence", "main.py parses the arguments and calls report.py.", []string{"main.py", "report.py"}},
		{"code is not the list", "## Code: app.py\n```python\nimport helpers.py\n```", []string{"app.py"}},
		{"no versions, paths or abbreviations", "Use Python 3.11, e.g. src/app.py, at https://x.test/a.py", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, namedFiles(newText(tt.in)))
		})
	}
}
