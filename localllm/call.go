package localllm

import (
	"context"
	"errors"
	"fmt"
	"maps"

	"github.com/ollama/ollama/api"

	"github.com/offattr/offattr/rules"
)

// call is one analyst's question.
type call struct {
	role  Role
	req   *api.ChatRequest
	check *format
	steps []int
	// window marks a sweep reader's call, whose answer names suspects;
	// the others are analysts' answers (see prompt.go).
	window bool
}

// outcome is what came of a call: an answer, or why there is none.
type outcome struct {
	role     Role
	answer   *answer
	suspects []suspect // a window's answer; answer is nil then
	usage    rules.Usage
	cached   bool
	problem  string // set when answer is nil
	err      error  // the caller's context ended
	// overflow is set when the server found the prompt longer than the
	// model's context: the judge rebuilds it smaller.
	overflow bool
}

// problemKind says whether a failed attempt is worth caching: the model's
// own answer (it would give the same again) is; a transport failure is not.
type problemKind int

const (
	noProblem problemKind = iota
	modelProblem
	transportProblem
)

var errTimeout = errors.New("timed out")

// ask runs one call: from the cache if it is there, else at most two
// attempts. A bad answer (not JSON, off the schema, truncated) is retried
// once with another seed — the same request at temperature 0 would give the
// same answer — and, if it was cut short, twice the num_predict. A failed
// request (HTTP 5xx, broken connection) is retried once as it was. A call
// that times out is not retried: the next would most likely time out too.
func (j *Judge) ask(ctx context.Context, c call) outcome {
	o := outcome{role: c.role}
	key := cacheKey(j.model, c.req)
	if e, ok := j.cache.get(key); ok {
		o.cached = true
		if e.Problem != "" {
			o.problem = e.Problem + " (cached)"
			o.overflow = e.Problem == overflowProblem
			return o
		}
		if problem := o.decode(e.Content, c); problem == "" {
			return o
		}
		o.cached = false // a damaged entry: ask again
	}
	req := c.req
	var kind problemKind
	for attempt := 1; attempt <= 2; attempt++ {
		resp, sent, err := j.send(ctx, req)
		if sent {
			o.usage = o.usage.Add(rules.Usage{LLMCalls: 1, PromptTokens: resp.PromptEvalCount, CompletionTokens: resp.EvalCount})
		}
		if ctx.Err() != nil {
			o.err = ctx.Err()
			return o
		}
		if errors.Is(err, errTimeout) {
			o.problem = fmt.Sprintf("no answer within %s", j.opts.Timeout)
			return o
		}
		if isOverflow(err) {
			// The same prompt would not fit again; only a smaller one can.
			o.problem, o.overflow = overflowProblem, true
			if err := j.cache.put(key, entry{Model: j.model.Name, Problem: overflowProblem}); err != nil {
				j.warnOnce("cache", "response cache disabled: "+err.Error())
			}
			return o
		}
		if err != nil {
			kind, o.problem = transportProblem, "call failed: "+oneLine(err.Error())
			continue
		}
		problem := o.decode(resp.Message.Content, c)
		if resp.DoneReason == "length" {
			problem = fmt.Sprintf("answer cut at num_predict %v (done_reason \"length\")", req.Options["num_predict"])
		}
		if problem == "" {
			if err := j.cache.put(key, entry{Model: j.model.Name, Content: resp.Message.Content}); err != nil {
				j.warnOnce("cache", "response cache disabled: "+err.Error())
			}
			o.problem = ""
			return o
		}
		kind, o.problem, o.answer, o.suspects = modelProblem, problem, nil, nil
		req = retryRequest(req, resp.DoneReason == "length")
	}
	if kind == modelProblem {
		if err := j.cache.put(key, entry{Model: j.model.Name, Problem: o.problem}); err != nil {
			j.warnOnce("cache", "response cache disabled: "+err.Error())
		}
	}
	return o
}

// decode validates an answer against the call's schema and reads it into
// o; it returns the problem, "" when the answer is usable.
func (o *outcome) decode(content string, c call) string {
	if err := c.check.check(content); err != nil {
		return oneLine(err.Error())
	}
	if c.window {
		sus, err := parseSuspects(content, c.steps)
		if err != nil {
			return "unreadable answer: " + oneLine(err.Error())
		}
		o.suspects = sus
		return ""
	}
	a, err := parseAnswer(content, c.steps)
	if err != nil {
		return "unreadable answer: " + oneLine(err.Error())
	}
	o.answer = &a
	return ""
}

// retryRequest is the second attempt after a bad answer.
func retryRequest(req *api.ChatRequest, truncated bool) *api.ChatRequest {
	next := *req
	next.Options = maps.Clone(req.Options)
	next.Options["seed"] = toInt(req.Options["seed"]) + 1
	if truncated {
		next.Options["num_predict"] = 2 * toInt(req.Options["num_predict"])
	}
	return &next
}

// send makes one request, waiting for a slot first (Parallel) so the
// timeout measures the server's work, not the queue. sent is false when the
// request never left (the context ended while waiting).
func (j *Judge) send(ctx context.Context, req *api.ChatRequest) (resp api.ChatResponse, sent bool, err error) {
	if err := ctx.Err(); err != nil {
		return resp, false, err // select below would pick at random
	}
	select {
	case j.slots <- struct{}{}:
	case <-ctx.Done():
		return resp, false, ctx.Err()
	}
	defer func() { <-j.slots }()
	cctx, cancel := context.WithTimeout(ctx, j.opts.Timeout)
	defer cancel()
	got := false
	err = j.client.Chat(cctx, req, func(r api.ChatResponse) error {
		resp, got = r, true
		return nil
	})
	if err == nil && !got {
		err = errors.New("empty response")
	}
	if err != nil && ctx.Err() == nil && errors.Is(cctx.Err(), context.DeadlineExceeded) {
		err = errTimeout
	}
	return resp, true, err
}
