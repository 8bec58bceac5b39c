package localllm

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ollama/ollama/api"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/localllm/ollamatest"
	"github.com/offattr/offattr/rules"
)

// answerJSON is an analyst answer rating every step crit and voting vote.
func answerJSON(steps []int, crit float64, vote int, conf float64) string {
	var b strings.Builder
	b.WriteByte('{')
	for _, s := range steps {
		fmt.Fprintf(&b, `"step_%d":{"fault":%g,"first":%g,"decisive":%g},`, s, crit, crit, crit)
	}
	fmt.Fprintf(&b, `"vote":{"reason":"step %d used the wrong year","step":%d,"confidence":%g}}`, vote, vote, conf)
	return b.String()
}

func TestAttributeSuccess(t *testing.T) {
	srv := newServer(t, qwen(32768))
	j, warn := newJudge(t, srv, nil)
	r := testRun(10, 30)
	att := testAttribution(r)

	got, err := j.Attribute(context.Background(), r, att)
	require.NoError(t, err)
	assert.Empty(t, warn.String())

	chats := srv.Chats()
	require.Len(t, chats, 3, "one call per analyst")
	wantFormat, err := newFormat(answerSchema([]int{2, 4, 6}))
	require.NoError(t, err)
	var systems []string
	usage := rules.Usage{}
	for _, c := range chats {
		require.Len(t, c.Messages, 2)
		systems = append(systems, c.Messages[0].Content)
		assert.Equal(t, testModel, c.Model)
		assert.Equal(t, string(wantFormat.raw), string(c.Format), "the schema, its keys in order")
		assert.Equal(t, map[string]any{"temperature": 0.0, "seed": 42.0, "num_ctx": 8192.0, "num_predict": 216.0}, c.Options)
		require.NotNil(t, c.Stream)
		assert.False(t, *c.Stream)
		assert.Nil(t, c.Think, "a model without the thinking capability gets no think field")
		require.NotNil(t, c.Truncate)
		assert.False(t, *c.Truncate)
		assert.Equal(t, chats[0].Messages[1].Content, c.Messages[1].Content, "analysts share the user message")
		assert.NotContains(t, c.Messages[1].Content, "SECRET-ANSWER-7", "a run without a ground truth shows none")
		reply := ollamatest.SchemaReply(&c, 0).Content
		usage = usage.Add(rules.Usage{LLMCalls: 1, PromptTokens: ollamatest.PromptTokens(c.Messages), CompletionTokens: (len(reply) + 3) / 4})
	}
	assert.ElementsMatch(t, []string{systemFor(Roles[0]), systemFor(Roles[1]), systemFor(Roles[2])}, systems)
	assert.Equal(t, usage, got.Usage)

	// Every analyst votes step 2, the rules' answer: it stands. Read as
	// one judge of unknown accuracy, three votes for one step among three
	// make that step 3³·B(a+3, b)/B(a, b) times as likely as were it not
	// shown, and each of the others (3/2)³·B(a, b+3)/B(a, b).
	assert.Equal(t, rules.ModeRulesLLM, got.Mode)
	assert.Equal(t, 2, got.Step)
	assert.Equal(t, "Coder", got.Agent)
	assert.Equal(t, []int{2, 4, 6}, steps(got.Candidates))
	w, prior := DefaultModelWeights(), DefaultJudgePrior
	named := math.Exp(w[rules.ModelJudgeEvidence] * (3*math.Log(3) + prior.logMean(3, 0)))
	passed := math.Exp(w[rules.ModelJudgeEvidence] * (3*math.Log(1.5) + prior.logMean(0, 3)))
	pick := 0.5 * math.Exp(w[rules.ModelRulesPick]) * named
	assert.InDelta(t, pick/(pick+(1.0/3+0.25)*passed), got.Confidence, 0.001)
	assert.Equal(t, &rules.Pick{Step: 2, Agent: "Coder"}, got.Model.ModelPick)
	assert.Equal(t, "default", got.Model.Weights)
	assert.Equal(t, []string{"test_rule"}, got.Candidates[0].Rules, "votes are not rules")
	assert.Equal(t, 3, got.Candidates[0].Votes)
	assert.Equal(t, 0, got.Candidates[1].Votes)
	assert.Zero(t, att.Candidates[0].Votes, "the rules' answer is not modified")
	assert.Equal(t, att.Evidence, got.Evidence, "the rules' evidence stands as it was")
	require.Len(t, got.Votes, 3)
	assert.Equal(t, rules.Vote{Analyst: "conservative", Step: 2, Confidence: 0.7, Reason: "the step contradicts the evidence"}, got.Votes[0])
	assert.Contains(t, got.Rationale, "Rules blame step 2. Model qwen3:8b (3 analysts: conservative, liberal, detail-focused) judged steps 2, 4, 6.")
	assert.Contains(t, got.Rationale, "Votes: step 2 ×3 (weight 2.10); criteria for step 2: fault 0.70, first 0.70, decisive 0.70. Weighed with the rules (default weights), the answer stays step 2, confidence")
}

