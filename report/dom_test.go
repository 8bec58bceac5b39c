package report

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"golang.org/x/net/html"
)

// The DOM checks below read a page as a browser builds it: from the Go
// parser (the HTML5 algorithm, as browsers run it) over the page written,
// and from Chromium's own serialisation of the page it loaded.

func parse(t testing.TB, page []byte) *html.Node {
	t.Helper()
	doc, err := html.Parse(bytes.NewReader(page))
	require.NoError(t, err)
	return doc
}

// elements returns every element of the tree, in document order.
func elements(n *html.Node) []*html.Node {
	var out []*html.Node
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			out = append(out, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return out
}

func attr(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// text is the text content of n, as textContent reads it.
func text(n *html.Node) string {
	var b strings.Builder
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// byID returns the element with the given id, or nil.
func byID(doc *html.Node, id string) *html.Node {
	for _, e := range elements(doc) {
		if v, ok := attr(e, "id"); ok && v == id {
			return e
		}
	}
	return nil
}

func hasClass(n *html.Node, class string) bool {
	v, _ := attr(n, "class")
	for _, c := range strings.Fields(v) {
		if c == class {
			return true
		}
	}
	return false
}

// allowedElements are the elements the templates write. Anything else in
// a page came from a log.
var allowedElements = map[string]bool{}

func init() {
	for _, e := range strings.Fields(`html head meta title style body script a header h1 h2 h3 p nav main
		section dl div dt dd span strong b ul ol li blockquote pre code kbd q table thead tbody tr th td
		details summary form fieldset legend label input button select option figure figcaption
		svg defs marker path text g rect`) {
		allowedElements[e] = true
	}
}

// The only links a page makes: its own anchors, and relative links to
// pages (run pages from a screen, the screen from a run page).
var (
	anchorLink = regexp.MustCompile(`^#(step-\d+|[a-z]+)$`)
	pageLink   = regexp.MustCompile(`^(\.\./)*[A-Za-z0-9._/-]+\.html$`)
)

// checkInert fails unless the document holds only the page's own markup:
// elements the templates write, no event handler, style or src attribute,
// no link but the page's own kinds, one style and one script, and no trace
// of a payload having run.
func checkInert(t *testing.T, doc *html.Node) {
	t.Helper()
	scripts, styles := 0, 0
	for _, e := range elements(doc) {
		assert.True(t, allowedElements[e.Data], "element <%s> is not the page's own", e.Data)
		switch e.Data {
		case "script":
			scripts++
			assert.Equal(t, script, text(e), "the script is the page's own")
		case "style":
			styles++
		}
		for _, a := range e.Attr {
			key := strings.ToLower(a.Key)
			assert.False(t, strings.HasPrefix(key, "on"), "<%s %s=%q>: an event handler", e.Data, a.Key, a.Val)
			assert.NotContains(t, []string{"style", "src", "srcdoc", "formaction", "action", pwned}, key, "<%s %s=%q>", e.Data, a.Key, a.Val)
			assert.NotEqual(t, "xlink", a.Namespace, "<%s xlink:%s>", e.Data, a.Key)
			if key == "href" {
				assert.True(t, anchorLink.MatchString(a.Val) || pageLink.MatchString(a.Val), "<%s href=%q> is not a link the page makes", e.Data, a.Val)
			}
			if key == "http-equiv" {
				assert.Equal(t, "Content-Security-Policy", a.Val, "the only http-equiv is the page's policy")
			}
		}
	}
	assert.Equal(t, 1, scripts, "one script")
	assert.Equal(t, 1, styles, "one stylesheet")
}

// checkSteps checks the run page's contract: one element id="step-N" per
// step, in order, and data-blamed="true" on exactly the blamed one.
func checkSteps(t *testing.T, doc *html.Node, steps, blamed int) {
	t.Helper()
	var ids []string
	var blamedIDs []string
	for _, e := range elements(doc) {
		id, _ := attr(e, "id")
		if strings.HasPrefix(id, "step-") {
			ids = append(ids, id)
		}
		if v, ok := attr(e, "data-blamed"); ok {
			assert.Equal(t, "true", v)
			blamedIDs = append(blamedIDs, id)
		}
	}
	want := make([]string, steps)
	for i := range want {
		want[i] = "step-" + itoa(i)
	}
	assert.Equal(t, want, ids, "one element per step, id step-N")
	assert.Equal(t, []string{"step-" + itoa(blamed)}, blamedIDs, "data-blamed on the blamed step alone")
}

// fileRows returns the data-file of every table row, in order.
func fileRows(doc *html.Node) []string {
	var out []string
	for _, e := range elements(doc) {
		if e.Data == "tr" {
			if v, ok := attr(e, "data-file"); ok {
				out = append(out, v)
			}
		}
	}
	return out
}
