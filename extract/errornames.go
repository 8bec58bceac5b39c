package extract

import (
	"slices"
	"strings"

	matching "github.com/offattr/offattr/internal/match"
)

// An error that quotes a name or a value says which one was wrong: the
// attribute, module, key, file, path, column or endpoint it could not
// find. The step that first wrote that name made the fault the error
// reports, which is often earlier than the step that ran it. These
// patterns read such names in the forms languages, shells, databases and
// HTTP clients write them, each through the group "n".
const (
	// quotedName is a name between quotes of any kind, without spaces.
	quotedName = "[\"'`\u2018\u201c](?<n>[^\"'`\u2019\u201d\\s]{1,160})[\"'`\u2019\u201d]"
	// bareName is an identifier, dotted or not, or a path.
	bareName = `(?<n>[A-Za-z_./~][\w./~-]{0,160})`
	// missing is what an error says of a name it could not find.
	missing = `(?:is not defined|is not a function|is not a valid|does not exist|doesn't exist|(?:was )?not found|could not be (?:found|resolved))\b`
)

var errorNameRes = []*matching.Pattern{
	// "has no attribute 'fetch_users'", "No module named 'parse_utils'",
	// "cannot import name 'parse_config'", "unexpected keyword argument
	// 'timeout'", "Unknown column 'created' in 'field list'", "no such
	// column: created", "undefined: parseConfig", "No such file or
	// directory: 'config/settings.yml'".
	pattern(`\b(?:has no attribute|no module named|cannot import name|unexpected keyword argument|no such (?:column|table|file or directory|file|key|field|attribute|method|option|command|index|collection|module)|(?:unknown|unrecognized|undefined|invalid) (?:column|table|field|key|attribute|option|argument|parameter|method|property|module|command|function|tool|endpoint|variable|identifier|name|symbol|reference)s?|undefined|cannot find (?:module|symbol|package|name))(?:\s{0,2}:\s{0,2}(?:`+quotedName+`|`+bareName+`)|\s{1,2}`+quotedName+`)`, ci),
	// "column \"created\" does not exist", "name 'df2' is not defined",
	// "relation \"orders\" does not exist": a quoted name after the kind
	// of thing it names. A quoted word alone before "not found" is often
	// a text a search did not find ("'Eiffel' was not found on this
	// page"), not a name.
	pattern(`\b(?:column|table|relation|file|key|module|attribute|field|function|method|variable|name|path|directory|folder|index|property|endpoint|route|url|tool|command|package|class|resource|sheet|collection|database|schema)\s{1,2}`+quotedName+`\s{0,2}`+missing, ci),
	// "'config/ghost.yml' not found", "'app.utils' does not exist": a
	// quoted name shaped as a path or an identifier.
	pattern("[\"'`\u2018\u201c](?<n>[^\"'`\u2019\u201d\\s]{0,80}[_./][^\"'`\u2019\u201d\\s]{0,80})[\"'`\u2019\u201d]\\s{0,2}"+missing, ci),
	// "ReferenceError: fetchUsers is not defined", "TypeError:
	// client.fetchUsers is not a function".
	pattern(`Error:\s{1,2}(?<n>[A-Za-z_$][\w.$]{2,160}) is not (?:defined|a function)\b`, 0),
	// "KeyError: 'user_id'" (and so a lookup of an index or a name).
	pattern(`\b(?:Key|Lookup|Name)Error:\s{0,2}`+quotedName, 0),
	// "cat: config/settings.yml: No such file or directory", "ls: cannot
	// access 'data/x.csv': No such file or directory".
	pattern(`(?::|\baccess|\bopen)\s{1,2}(?:`+quotedName+`|(?<n>[\w.~/-]{3,200})):\s{0,2}No such file or directory`, ci),
	// "404 Not Found: /api/v2/orders", "404 Client Error: Not Found for
	// url: https://host/api/v2/orders".
	pattern(`\b404\b(?:\s{0,2}Client Error)?\s{0,2}:?\s{0,2}(?:Not Found)?\s{0,2}(?:for url)?\s{0,2}:?\s{0,2}(?:https?://[^\s/'"]{1,200})?/(?<n>[\w.~%-]{1,80}(?:/[\w.~%-]{1,80}){0,20})`, ci),
	// "GET /api/v2/orders 404", "/api/v2/orders returned 404".
	pattern(`(?:https?://[^\s/'"]{1,200})?/(?<n>[\w.~%-]{1,80}(?:/[\w.~%-]{1,80}){0,20})\s{1,3}(?:returned |responded with |-> ?)?(?:HTTP |status |code )?404\b`, ci),
}

// maxErrorNames caps the names read in one step: a page of errors names
// the same few things again and again.
const maxErrorNames = 8

// errorNames returns the names and values the step's errors quote as
// missing or wrong, in the order they are written, each once. A URL's
// path and a relative path are given without their leading "/" or "./",
// as a step that first wrote them may have written them after a host or
// a directory.
func errorNames(t *text) []string {
	var out []string
	for _, re := range errorNameRes {
		for _, m := range t.all(re, maxErrorNames) {
			n := strings.TrimRight(t.named(m, "n"), ".,;:")
			n = strings.TrimPrefix(strings.TrimPrefix(n, "./"), "/")
			if (errorName(n) || shortModule(t, m, n)) && !slices.Contains(out, n) && len(out) < maxErrorNames {
				out = append(out, n)
			}
		}
	}
	return out
}

// shortModule reports whether n, of two letters, is what the error m
// quotes as a missing module ("No module named 'db'", "Cannot find module
// 'ui'"): a module is looked for as a file of that name, which a plan
// lists (db.py), so a short one is as specific as a long one, where a
// short key or attribute ('id') is a word every step writes.
func shortModule(t *text, m match, n string) bool {
	if len(n) != 2 || !isLetter(n[0]) || !isLetter(n[1]) {
		return false
	}
	whole := m.Groups[0]
	return strings.Contains(strings.ToLower(t.s[whole.Start:whole.End]), "module")
}

// errorName reports whether a name an error quotes is specific enough to
// be looked for in earlier steps: not a number, not a word every step
// uses, not one or two letters.
func errorName(n string) bool {
	if len(n) < 3 || strings.Trim(n, "0123456789.-") == "" {
		return false
	}
	switch strings.ToLower(n) {
	case "true", "false", "null", "none", "nil", "undefined", "object", "the", "this", "that", "file", "directory", "name", "module", "column", "table", "key":
		return false
	}
	return true
}
