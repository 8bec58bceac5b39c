package report

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"
	"io"
	"strings"
)

//go:embed assets/*.html
var templateFiles embed.FS

//go:embed assets/page.css
var baseCSS string

//go:embed assets/page.js
var script string

// templates holds both pages; "run" and "screen" are the entry points,
// "head" and "foot" their common parts.
var templates = template.Must(template.New("").Funcs(template.FuncMap{
	// plural picks a noun's form for a count: "1 step", "2 steps".
	"plural": func(n int, one, many string) string {
		if n == 1 {
			return one
		}
		return many
	},
}).ParseFS(templateFiles, "assets/*.html"))

// page is what every page's head needs: its title, its one stylesheet and
// script, and the policy that allows those two and nothing else.
type page struct {
	Title  string
	CSS    template.CSS
	Script template.JS
	// CSP is the Content-Security-Policy: no source at all by default, the
	// page's own style and script by hash. So even text that escaping had
	// let through could not run a script, apply a style attribute or make
	// the browser fetch anything, from any host.
	CSP string
}

// newPage assembles the head of a page whose stylesheet is the common one
// followed by extra (the agents' colours, built from numbers only).
func newPage(title string, extra template.CSS) page {
	css := baseCSS + string(extra)
	return page{
		Title:  title,
		CSS:    template.CSS(css),
		Script: template.JS(script),
		CSP: fmt.Sprintf("default-src 'none'; script-src '%s'; style-src '%s'; base-uri 'none'; form-action 'none'",
			hash(script), hash(css)),
	}
}

// hash is a CSP source expression for an inline element's exact text.
func hash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// execute renders template name into w through a buffer, so a failed page
// is reported rather than written half.
func execute(w io.Writer, name string, data any) error {
	var b strings.Builder
	if err := templates.ExecuteTemplate(&b, name, data); err != nil {
		return fmt.Errorf("render %s page: %w", name, err)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
