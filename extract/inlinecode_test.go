package extract

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCodeWrites: the files a script given inline writes by name, as
// coding agents write them in Python and Node; a file only read, a mode
// that reads, a name made by an expression and a name assigned twice
// are none.
func TestCodeWrites(t *testing.T) {
	for _, tt := range []struct {
		name, code string
		want       []string
	}{
		{"open for writing", "open('a.py', 'w').write(x)", []string{"a.py"}},
		{"open by a name assigned a path", "p = 'pkg/core.py'\nwith open(p, \"w\") as f:\n    f.write(s)", []string{"pkg/core.py"}},
		{"open to append, mode by keyword", "open('log.txt', mode='a')", []string{"log.txt"}},
		{"open to read", "print(open('a.py').read())", nil},
		{"open to read, by keyword", "open('a.py', encoding='utf-8', mode='r')", nil},
		{"a path's write_text", "from pathlib import Path\nPath('src/app.py').write_text(t)", []string{"src/app.py"}},
		{"a path's own open", "Path('data.csv').open('w')", []string{"data.csv"}},
		{"a removal and a move", "os.remove('old.py'); shutil.move('a.py', 'b.py')", []string{"old.py", "b.py", "a.py"}},
		{"a copy", "shutil.copyfile('conf.ini', 'conf.bak.ini')", []string{"conf.bak.ini"}},
		{"node", "const fs = require('fs'); fs.writeFileSync('out.json', '{}')", []string{"out.json"}},
		{"a name made by an expression", "open(base + '.py', 'w')", nil},
		{"a name assigned twice", "p = 'a.py'\np = 'b.py'\nopen(p, 'w')", nil},
		{"a parenthesis in a string", "print('open(x.py, w)')", nil},
		{"a page opened", "webbrowser.open('index.html')", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, codeWrites(tt.code))
		})
	}
}

// FuzzCodeWrites: any text is read as code without a panic, and every
// file it names is a file name.
func FuzzCodeWrites(f *testing.F) {
	for _, s := range []string{"open('a.py', 'w')", "Path('x').write_text(", "p = 'a'\nopen(p, 'w'", "((((", "'\\", ").open(", "x.y.z(a, (b), [c]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, code string) {
		for _, w := range codeWrites(code) {
			if !FileLike(w) {
				t.Fatalf("%q is no file name", w)
			}
		}
	})
}
