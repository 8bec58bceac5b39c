package extract

import (
	"encoding/json"
	"slices"
	"strings"
)

// queryKeys are the names a lookup's arguments give its question in
// free text under (a search engine's "q", "query", a list of "queries",
// "keywords"): English words for a question, no one tool's.
var queryKeys = toSet("q query queries keywords search_query search_queries search_term search_terms")

// queryTexts returns, lowered, the questions the calls that only look
// something up are given in free text (a value of several words under a
// query's key, queryKeys, of a call that changes nothing, answers
// nothing and acts on no page's element), each with where in content
// its call's arguments are written: all of it for a structured call of
// a step that is its calls alone (only), none for one of a step with
// words of its own.
func queryTexts(content string, only bool, calls []Call) []query {
	var out []query
	for _, c := range calls {
		w := c.Words()
		if len(w) == 0 || c.OnPage || c.Consequential() || answers(w) {
			continue
		}
		at := span{Start: 0, End: len(content), OK: only}
		if c.Offset >= 0 && c.Offset <= len(content) {
			if k := strings.Index(content[c.Offset:], c.Args); k >= 0 && c.Args != "" {
				at = span{Start: c.Offset + k, End: c.Offset + k + len(c.Args), OK: true}
			}
		}
		if !at.OK {
			continue
		}
		var v any
		if json.Unmarshal([]byte(c.Args), &v) != nil {
			continue
		}
		for key, leaf := range jsonLeaves(v) {
			s, ok := leaf.(string)
			if !ok || !queryKeys[strings.Join(nameWords(key), "_")] || len(strings.Fields(s)) < 2 {
				continue
			}
			out = append(out, query{text: strings.ToLower(s), at: at})
		}
	}
	return out
}

// query is a lookup's question and where its call is written.
type query struct {
	text string
	at   span
}

// queriedClaims returns the norms of the names and quoted words, of a
// step's claims, that a lookup's question holds where its call is
// written (queryTexts): a query asks for what it names ("British Museum
// visitors ALVA"), it states nothing of it. They stay claims, for a
// name a query carries from an earlier result is a value the run passes
// on. Its figures and dates are not among them: a year or an amount a
// query narrows its search by is put forward as a brief's would be.
func queriedClaims(content string, only bool, claims []Claim, calls []Call) []string {
	if !slices.ContainsFunc(claims, isWordClaim) {
		return nil
	}
	qs := queryTexts(content, only, calls)
	if len(qs) == 0 {
		return nil
	}
	var out []string
	for _, c := range claims {
		w := strings.ToLower(c.Text)
		if isWordClaim(c) && !slices.Contains(out, c.Norm) && slices.ContainsFunc(qs, func(q query) bool {
			return int(c.Offset) >= q.at.Start && int(c.Offset) < q.at.End && strings.Contains(q.text, w)
		}) {
			out = append(out, c.Norm)
		}
	}
	return out
}

// isWordClaim reports whether a claim is a name or quoted words, not a
// figure, a date, a time, a link or a path.
func isWordClaim(c Claim) bool { return c.Kind == ClaimEntity || c.Kind == ClaimQuoted }
