package localllm

import (
	"context"
	"net/http"
	"testing"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/localllm/ollamatest"
)

func TestNewChecksTheModel(t *testing.T) {
	srv := newServer(t, qwen(32768), ollamatest.Model{Name: "tiny", ContextLength: 1024})
	closed := ollamatest.New()
	closedURL := closed.URL
	closed.Close()

	tests := []struct {
		name    string
		opts    Options
		wantIs  error
		wantMsg string
	}{
		{"missing model", Options{Model: "llama3.3:70b", Host: srv.URL}, ErrModelNotAvailable,
			"model llama3.3:70b is not available on " + srv.URL + "; run 'ollama pull llama3.3:70b'"},
		{"unreachable server", Options{Model: testModel, Host: closedURL}, ErrServerUnreachable,
			"no Ollama server answers at " + closedURL + " (connection refused); start it with 'ollama serve', or drop --model to use rules alone"},
		{"context too small", Options{Model: "tiny", Host: srv.URL}, ErrContextTooSmall,
			"model tiny has a context of 1024 tokens, too small for --top-k 4; use a larger model, fewer candidates, or drop --model"},
		{"panel too large", Options{Model: testModel, Host: srv.URL, Panel: 7}, nil, "--panel 7: at most 6 analyst roles"},
		{"bad host", Options{Model: testModel, Host: "ftp://box"}, nil, `--ollama-host "ftp://box": scheme must be http or https`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := New(context.Background(), tt.opts)
			require.Error(t, err)
			assert.Equal(t, tt.wantMsg, err.Error())
			if tt.wantIs != nil {
				assert.ErrorIs(t, err, tt.wantIs)
			}
		})
	}
	assert.Equal(t, 0, srv.Hits("/api/chat"), "checks never chat")
}

func TestNewServerErrorOnShow(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/api/show", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":"out of memory"}`, http.StatusInternalServerError)
	})
	srv := ollamatest.New()
	srv.Config.Handler = mux
	t.Cleanup(srv.Close)
	_, err := New(context.Background(), Options{Model: testModel, Host: srv.URL})
	require.ErrorIs(t, err, ErrServerFailed)
	assert.Contains(t, err.Error(), "the Ollama server at "+srv.URL+" failed to describe model qwen3:8b")
	var se api.StatusError
	require.ErrorAs(t, err, &se, "the cause stays reachable")
	assert.Equal(t, http.StatusInternalServerError, se.StatusCode)
}

func TestNewReadsModel(t *testing.T) {
	tests := []struct {
		name  string
		model ollamatest.Model
		want  Model
	}{
		{"4K context", ollamatest.Model{Name: "small", ContextLength: 4096, Digest: "sha256:1"},
			Model{Name: "small", ContextLength: 4096, NumCtx: 4096, Digest: "sha256:1"}},
		{"32K context capped", ollamatest.Model{Name: "big", ContextLength: 32768, Digest: "sha256:2", Thinking: true},
			Model{Name: "big", ContextLength: 32768, NumCtx: 8192, Digest: "sha256:2", Thinking: true}},
		{"unknown context", ollamatest.Model{Name: "odd", Arch: "llama", Digest: "sha256:3"},
			Model{Name: "odd", NumCtx: 4096, Digest: "sha256:3"}},
		{"tag added", ollamatest.Model{Name: "mistral:latest", Arch: "llama", ContextLength: 8192, Digest: "sha256:4"},
			Model{Name: "mistral", ContextLength: 8192, NumCtx: 8192, Digest: "sha256:4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, tt.model)
			j, err := New(context.Background(), Options{Model: tt.want.Name, Host: srv.URL, NoCache: true})
			require.NoError(t, err)
			tt.want.Host = srv.URL
			assert.Equal(t, tt.want, j.Model())
		})
	}
}

func TestResolveHost(t *testing.T) {
	tests := []struct{ in, want string }{
		{"127.0.0.1:11434", "http://127.0.0.1:11434"},
		{"box", "http://box:11434"},
		{"http://box", "http://box:80"},
		{"https://box", "https://box:443"},
		{"http://box:8080/ollama", "http://box:8080/ollama"},
		{"[::1]:9999", "http://[::1]:9999"},
		{":11500", "http://127.0.0.1:11500"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			u, err := resolveHost(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, u.String())
		})
	}
	t.Run("env", func(t *testing.T) {
		t.Setenv("OLLAMA_HOST", "10.1.2.3:7000")
		u, err := resolveHost("")
		require.NoError(t, err)
		assert.Equal(t, "http://10.1.2.3:7000", u.String())
	})
	_, err := resolveHost("box:99999")
	assert.EqualError(t, err, `--ollama-host "box:99999": invalid port "99999"`)
	for in, want := range map[string]string{
		"::bad::":     `"::bad::" is neither host:port nor an IPv6 address`,
		"http://[::1": `"[::1" has an unclosed bracket`,
		"ftp://box":   "scheme must be http or https",
		"box:0":       `invalid port "0"`,
	} {
		_, err := ParseHost(in)
		assert.EqualError(t, err, want, in)
	}
}
