package localllm

import (
	"errors"
	"net/http"
	"strings"
	"sync"

	"github.com/ollama/ollama/api"
)

// Prompts are sized with bytes/4 tokens, which holds for the BPE
// vocabularies of Qwen and Llama on English but not for every model: a
// byte-level vocabulary spends a token per byte. When the server says a
// prompt does not fit, the judge learns that the estimate runs short for
// this model and rebuilds its prompts smaller, and keeps the lesson for the
// rest of the process.

// overflowProblem marks a call whose prompt the server found longer than
// num_ctx; it is cached like any answer the model would give again.
const overflowProblem = "prompt longer than the model's context"

// maxShrink bounds how far prompts are shrunk: at 4× the estimate is one
// token per byte, the worst a vocabulary can do.
const maxShrink = 4

// isOverflow reports whether the server rejected a prompt as too long.
func isOverflow(err error) bool {
	var se api.StatusError
	if !errors.As(err, &se) || se.StatusCode != http.StatusBadRequest {
		return false
	}
	msg := strings.ToLower(se.ErrorMessage + " " + se.Status)
	return strings.Contains(msg, "context length") || strings.Contains(msg, "context window")
}

// shrink is the judge's learned correction to the token estimate.
type shrink struct {
	mu     sync.Mutex
	factor int // prompts are built at budget/factor; starts at 1
}

func (s *shrink) get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.factor < 1 {
		return 1
	}
	return s.factor
}

// grow doubles the factor after an overflow at factor from; it reports
// whether prompts can still shrink.
func (s *shrink) grow(from int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.factor < 1 {
		s.factor = 1
	}
	if s.factor == from {
		s.factor = min(2*from, maxShrink)
	}
	return s.factor > from
}
