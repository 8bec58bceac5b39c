package localllm

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/envconfig"
	"github.com/ollama/ollama/types/model"
)

// Errors New returns when the model cannot be used; the CLI prints the error
// (one line that says what to do) and exits non-zero.
var (
	ErrModelNotAvailable = errors.New("model not available")
	ErrServerUnreachable = errors.New("ollama server unreachable")
	ErrServerFailed      = errors.New("ollama server failed")
	ErrContextTooSmall   = errors.New("model context too small")
)

// lineError is an error whose message is the whole one-line advice, and
// which still matches its sentinel and its cause with errors.Is.
type lineError struct {
	kind  error
	cause error
	msg   string
}

func (e *lineError) Error() string   { return e.msg }
func (e *lineError) Unwrap() []error { return []error{e.kind, e.cause} }

// Model is what the Judge learned about the model before the first call.
type Model struct {
	Name string `json:"name"`
	Host string `json:"host"`
	// Digest identifies the weights; it keys the cache so a re-pulled model
	// does not reuse old answers.
	Digest string `json:"digest"`
	// ContextLength is the model's trained context (0: not reported).
	ContextLength int `json:"context_length"`
	// NumCtx is the num_ctx sent with every call: the context length, capped
	// so the server does not reserve memory prompts never use. It is the
	// same for every call because changing it makes Ollama reload the model.
	NumCtx int `json:"num_ctx"`
	// Thinking reports the model's "thinking" capability; only then is the
	// think field sent (other models reject it).
	Thinking bool `json:"thinking"`
}

const (
	// maxNumCtx caps num_ctx: no prompt is built larger than maxCallTokens,
	// and a 128K context would only cost the server memory.
	maxNumCtx = 8192
	// unknownNumCtx is assumed when the server does not report a context
	// length: Ollama's own default.
	unknownNumCtx = 4096
	// checkTimeout bounds the /api/show and /api/tags checks, which answer
	// at once on a live server.
	checkTimeout = 30 * time.Second
)

// resolveHost returns the server URL: the flag when given, parsed the way
// Ollama parses OLLAMA_HOST (ParseHost), else envconfig.Host (what
// api.ClientFromEnvironment uses).
func resolveHost(flag string) (*url.URL, error) {
	if strings.TrimSpace(flag) == "" {
		return envconfig.Host(), nil
	}
	u, err := ParseHost(flag)
	if err != nil {
		return nil, fmt.Errorf("--ollama-host %q: %w", flag, err)
	}
	return u, nil
}

// ParseHost reads one server as --ollama-host names it, the way Ollama
// reads OLLAMA_HOST: host:port or a URL, http or https, the port 11434 when
// none is given (80 or 443 after a scheme), 127.0.0.1 when the host is
// left out. A host with a colon must be an IPv6 address, in brackets when
// a port follows. Commands check the flag with it as it is parsed, so a
// bad host is a usage error with or without --model.
func ParseHost(s string) (*url.URL, error) {
	s = strings.TrimSpace(s)
	scheme, hostport, ok := strings.Cut(s, "://")
	defaultPort := "11434"
	switch {
	case !ok:
		scheme, hostport = "http", s
	case scheme == "http":
		defaultPort = "80"
	case scheme == "https":
		defaultPort = "443"
	default:
		return nil, errors.New("scheme must be http or https")
	}
	hostport, path, _ := strings.Cut(hostport, "/")
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = strings.Trim(hostport, "[]"), defaultPort
		if strings.Count(hostport, "[") != strings.Count(hostport, "]") {
			return nil, fmt.Errorf("%q has an unclosed bracket", hostport)
		}
		if strings.Contains(host, ":") {
			if _, err := netip.ParseAddr(host); err != nil {
				return nil, fmt.Errorf("%q is neither host:port nor an IPv6 address", hostport)
			}
		}
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if n, err := strconv.Atoi(port); err != nil || n <= 0 || n > 65535 {
		return nil, fmt.Errorf("invalid port %q", port)
	}
	return &url.URL{Scheme: scheme, Host: net.JoinHostPort(host, port), Path: path}, nil
}

// newHTTPClient returns a client that ignores HTTP(S)_PROXY: the user named
// the Ollama server, and nothing may be sent anywhere else. Per-call
// deadlines come from contexts, not from the client.
func newHTTPClient() *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.Proxy = nil
	return &http.Client{Transport: t}
}

