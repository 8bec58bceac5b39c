package extract

import "strings"

// maxFiles caps the file names kept of one step: a listing of a whole
// tree names no plan's files.
const maxFiles = 64

// namedFiles returns the names of the files a step's prose (outside its
// fenced code) names, as a design's file list, a task list or a sentence
// names them ("main.py parses the arguments"): in lower case, each once,
// in the order written, read as a requirement's clause reads them
// (isFileName), with the marks that set a name off trimmed.
func namedFiles(t *text) []string {
	s := t.prose().s
	if strings.IndexByte(s, '.') < 0 {
		return nil
	}
	var out []string
	for _, f := range strings.Fields(s) {
		f = strings.ToLower(strings.Trim(f, "`'\"()[]{},.:;!?*"))
		if !strings.Contains(f, "/") && FileLike(f) && isFileName(f) {
			if out = appendNew(out, f); len(out) == maxFiles {
				break
			}
		}
	}
	return out
}