func TestAttributeModelOverridesRules(t *testing.T) {
	srv := newServer(t, qwen(32768))
	srv.Respond = func(req *api.ChatRequest, n int) ollamatest.Reply {
		return ollamatest.Reply{Content: answerJSON([]int{2, 4, 6}, 0.5, 6, 0.9)}
	}
	r := testRun(10, 30)
	// Fitted for a model whose analysts are worth nothing, the rules'
	// answer stands.
	distrusted := &rules.ModelWeights{Model: testModel, Weights: map[string]float64{rules.ModelRulesLogP: 1, rules.ModelRulesPick: 1, rules.ModelVotes: -1}}
	j, _ := newJudge(t, srv, func(o *Options) { o.ModelWeights = distrusted })
	got, err := j.Attribute(context.Background(), r, testAttribution(r))
	require.NoError(t, err)
	assert.Equal(t, 2, got.Step)
	assert.Equal(t, &rules.Pick{Step: 6, Agent: "Coder"}, got.Model.ModelPick)
	// Fitted for a model whose analysts are worth more, three analysts
	// agreeing on the rules' last candidate move the answer.
	trusted := &rules.ModelWeights{Model: testModel, Weights: map[string]float64{rules.ModelRulesLogP: 1, rules.ModelRulesPick: 1, rules.ModelVotes: 2, rules.ModelUnanimous: 2}}
	j, _ = newJudge(t, srv, func(o *Options) { o.ModelWeights = trusted })
	got, err = j.Attribute(context.Background(), r, testAttribution(r))
	require.NoError(t, err)
	assert.Equal(t, 6, got.Step)
	assert.Equal(t, "Coder", got.Agent)
	assert.Equal(t, 6, got.Candidates[0].Step)
	assert.Equal(t, got.Confidence, got.Candidates[0].Score)
	assert.Contains(t, got.Rationale, "Weighed with the rules (fitted for qwen3:8b weights), the model moved the answer from step 2 to step 6 (Coder), confidence")
}

func steps(cs []rules.Candidate) []int {
	var out []int
	for _, c := range cs {
		out = append(out, c.Step)
	}
	return out
}

