package cmdutil

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestTraceURL(t *testing.T) {
	jaeger := TraceURL{Template: "http://jaeger:16686/trace/{trace_id}?uiFind={span_id}"}
	assert.NoError(t, jaeger.Check())
	assert.Equal(t, "http://jaeger:16686/trace/4bf9?uiFind=00f0", jaeger.Link("4bf9", "00f0"))
	assert.Equal(t, "http://jaeger:16686/trace/a%2Fb%3Fc%26d%3De%23f%20g?uiFind=%22%3E%3Cx%3E",
		jaeger.Link("a/b?c&d=e#f g", `"><x>`), "an id from a log stays one value of the URL")
	assert.Equal(t, "", jaeger.Link("", ""), "no span, no link")
	assert.Equal(t, "", (&TraceURL{}).Link("4bf9", "00f0"), "no template, no link")
	assert.NoError(t, (&TraceURL{}).Check())

	for _, bad := range []string{"http://jaeger/trace", "javascript:alert('{span_id}')", "/trace/{trace_id}", "ftp://x/{span_id}"} {
		err := (&TraceURL{Template: bad}).Check()
		var usage *UsageError
		assert.ErrorAs(t, err, &usage, bad)
	}
}
