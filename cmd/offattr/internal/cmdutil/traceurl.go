package cmdutil

import (
	"net/url"
	"os"
	"regexp"
	"strings"

	"github.com/spf13/pflag"
)

// TraceURLEnv names the environment variable --trace-url defaults to.
const TraceURLEnv = "OFFATTR_TRACE_URL"

// TraceURL turns a trace's and a span's ids into a link to the user's
// trace viewer (Jaeger, Tempo, Phoenix, Langfuse): a URL template in which
// {trace_id} and {span_id} are replaced.
type TraceURL struct {
	Template string
}

// Register adds --trace-url to fs, defaulting to $OFFATTR_TRACE_URL.
func (t *TraceURL) Register(fs *pflag.FlagSet) {
	fs.StringVar(&t.Template, "trace-url", os.Getenv(TraceURLEnv),
		"link span ids to a trace viewer: a URL with {trace_id} and {span_id}, e.g. http://jaeger:16686/trace/{trace_id}?uiFind={span_id} (default: $"+TraceURLEnv+")")
}

// Check says whether the template can make links: an http or https URL
// that names {trace_id} or {span_id}. An empty template (no links) is
// fine.
func (t *TraceURL) Check() error {
	if t.Template == "" {
		return nil
	}
	if !strings.Contains(t.Template, "{trace_id}") && !strings.Contains(t.Template, "{span_id}") {
		return Usagef("--trace-url %q names neither {trace_id} nor {span_id}", t.Template)
	}
	u, err := url.Parse(t.Link("0", "0"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return Usagef("--trace-url %q is not an http or https URL", t.Template)
	}
	return nil
}

// Link is the template with the ids in place, or "" without a template or
// without a span. The ids come from a log: each is escaped so that it
// stays one value of the URL, whatever it holds.
func (t *TraceURL) Link(traceID, spanID string) string {
	if t == nil || t.Template == "" || (traceID == "" && spanID == "") {
		return ""
	}
	return strings.NewReplacer("{trace_id}", urlValue(traceID), "{span_id}", urlValue(spanID)).Replace(t.Template)
}

var plainID = regexp.MustCompile(`^[A-Za-z0-9._~-]*$`)

// urlValue escapes s for any part of a URL: only unreserved characters
// are kept as they are.
func urlValue(s string) string {
	if plainID.MatchString(s) {
		return s
	}
	return strings.ReplaceAll(url.QueryEscape(s), "+", "%20")
}