// TestAttributeBadAnswers drives one analyst through each way an answer can
// fail; a failed analyst leaves the rules' answer exactly as it was.
func TestAttributeBadAnswers(t *testing.T) {
	valid := answerJSON([]int{2, 4, 6}, 0.8, 4, 0.9)
	reply := func(rs ...ollamatest.Reply) func(*api.ChatRequest, int) ollamatest.Reply {
		return func(_ *api.ChatRequest, n int) ollamatest.Reply { return rs[min(n, len(rs))-1] }
	}
	tests := []struct {
		name        string
		respond     func(*api.ChatRequest, int) ollamatest.Reply
		timeout     time.Duration
		wantChats   int
		wantSeeds   []float64
		wantPredict []float64
		wantStep    int // 2: no usable answer; 4: the analyst's vote counted (alone it does not outweigh the rules)
		wantWarn    string
		rerunChats  int // requests a second run makes (cached outcomes: none)
	}{
		{"valid", reply(ollamatest.Reply{Content: valid}), 0, 1, []float64{42}, []float64{216}, 4, "", 0},
		{"not JSON twice", reply(ollamatest.Reply{Content: "The decisive step is 4."}), 0, 2, []float64{42, 43}, []float64{216, 216}, 2,
			"answer does not follow the schema: not JSON", 0},
		{"not JSON then valid", reply(ollamatest.Reply{Content: "Step 4."}, ollamatest.Reply{Content: valid}), 0, 2, []float64{42, 43}, []float64{216, 216}, 4, "", 0},
		{"truncated then valid", reply(ollamatest.Reply{Content: `{"step_2":{"fault":0.`, DoneReason: "length"}, ollamatest.Reply{Content: valid}), 0, 2,
			[]float64{42, 43}, []float64{216, 432}, 4, "", 0},
		{"truncated twice", reply(ollamatest.Reply{Content: `{"step_2":`, DoneReason: "length"}), 0, 2, []float64{42, 43}, []float64{216, 432}, 2,
			`answer cut at num_predict 432 (done_reason "length")`, 0},
		{"valid JSON but truncated", reply(ollamatest.Reply{Content: valid, DoneReason: "length"}), 0, 2, []float64{42, 43}, []float64{216, 432}, 2,
			`done_reason "length"`, 0},
		{"vote off the schema then valid", reply(ollamatest.Reply{Content: answerJSON([]int{2, 4, 6}, 0.8, 5, 0.9)}, ollamatest.Reply{Content: valid}), 0, 2,
			[]float64{42, 43}, []float64{216, 216}, 4, "", 0},
		{"confidence out of range twice", reply(ollamatest.Reply{Content: answerJSON([]int{2, 4, 6}, 80, 4, 0.9)}), 0, 2, []float64{42, 43}, []float64{216, 216}, 2,
			"$.step_2.fault: 80 is above the maximum 1", 0},
		{"HTTP 500 twice", reply(ollamatest.Reply{Status: 500, Error: "llama runner crashed"}), 0, 2, []float64{42, 42}, []float64{216, 216}, 2,
			"call failed: 500 Internal Server Error: llama runner crashed", 2},
		{"HTTP 500 then valid", reply(ollamatest.Reply{Status: 500, Error: "busy"}, ollamatest.Reply{Content: valid}), 0, 2, []float64{42, 42}, []float64{216, 216}, 4, "", 0},
		{"slower than the timeout", reply(ollamatest.Reply{Content: valid, Delay: never}), 100 * time.Millisecond, 1, []float64{42}, []float64{216}, 2,
			"no answer within 100ms", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, qwen(32768))
			srv.Respond = tt.respond
			j, warn := newJudge(t, srv, func(o *Options) { o.Panel = 1; o.Timeout = tt.timeout })
			r := testRun(10, 30)
			att := testAttribution(r)

			got, err := j.Attribute(context.Background(), r, att)
			require.NoError(t, err)
			chats := srv.Chats()
			require.Len(t, chats, tt.wantChats)
			for i, c := range chats {
				assert.Equal(t, tt.wantSeeds[i], c.Options["seed"], "seed of request %d", i+1)
				assert.Equal(t, tt.wantPredict[i], c.Options["num_predict"], "num_predict of request %d", i+1)
			}
			assert.Equal(t, tt.wantChats, got.Usage.LLMCalls)
			assert.Equal(t, 2, got.Step, "one analyst alone does not outweigh the rules")
			if tt.wantStep == 4 {
				require.NotNil(t, got.Model.ModelPick)
				assert.Equal(t, 4, got.Model.ModelPick.Step)
			} else {
				assert.Nil(t, got.Model.ModelPick)
			}
			if tt.wantWarn == "" {
				assert.Empty(t, warn.String())
			} else {
				assert.Contains(t, warn.String(), "offattr: model: case.json: analyst conservative: ")
				assert.Contains(t, warn.String(), tt.wantWarn)
				assert.Contains(t, warn.String(), "; answer dropped\n")
				// The rules' answer stands, untouched but for usage, rationale
				// and the mode, which says the model was asked.
				want := att
				want.Usage = got.Usage
				want.Rationale = got.Rationale
				want.Mode = rules.ModeRulesLLM
				want.Model = &rules.ModelReview{Name: testModel, Strategy: StrategyRank, Requested: StrategyRank, Rounds: 1,
					CandidatesSeen: []int{}, Finalists: []int{2, 4, 6}, RulesPick: &rules.Pick{Step: 2, Agent: "Coder"}, Weights: "default"}
				assert.Equal(t, want, got, "a model that never answered saw no candidate")
				assert.Contains(t, got.Rationale, "The model qwen3:8b gave no usable answer")
			}

			again, err := j.Attribute(context.Background(), r, att)
			require.NoError(t, err)
			assert.Len(t, srv.Chats(), tt.wantChats+tt.rerunChats, "requests made by the second run")
			assert.Equal(t, tt.rerunChats, again.Usage.LLMCalls)
			assert.Equal(t, got.Step, again.Step)
		})
	}
}

