// Package ollamatest is an in-process Ollama server for tests and budget
// measurements: /api/show, /api/tags and /api/chat, spoken with the api
// package's own types. By default it answers every chat with a value built
// from the request's JSON schema; tests replace Respond to misbehave.
package ollamatest

import (
	"encoding/json"
	"math"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/ollama/ollama/api"
	"github.com/ollama/ollama/types/model"
)

// Model is a model the server has.
type Model struct {
	Name          string
	Arch          string // general.architecture; "" means "qwen3"
	ContextLength int    // 0: model_info has no context length
	Thinking      bool
	Digest        string
}

// Reply is how the server answers one chat request.
type Reply struct {
	Status     int    // non-zero and not 200: an error with Error as message
	Error      string //
	Content    string // the message content
	DoneReason string // "" means "stop"
	Delay      time.Duration
	// PromptEvalCount and EvalCount override the server's token counts.
	PromptEvalCount, EvalCount int
}

// Server is a running fake.
type Server struct {
	*httptest.Server
	// Respond decides each chat reply; nil uses SchemaReply.
	Respond func(req *api.ChatRequest, n int) Reply

	mu     sync.Mutex
	models map[string]Model
	chats  []api.ChatRequest
	hits   map[string]int
}

// New starts a server holding models.
func New(models ...Model) *Server {
	s := NewUnstarted(models...)
	s.Server = httptest.NewServer(s.Handler())
	return s
}

// NewUnstarted is New without listening: serve s.Handler() where you like.
func NewUnstarted(models ...Model) *Server {
	s := &Server{models: map[string]Model{}, hits: map[string]int{}}
	for _, m := range models {
		s.models[m.Name] = m
	}
	return s
}

// Chats returns the chat requests received so far.
func (s *Server) Chats() []api.ChatRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]api.ChatRequest(nil), s.chats...)
}

// Hits returns how many requests reached path ("/api/chat", ...).
func (s *Server) Hits(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[path]
}

// Handler is the server's HTTP handler.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/show", s.show)
	mux.HandleFunc("GET /api/tags", s.tags)
	mux.HandleFunc("POST /api/chat", s.chat)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.hits[r.URL.Path]++
		s.mu.Unlock()
		mux.ServeHTTP(w, r)
	})
}

func (s *Server) lookup(name string) (Model, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for key, m := range s.models {
		if strings.TrimSuffix(key, ":latest") == strings.TrimSuffix(name, ":latest") {
			return m, true
		}
	}
	return Model{}, false
}

func (s *Server) show(w http.ResponseWriter, r *http.Request) {
	var req api.ShowRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	m, ok := s.lookup(req.Model)
	if !ok {
		writeError(w, http.StatusNotFound, "model '"+req.Model+"' not found")
		return
	}
	arch := m.Arch
	if arch == "" {
		arch = "qwen3"
	}
	info := map[string]any{"general.architecture": arch}
	if m.ContextLength > 0 {
		info[arch+".context_length"] = m.ContextLength
	}
	caps := []model.Capability{model.CapabilityCompletion}
	if m.Thinking {
		caps = append(caps, model.CapabilityThinking)
	}
	writeJSON(w, api.ShowResponse{ModelInfo: info, Capabilities: caps, Details: api.ModelDetails{Family: arch}})
}

func (s *Server) tags(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	var list api.ListResponse
	for _, m := range s.models {
		list.Models = append(list.Models, api.ListModelResponse{Name: m.Name, Model: m.Name, Digest: m.Digest})
	}
	s.mu.Unlock()
	writeJSON(w, list)
}

