package extract

import (
	"slices"
	"strings"
)

// readReverts adds to Call.Discards the file an editor's replacement
// restores: a call whose old and new text (replacement) are an earlier
// replacement's new and old text in the same file undoes that edit, and
// when every edit made to the file since it was last discarded is undone
// so, the file holds again what the repository holds, as after git
// checkout -- FILE. A file changed otherwise (a whole file written, a
// command line's edit) is not followed: what it holds is not known.
func readReverts(rf *RunFeatures) {
	type edit struct{ old, new string }
	pending := map[string][]edit{} // by file: its edits not undone
	unknown := map[string]bool{}   // files changed otherwise than by a replacement
	for i := range rf.Steps {
		for k, c := range rf.Steps[i].Calls {
			for _, f := range c.Discards() {
				if f == "." {
					clear(pending)
					clear(unknown)
					continue
				}
				delete(pending, f)
				delete(unknown, f)
			}
			if !c.Consequential() {
				continue
			}
			oldText, newText, ok := replacement(c.Args)
			files := c.Files()
			if !ok || len(files) != 1 {
				for _, f := range files {
					unknown[f] = true
				}
				continue
			}
			f := files[0]
			oldText, newText = strings.TrimSpace(oldText), strings.TrimSpace(newText)
			if oldText == newText {
				continue
			}
			at := slices.IndexFunc(pending[f], func(e edit) bool { return e.old == newText && e.new == oldText })
			if at < 0 {
				pending[f] = append(pending[f], edit{old: oldText, new: newText})
				continue
			}
			pending[f] = slices.Delete(pending[f], at, at+1)
			if len(pending[f]) > 0 || unknown[f] {
				continue
			}
			delete(pending, f)
			rf.Steps[i] = rf.Steps[i].Clone()
			rf.Steps[i].Calls = slices.Clone(rf.Steps[i].Calls)
			rf.Steps[i].Calls[k].discards = []string{f}
		}
	}
}