func TestAttributeUnreachableAfterCheck(t *testing.T) {
	srv := newServer(t, qwen(32768))
	j, warn := newJudge(t, srv, func(o *Options) { o.Panel = 2 })
	srv.Close()
	r := testRun(10, 30)
	att := testAttribution(r)
	got, err := j.Attribute(context.Background(), r, att)
	require.NoError(t, err)
	assert.Equal(t, 2, got.Step, "the rules' answer stands")
	assert.Equal(t, rules.ModeRulesLLM, got.Mode, "the model was asked")
	assert.Equal(t, 4, got.Usage.LLMCalls, "two analysts, each tried twice")
	assert.Equal(t, 2, strings.Count(warn.String(), "connection refused; answer dropped"))
}

func TestAttributeCancel(t *testing.T) {
	t.Run("while the model answers", func(t *testing.T) {
		srv := newServer(t, qwen(32768))
		arrived := make(chan struct{}, 3)
		srv.Respond = func(*api.ChatRequest, int) ollamatest.Reply {
			arrived <- struct{}{}
			return ollamatest.Reply{Content: "{}", Delay: never}
		}
		j, warn := newJudge(t, srv, func(o *Options) { o.Parallel = 3 })
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-arrived; cancel() }()
		r := testRun(10, 30)
		att := testAttribution(r)
		// The model answers no call: that Attribute returns at all is
		// that cancelling does not wait for the model.
		got, err := attributeReturns(t, ctx, j, r, att)
		require.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, "judge case.json: context canceled", err.Error())
		assert.Equal(t, att.Step, got.Step)
		assert.Equal(t, att.Candidates, got.Candidates)
		assert.Equal(t, rules.ModeRules, got.Mode)
		assert.Contains(t, warn.String(), "offattr: model: case.json: model calls cancelled; the rules' answer stands")
	})
	t.Run("before any call", func(t *testing.T) {
		srv := newServer(t, qwen(32768))
		j, _ := newJudge(t, srv, nil)
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		r := testRun(10, 30)
		got, err := j.Attribute(ctx, r, testAttribution(r))
		require.ErrorIs(t, err, context.Canceled)
		assert.Equal(t, 2, got.Step)
		assert.Equal(t, 0, got.Usage.LLMCalls)
		assert.Equal(t, 0, srv.Hits("/api/chat"))
	})
}

// TestAttributeParallel: two runs share the Judge's slots, and no more
// calls than the slots are in flight at once. Each call is held until
// every slot is taken, so the slots are seen full.
func TestAttributeParallel(t *testing.T) {
	for _, parallel := range []int{1, 2} {
		t.Run(fmt.Sprint(parallel), func(t *testing.T) {
			srv := newServer(t, qwen(32768))
			var mu sync.Mutex
			var inFlight, most int
			arrived, release := make(chan struct{}, 12), make(chan struct{})
			srv.Respond = func(req *api.ChatRequest, n int) ollamatest.Reply {
				mu.Lock()
				inFlight++
				most = max(most, inFlight)
				mu.Unlock()
				arrived <- struct{}{}
				<-release
				mu.Lock()
				inFlight--
				mu.Unlock()
				return ollamatest.SchemaReply(req, n)
			}
			j, _ := newJudge(t, srv, func(o *Options) { o.Parallel = parallel; o.Panel = 6; o.NoCache = true })
			r := testRun(10, 30)
			done := make(chan struct{})
			for range 2 {
				go func() {
					_, err := j.Attribute(context.Background(), r, testAttribution(r))
					assert.NoError(t, err)
					done <- struct{}{}
				}()
			}
			for range parallel {
				<-arrived
			}
			close(release)
			<-done
			<-done
			assert.Len(t, srv.Chats(), 12)
			mu.Lock()
			defer mu.Unlock()
			assert.Equal(t, parallel, most)
		})
	}
}