func (s *Server) chat(w http.ResponseWriter, r *http.Request) {
	var req api.ChatRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	if _, ok := s.lookup(req.Model); !ok {
		writeError(w, http.StatusNotFound, "model '"+req.Model+"' not found")
		return
	}
	// Like a server asked not to truncate, refuse a prompt longer than
	// num_ctx, so that a measurement against the fake proves prompts fit.
	if numCtx, ok := req.Options["num_ctx"].(float64); ok && PromptTokens(req.Messages) > int(numCtx) {
		writeError(w, http.StatusBadRequest, "the input length exceeds the context length")
		return
	}
	s.mu.Lock()
	s.chats = append(s.chats, req)
	n := len(s.chats)
	respond := s.Respond
	s.mu.Unlock()
	if respond == nil {
		respond = SchemaReply
	}
	rep := respond(&req, n)
	if rep.Delay > 0 {
		select {
		case <-time.After(rep.Delay):
		case <-r.Context().Done():
			return
		}
	}
	if rep.Status != 0 && rep.Status != http.StatusOK {
		writeError(w, rep.Status, rep.Error)
		return
	}
	resp := api.ChatResponse{
		Model:      req.Model,
		CreatedAt:  time.Unix(0, 0).UTC(),
		Message:    api.Message{Role: "assistant", Content: rep.Content},
		Done:       true,
		DoneReason: rep.DoneReason,
	}
	if resp.DoneReason == "" {
		resp.DoneReason = "stop"
	}
	resp.PromptEvalCount = rep.PromptEvalCount
	if resp.PromptEvalCount == 0 {
		resp.PromptEvalCount = PromptTokens(req.Messages)
	}
	resp.EvalCount = rep.EvalCount
	if resp.EvalCount == 0 {
		resp.EvalCount = (len(rep.Content) + 3) / 4
	}
	writeJSON(w, resp)
}

// PromptTokens is the fake's prompt_eval_count: four bytes a token plus four
// tokens of chat template around each message, as Qwen's template adds.
func PromptTokens(msgs []api.Message) int {
	n := 0
	for _, m := range msgs {
		n += (len(m.Content)+3)/4 + 4
	}
	return n
}

// SchemaReply answers with a value that follows the request's schema: for
// numbers in [lo, hi] the point 70% of the way up, the first enum value,
// a short string, one item of an array.
func SchemaReply(req *api.ChatRequest, _ int) Reply {
	var s jsonschema.Schema
	if err := json.Unmarshal(req.Format, &s); err != nil {
		return Reply{Content: `{}`}
	}
	b, _ := json.Marshal(Generate(&s))
	return Reply{Content: string(b)}
}

// Generate builds a value that follows s, its properties in the order the
// request listed them (a decoded schema keeps no order: see Order).
func Generate(s *jsonschema.Schema) any {
	if len(s.Enum) > 0 {
		return s.Enum[0]
	}
	switch s.Type {
	case "object":
		var b strings.Builder
		b.WriteByte('{')
		for i, name := range Order(s) {
			if i > 0 {
				b.WriteByte(',')
			}
			k, _ := json.Marshal(name)
			v, _ := json.Marshal(Generate(s.Properties[name]))
			b.Write(k)
			b.WriteByte(':')
			b.Write(v)
		}
		b.WriteByte('}')
		return json.RawMessage(b.String())
	case "array":
		if s.Items == nil || s.MaxItems != nil && *s.MaxItems == 0 {
			return []any{}
		}
		return []any{Generate(s.Items)}
	case "number", "integer":
		lo, hi := 0.0, 1.0
		if s.Minimum != nil {
			lo = *s.Minimum
		}
		if s.Maximum != nil {
			hi = *s.Maximum
		}
		v := lo + 0.7*(hi-lo)
		if s.Type == "integer" {
			return math.Round(v)
		}
		return v
	case "boolean":
		return true
	case "string":
		return "the step contradicts the evidence"
	}
	return nil
}

// Order is the order to write s's properties in: its required list, which
// offattr writes in property order, then any others by name.
func Order(s *jsonschema.Schema) []string {
	var out []string
	seen := map[string]bool{}
	for _, name := range s.Required {
		if _, ok := s.Properties[name]; ok && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	var rest []string
	for name := range s.Properties {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	return append(out, rest...)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, status int, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	// Ollama writes {"error": msg}; api.StatusError would also write its
	// StatusCode field and the client would read 0 back.
	json.NewEncoder(w).Encode(map[string]string{"error": msg})
}