// inspect asks the server about the model: is it there, how long is its
// context, can it think, what is its digest.
func inspect(ctx context.Context, c *api.Client, name, host string) (Model, error) {
	m := Model{Name: name, Host: host}
	cctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	show, err := c.Show(cctx, &api.ShowRequest{Model: name})
	if err != nil {
		return m, classify(ctx, err, name, host)
	}
	m.ContextLength = contextLength(show.ModelInfo)
	m.NumCtx = m.ContextLength
	if m.NumCtx <= 0 {
		m.NumCtx = unknownNumCtx
	}
	m.NumCtx = min(m.NumCtx, maxNumCtx)
	m.Thinking = slices.Contains(show.Capabilities, model.CapabilityThinking)
	m.Digest = digest(cctx, c, name, show)
	return m, nil
}

// classify turns a failed check into the one-line advice a user needs.
func classify(ctx context.Context, err error, name, host string) error {
	if ctx.Err() != nil {
		return fmt.Errorf("check model %s on %s: %w", name, host, ctx.Err())
	}
	var se api.StatusError
	if errors.As(err, &se) {
		if se.StatusCode == http.StatusNotFound {
			return &lineError{ErrModelNotAvailable, err,
				fmt.Sprintf("model %s is not available on %s; run 'ollama pull %s'", name, host, name)}
		}
		return &lineError{ErrServerFailed, err,
			fmt.Sprintf("the Ollama server at %s failed to describe model %s (%s); check its log, or drop --model to use rules alone", host, name, oneLine(se.Error()))}
	}
	var ae api.AuthorizationError
	if errors.As(err, &ae) {
		return &lineError{ErrServerFailed, err,
			fmt.Sprintf("the Ollama server at %s refused access (%s); drop --model to use rules alone", host, oneLine(ae.Error()))}
	}
	return &lineError{ErrServerUnreachable, err,
		fmt.Sprintf("no Ollama server answers at %s (%s); start it with 'ollama serve', or drop --model to use rules alone", host, rootCause(err))}
}

// contextLength reads "<architecture>.context_length" from /api/show's
// model_info, 0 when absent.
func contextLength(info map[string]any) int {
	arch, _ := info["general.architecture"].(string)
	if n := toInt(info[arch+".context_length"]); n > 0 {
		return n
	}
	// Some converted models name the architecture differently in the key;
	// take the smallest context length announced rather than none.
	best := 0
	for k, v := range info {
		if strings.HasSuffix(k, ".context_length") {
			if n := toInt(v); n > 0 && (best == 0 || n < best) {
				best = n
			}
		}
	}
	return best
}

func toInt(v any) int {
	switch x := v.(type) {
	case float64:
		return int(x)
	case int:
		return x
	case int64:
		return int(x)
	case json.Number:
		n, _ := x.Int64()
		return int(n)
	}
	return 0
}

// digest finds the model's digest in /api/tags. Without it (a listing
// error, a remote model) it falls back to a hash of what /api/show said,
// which still changes when the model is replaced.
func digest(ctx context.Context, c *api.Client, name string, show *api.ShowResponse) string {
	if list, err := c.List(ctx); err == nil {
		want := withTag(name)
		for _, m := range list.Models {
			if (withTag(m.Name) == want || withTag(m.Model) == want) && m.Digest != "" {
				return m.Digest
			}
		}
	}
	b, _ := json.Marshal(struct {
		Details    api.ModelDetails
		Modelfile  string
		Parameters string
		Template   string
		Modified   time.Time
	}{show.Details, show.Modelfile, show.Parameters, show.Template, show.ModifiedAt})
	sum := sha256.Sum256(b)
	return "show:" + hex.EncodeToString(sum[:])
}

// withTag adds Ollama's implicit ":latest" so "qwen3" matches "qwen3:latest".
func withTag(name string) string {
	if name == "" {
		return ""
	}
	last := name[strings.LastIndex(name, "/")+1:]
	if !strings.Contains(last, ":") {
		return name + ":latest"
	}
	return name
}

// rootCause is the innermost message of a transport error ("connection
// refused"), which says more to a user than the wrapped URL chain.
func rootCause(err error) string {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return oneLine(err.Error())
		}
		err = next
	}
}

func oneLine(s string) string {
	return clipBytes(strings.Join(strings.Fields(s), " "), 200)
}