func TestAttributeThink(t *testing.T) {
	tests := []struct {
		name        string
		thinking    bool
		think       bool
		wantThink   *api.ThinkValue
		wantPredict float64
		wantWarn    string
	}{
		{"thinking model, off by default", true, false, &api.ThinkValue{Value: false}, 216, ""},
		{"thinking model, --think", true, true, &api.ThinkValue{Value: true}, 216 + 1024, ""},
		{"plain model", false, false, nil, 216, ""},
		{"plain model, --think", false, true, nil, 216, "model qwen3:8b cannot think; --think ignored"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := qwen(32768)
			m.Thinking = tt.thinking
			srv := newServer(t, m)
			j, warn := newJudge(t, srv, func(o *Options) { o.Think = tt.think; o.Panel = 1 })
			r := testRun(10, 30)
			_, err := j.Attribute(context.Background(), r, testAttribution(r))
			require.NoError(t, err)
			require.Len(t, srv.Chats(), 1)
			c := srv.Chats()[0]
			assert.Equal(t, tt.wantThink, c.Think)
			assert.Equal(t, tt.wantPredict, c.Options["num_predict"])
			if tt.wantWarn != "" {
				assert.Contains(t, warn.String(), tt.wantWarn)
			}
		})
	}
}

func TestAttributeGroundTruth(t *testing.T) {
	// The prompt shows the correct answer exactly when the run carries one:
	// the "without ground truth" setting is decided once, when the run is
	// loaded, and a run loaded that way has none to show.
	srv := newServer(t, qwen(32768))
	j, _ := newJudge(t, srv, func(o *Options) { o.Panel = 1 })
	without := testRun(10, 30)
	with := *without
	with.GroundTruth = "SECRET-ANSWER-7"
	_, err := j.Attribute(context.Background(), without, testAttribution(without))
	require.NoError(t, err)
	_, err = j.Attribute(context.Background(), &with, testAttribution(&with))
	require.NoError(t, err)
	chats := srv.Chats()
	require.Len(t, chats, 2, "the settings do not share cache entries")
	raw, _ := json.Marshal(chats[0])
	assert.NotContains(t, string(raw), "SECRET-ANSWER-7")
	assert.Contains(t, chats[1].Messages[1].Content, "\nCorrect answer:\n```answer\nSECRET-ANSWER-7\n```\n")
}

// TestNumCtx checks that every prompt fits the model's context, for a 4K
// and a 32K model, and that a short run gets the same prompt from both.
func TestNumCtx(t *testing.T) {
	long := testRun(60, 400) // about 40K tokens
	short := testRun(8, 60)
	tests := []struct {
		name       string
		ctx        int
		wantNumCtx float64
		wantBudget int
	}{
		{"4K", 4096, 4096, (4096 - 2*216) * 3 / 4},
		{"32K", 32768, 8192, maxCallTokens},
	}
	users := map[string]string{}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := newServer(t, qwen(tt.ctx))
			j, warn := newJudge(t, srv, nil)
			_, err := j.Attribute(context.Background(), long, testAttribution(long))
			require.NoError(t, err)
			_, err = j.Attribute(context.Background(), short, testAttribution(short))
			require.NoError(t, err)
			assert.Empty(t, warn.String())
			chats := srv.Chats()
			require.Len(t, chats, 6)
			for _, c := range chats[:3] {
				assert.Equal(t, tt.wantNumCtx, c.Options["num_ctx"])
				tokens := ollamatest.PromptTokens(c.Messages)
				assert.LessOrEqual(t, tokens, tt.wantBudget, "prompt within the budget")
				assert.Greater(t, tokens, tt.wantBudget*9/10, "the budget is used")
				// Fits even if the true count is a third above the estimate.
				assert.LessOrEqual(t, tokens*4/3+2*216, int(tt.wantNumCtx))
			}
			users[tt.name] = chats[3].Messages[1].Content
		})
	}
	assert.Equal(t, users["4K"], users["32K"], "a short run reads the same on a 4K model")
}
