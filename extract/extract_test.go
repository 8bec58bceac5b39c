package extract

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// steps builds a run from (agent, content) pairs; a "Name (-> Target)" agent
// becomes an instruction as the Magentic-One loader makes it.
func steps(pairs ...string) *run.Run {
	r := &run.Run{Question: "How many pitchers are there?"}
	for i := 0; i+1 < len(pairs); i += 2 {
		s := run.Step{Index: i / 2, Agent: pairs[i], Content: pairs[i+1], Kind: run.KindMessage}
		if a, target, ok := strings.Cut(pairs[i], " -> "); ok {
			s.Agent, s.Edit().Target, s.Kind = a, target, run.KindInstruction
		}
		r.Steps = append(r.Steps, s)
	}
	return r
}

// chat is steps, where the agent "user" is the user.
func chat(pairs ...string) *run.Run {
	r := steps(pairs...)
	for i := range r.Steps {
		if r.Steps[i].Agent == "user" {
			r.Steps[i].Kind = run.KindUser
		}
	}
	return r
}

// toolChatThanks is a chat whose agent called a tool, closed by the
// user's thanks: the reply before the thanks may report an action.
func toolChatThanks() *run.Run {
	r := chat("user", "How many pitchers are there?", "assistant", "count_pitchers()", "tool", "12", "assistant", "There are 12 pitchers.", "user", "Thanks, bye.")
	r.Steps[1].Kind, r.Steps[2].Kind = run.KindToolCall, run.KindToolResult
	return r
}

// handoff is a chat in which the agent the user spoke to hands the user
// over, by a call, to another that answers.
func handoff() *run.Run {
	r := chat("user", "Which element has atomic number 4?", "triage", "transfer_to_chemistry()", "tool", "{\"assistant\": \"chemistry\"}", "chemistry", "The element is beryllium.")
	r.Steps[1].Kind, r.Steps[2].Kind = run.KindToolCall, run.KindToolResult
	return r
}

func TestStepKinds(t *testing.T) {
	r := steps(
		"user", "How many pitchers are there? Please answer.",
		"Planner", "Here is the plan:\n1. Search the roster.\n2. Count the pitchers.",
		"Planner", "We are stuck. Here is the updated plan:\n1. Ask the coder.",
		"Planner", "Coder, please write code to count them.",
		"Coder", "```python\nprint(len(pitchers))\n```",
		"Executor", "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"x.py\", line 1, in <module>\nNameError: name 'pitchers' is not defined",
		"Coder", "I apologize. The answer is 42.",
		"Checker", "I have verified the count. FINAL ANSWER: 42\nTERMINATE",
		"Planner -> Coder", "Stop now.",
	)
	rf := Run(r)
	require.Len(t, rf.Steps, 9)
	tests := []struct {
		step   int
		kind   StepKind
		has    []StepKind
		target string
	}{
		{0, KindTask, nil, ""},
		{1, KindPlan, nil, ""},
		{2, KindReplan, []StepKind{KindInstruction}, "Coder"},
		{3, KindInstruction, nil, "Coder"},
		{4, KindToolCall, nil, ""},
		{5, KindToolResult, nil, ""},
		{6, KindAnswer, nil, ""},
		{7, KindFinalAnswer, []StepKind{KindVerification, KindTermination}, ""},
		{8, KindInstruction, nil, "Coder"},
	}
	for _, tt := range tests {
		f := rf.Steps[tt.step]
		assert.Equal(t, tt.kind, f.Kind, "step %d kinds %v", tt.step, f.Kinds)
		for _, k := range tt.has {
			assert.True(t, f.Has(k), "step %d should have %s, has %v", tt.step, k, f.Kinds)
		}
		assert.Equal(t, tt.target, f.Target, "step %d target", tt.step)
	}

	failed := rf.Steps[5]
	require.NotNil(t, failed.ExitCode)
	assert.Equal(t, 1, *failed.ExitCode)
	assert.Equal(t, ContextErrorPropagation, failed.ContextType)
	assert.Equal(t, []string{"exit_code", "exception"}, signalKinds(failed.Errors))
	assert.Equal(t, "NameError: name 'pitchers' is not defined", failed.Errors[1].Quote)
	assert.Equal(t, "exitcode: 1 (execution failed)", failed.Errors[0].Quote)
	assert.Equal(t, 0, failed.Errors[0].Offset)

	assert.Equal(t, []string{"print(len(pitchers))"}, rf.Steps[4].Code)
	assert.Equal(t, "42", rf.Steps[6].Answer)
	assert.Contains(t, signalKinds(rf.Steps[6].Errors), "apology")

	require.NotNil(t, rf.FinalAnswer)
	assert.Equal(t, FinalAnswer{Step: 7, Text: "42", Source: SourceFinalAnswer, Claims: []Claim{{Kind: ClaimNumber, Text: "42", Norm: "42"}}}, *rf.FinalAnswer)
}

// TestSpecsArePlans: the specs a software team lays its work out in are
// plans, as MetaGPT's roles write them (a product manager's requirement
// pool and an architect's approach as markdown headings, a project
// manager's task list as a field of its JSON; a heading that is only
// "Requirements" or "Design"), and so is a line that names the approach;
// a message that only mentions an approach or a design is not.
func TestSpecsArePlans(t *testing.T) {
	rf := Run(steps(
		"user", "Write late_fee(days_late): $0.25 per day after a 3-day grace period.",
		"ProductManager", "## Original Requirements\nA late_fee(days_late) function.\n\n## Requirement Pool\n- P0: 0.25 per day after 3 grace days",
		"Architect", "## Implementation approach\nfees.py holds DAILY_RATE = 0.25 and GRACE_DAYS = 3.",
		"ProjectManager", "[CONTENT]\n{\n    \"Logic Analysis\": [[\"fees.py\", \"late_fee()\"]],\n    \"Task list\": [\"fees.py\"]\n}\n[/CONTENT]",
		"Strategist", "Approach: divide the 100 eggs by the 12 eggs per carton.",
		"Engineer", "My approach follows the design; the code is below.",
		"Architect", "## Design\nOne module, ratings.py.",
		"Engineer", "## Design notes for the reviewer\nNothing changed.",
	))
	want := []StepKind{KindPlan, KindReplan, KindReplan, KindReplan, KindMessage, KindReplan, KindMessage}
	for i, k := range want {
		assert.Equal(t, k, rf.Steps[i+1].Kind, "step %d kinds %v", i+1, rf.Steps[i+1].Kinds)
	}
}

func signalKinds(ss []Signal) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Kind)
	}
	return out
}

func TestSignals(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		errors []string
		oks    []string
	}{
		{"negated failure is no failure", "The search did not fail and no errors were found.", nil, nil},
		{"not found", "Error 404: page not found", []string{"not_found"}, nil},
		{"a 404 status", "GET /api/orders returned 404", []string{"not_found"}, nil},
		{"an amount of the same digits is no status", "20% of $2,020 is $404, so you save $404 a month; 1,404 km at $404.50.", nil, nil},
		{"a status that source code handles or tests for is no failure", "## Code: orders_api.py\n```python\nif orders is None:\n    abort(404)\nassert res.status_code == 404\n```", nil, nil},
		{"a numbered item that writes the same digits is no status", "- Rule 404. Character Evidence\n- Room 404, Section 404 and Article 404 apply.", nil, nil},
		{"a status after a noun that numbers nothing is one met", "The Page 404 error came back; the server sent 404.", []string{"not_found"}, nil},
		{"a status a console block printed is one met", "```console\n$ curl -i localhost/api\nHTTP/1.1 404 NOT FOUND\n```", []string{"not_found"}, nil},
		{"a not-found that source code prints is still read", "```python\nprint(\"file not found\")\n```", []string{"not_found"}, nil},
		{"a message a file's source prints or raises is the program's", "## Code: main.py\n```python\nexcept FileNotFoundError:\n    print(f\"wordfreq: no such file: {path}\", file=sys.stderr)\n    raise SystemExit(\"upload failed\")\n```\n**app/cli.js**\n```js\nconsole.log(`config not found`)\n```", nil, nil},
		{"but not one outside a literal, nor one in code under no file's name", "## Code: main.py\n```python\nfailed = 0  # upload failed\n```\nLet me run:\n```python\nprint(\"file not found\")\n```", []string{"not_found", "failure"}, nil},
		{"refusal", "I'm sorry, but I am unable to help with that.", []string{"refusal", "apology"}, nil},
		{"an apology does not hide the failure it apologises for", "I'm sorry, I could not access the source page.", []string{"failure", "apology"}, nil},
		{"made-up data", "Here is a dummy list of values.", []string{"assumption"}, nil},
		{"stall", "Stalled.... Replanning...", []string{"stall"}, nil},
		{"framework traceback is a runtime error", "Error processing publish message\nTraceback (most recent call last):\n  File \"/usr/lib/python3.11/site-packages/core/run.py\", line 4, in x\n    raise\nBrokenPipeError: pipe", []string{"runtime_error"}, nil},
		{"an output label with nothing after it", "exitcode: 0 (execution succeeded)\nCode output: \n", []string{"empty_result"}, []string{"exit_code"}},
		{"an output label on its own line before the output", "Process exited with code 0\nOutput:\n./pkg/parser.py:8:def parse(text):\n", nil, []string{"exit_code"}},
		{"a timeout that expired", "The request timed out after 30 s.", []string{"failure"}, nil},
		{"a timeout error", "The run ended in a timeout error.", []string{"failure"}, nil},
		{"a timeout setting is no failure", "- P0: idle timeout of 15 minutes, reset on every request\n- call fetch(url, timeout=30)", nil, nil},
		{"a timeout setting named with its unit is no failure", "TIMEOUT_SECONDS = 30\n    timeout-minutes: 30\nclient = Client(timeout_ms=5000)\nconfig: {timeoutMs: 5000}\nsession timeout (minutes): 15\ntimeout in seconds: 30", nil, nil},
		{"a count of timeouts", "Requests: 120, timeouts: 3", []string{"failure"}, nil},
		{"a timeout something owns or is handed is a setting", "HTTPTransport drops the caller's timeout: pass the timeout through. I'll set a timeout on the session; its timeout is read once.", nil, nil},
		{"a timeout named as a setting", "The timeout option is ignored; forward the timeout value, and the timeout settings of the pool.", nil, nil},
		{"a timeout met is still a failure", "The job hit a timeout.", []string{"failure"}, nil},
		{"a kind of timeout met", "The connection timeout stopped the upload.", []string{"failure"}, nil},
		{"a timeout something owns, met", "The search hit its timeout.", []string{"failure"}, nil},
		{"a timeout another owns, met", "The job ran past the runner's idle timeout.", []string{"failure"}, nil},
		{"a timeout something owns, run out", "The API's timeout expired before it answered.", []string{"failure"}, nil},
		{"a timeout they own, elapsed", "Their timeout has elapsed.", []string{"failure"}, nil},
		{"a timeout something owns that acted", "The site's timeout cut the request off.\nIts timeout kicked in again.\nThe scraper's timeout triggered twice.", []string{"failure", "failure", "failure"}, nil},
		{"a timeout something owns, its value written, met", "The gateway's timeout (30 s) was hit before the page answered.", []string{"failure"}, nil},
		{"a timeout something owns, its value told, is a setting", "The gateway's timeout (30 s) is read once; its timeout is 30 s.", nil, nil},

		{"a failure word that names something in code is no failure", "## Code: client.py\n```python\ntry:\n    response = requests.get(url, timeout=TIMEOUT)\nexcept requests.Timeout as exc:\n    raise ServiceTimeout(url) from exc\n```", nil, nil},
		{"nor one in source a triple-quoted string holds, on the line that opens it", "```py\nadapter_send = '''    def send(self, request, stream=False, timeout=None, verify=True):\n        return self.conn.urlopen(timeout=timeout)\n'''\nprint(adapter_send)\n```", nil, nil},
		{"nor a member a class diagram lists", "```mermaid\nclassDiagram\n    class Client {\n        +TIMEOUT: int\n    }\n```", nil, nil},
		{"a failure that code hands a logger is not met", "## Code: uploader.py\n```python\nexcept IOError:\n    log.warning('upload failed, retry %d', attempt + 1)\n    logger.error(f\"request to {url} timed out\")\n```", nil, nil},
		{"nor one a formatter breaks onto the call's next line, or that quotes text inside", "## Code: uploader.py\n```python\nexcept IOError:\n    log.warning(\n        'upload failed, retry %d', attempt + 1\n    )\n    self.logger.error(f\"upload of '{name}' failed\")\n```", nil, nil},
		{"nor one Go's, Java's or a chained logger's method is handed", "## Code: uploader.go\n```go\nlog.Printf(\"upload failed, retry %d: %v\", attempt+1, err)\nslog.Warn(\"upload failed\", \"retry\", attempt+1)\nlog.WithError(err).Error(\"request timed out\")\n```\n```java\nLOGGER.severe(\"upload failed: \" + e);\n```", nil, nil},
		{"a failure in code after a logger's call is read", "```python\nlog.info(\"start\")\nprint(\"upload failed\")\n```", []string{"failure"}, nil},
		{"a failure word in a string literal source code holds as data is not met", "## Code: test_logscan.py\n```python\nLOG = [\n    \"2024-05-01T13:04:55Z ERROR payment: card declined\",\n    \"2024-05-01T13:59:59Z ERROR payment: timeout\",\n]\nrecord = {\"status\": \"failed\", \"note\": 'upload timed out'}\nlast = \"request timed out\"\n```", nil, nil},
		{"a literal handed to a call, or a quoted line outside source, is read", "```python\nraise RuntimeError(\"upload failed\")\n```\n```text\n\"upload failed\"\n```", []string{"failure", "failure"}, nil},
		{"a failure word that code reads as a value is a name", "## Code: test_fetch.py\n```python\nclass Flaky:\n    def __init__(self, fails):\n        self.fails = fails\n        if attempts >= fails:\n            return\n```", nil, nil},
		{"a failure that code prints or a comment tells is read", "```python\nprint(\"request timed out\")\n# retry when the upload failed\n```", []string{"failure", "failure"}, nil},
		{"a name in title case that holds a failure word is no failure", "Sample data: Time Out Market 4.6, Forbidden City Tours 4.2 and Blocked Drains Ltd 3.9.", nil, nil},
		{"a title in which a subject failed reports a failure", "The page is titled Ticket Purchase Failed Please Try Again.\nDialog: Upload Failed While Saving Draft", []string{"failure", "failure"}, nil},
		{"a title that reports a failure is one", "Request Timed Out Error\nStatus: TIMED OUT", []string{"failure", "failure"}, nil},
		{"what an agent could not do, in title case, is a failure", "Cannot Load Popup Box", []string{"failure"}, nil},
		{"a name that holds a failure word is no failure", "failed_attempts = 0\nblocked_users = set()", nil, nil},
		{"a timeout whose value ran out", "Connection timeout 10s reached while contacting db-1.", []string{"failure"}, nil},
		{"a timeout whose value elapsed", "The request hit the timeout: 30 s elapsed without a response.", []string{"failure"}, nil},
		{"a pass/fail status is no failure", "## Product Goals\n- Correct pass/fail status per student\n- A score of 60 or more is a pass; lower is a fail.\n- Report pass or fail for each test, and a fail-safe default.", nil, nil},
		{"a test that fails", "test_heavy_parcel fails: assert 25.0 == 17.0", []string{"failure"}, nil},
		{"a failed thing a determiner names is what code handles, no failure", "Moving the sleep into the except branch waits only after a failed attempt; each failed request is retried, as is any failed call.", nil, nil},
		{"what failed is still a failure beside a failed thing", "The upload failed after a failed attempt.", []string{"failure"}, nil},
		{"what code cannot do is a diagnosis, not a failure", "int() cannot parse fractions; use float(). `_normalize` fails on accents.", nil, nil},
		{"what the agent cannot do is a failure", "I cannot parse the file; json.loads raised.", []string{"failure"}, nil},
		{"what cannot be done to a thing a relative clause names is a condition, no failure", "Jobs whose interval cannot be read keep their last run time; a file whose header failed to parse is skipped.", nil, nil},
		{"what the agent could not do, beside a thing a relative clause names", "I could not read the jobs whose interval is a string.", []string{"failure"}, nil},
		{"what the agent was not able to do is a failure", "I wasn't able to find the official language in the results.", []string{"failure"}, nil},
		{"what the agent can't give is a failure", "The sources disagree, so I can't give a definite figure.", []string{"failure"}, nil},
		{"results that settle nothing are a failure", "I'm not sure; the results were inconclusive.", []string{"failure"}, nil},
		{"finding no information is a failure", "There is no information available about who designed it.", []string{"failure"}, nil},
		{"being unsure how to go on is no failure", "I'm not sure how to proceed with my order.", nil, nil},
		{"a can't that reports no failure of the agent", "You can't miss it: the tower is 330 m tall.", nil, nil},
		{"a thing said to be sure is no failure", "It is a stock that cannot go wrong, and the figures could not be clearer.", nil, nil},
		{"a search for faults that found none is no failure", "I can't find any issues with your order: it is in transit.", nil, nil},
		{"nor when it says it could not", "We could not detect any errors in the logs; the job ran.", nil, nil},
		{"a search for something else that found nothing is a failure", "I can't find any record of that order.", []string{"failure"}, nil},
		{"a critic's verdict is no failure of its own", "Verdict: FAIL. The working gives 71 °C but the answer line says 81 °C.\nGrade: **Fail**", nil, nil},
		{"a result that failed", "Result: FAIL (2 of 5 checks)", []string{"failure"}, nil},
		{"a compiler's diagnostic of a line and column", "# example.com/slug/slug\nslug/slug.go:6:22: undefined: language", []string{"error"}, nil},
		{"a linter's diagnostic", "pkg/app.py:3:1: F401 'os' imported but unused", []string{"error"}, nil},
		{"a compiler's error on a line", "src/main/java/com/acme/Parser.java:12: error: class Parser is public, should be declared in a file named Parser.java", []string{"error"}, nil},
		{"tsc's diagnostic", "src/cart.ts(4,41): error TS18048: 'i.price' is possibly 'undefined'.\n\nFound 1 error in src/cart.ts:4", []string{"error"}, nil},
		{"a compiler's warning is no failure", "src/util.c:4:10: warning: unused variable 'n'", nil, nil},
		{"grep's numbered lines are no failure", "slug/slug.go:6:\treturn cases.Title(language.Und).String(s)\nslug/slug_test.go:7:\t\tt.Fatalf(\"got %q\", got)", nil, nil},
		{"confirmation", "I confirm that the calculations are correct.", nil, []string{"confirmed"}},
		{"request to verify is no confirmation", "Please verify that the figures are correct.", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := Run(steps("Agent", tt.in)).Steps[0]
			assert.Equal(t, tt.errors, signalKinds(f.Errors))
			assert.Equal(t, tt.oks, signalKinds(f.Successes))
		})
	}
}

// TestReductionsOnFirstUse: extraction leaves the reductions to their
// first reader, which makes them once, however many goroutines ask at once.
func TestReductionsOnFirstUse(t *testing.T) {
	rf := Run(steps("A", "We looked. Therefore, we keep looking.", "B", "I found the error."))
	assert.Zero(t, rf.Steps[0].Reductions, "made before anyone asked")
	got := make([]Reductions, 4)
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i] = rf.Reductions(i % 2) })
	}
	wg.Wait()
	assert.Equal(t, "Therefore, we keep looking.", got[0].KeyDecision)
	assert.Equal(t, "pattern:general", got[0].Sources[LevelKeyDecision])
	assert.Equal(t, got[0], got[2])
	assert.Equal(t, got[1], got[3])
	assert.Equal(t, *rf.Steps[1].Reductions, got[1])
}

func TestReductionsRespectWordCaps(t *testing.T) {
	long := strings.Repeat("word ", 200) + "."
	for _, content := range []string{"", long, "Therefore, " + long, "```python\nx=1\n```", "   \n\n  "} {
		red := Run(steps("A", content)).Reductions(0)
		assert.LessOrEqual(t, len(strings.Fields(red.KeyDecision)), KeyDecisionWords)
		assert.LessOrEqual(t, len(strings.Fields(red.Summary)), SummaryWords)
		assert.LessOrEqual(t, len(strings.Fields(red.Milestone)), MilestoneWords)
		assert.NotEmpty(t, red.Milestone)
	}
}

func TestFinalAnswerSources(t *testing.T) {
	ledger := `{"is_request_satisfied": {"answer": true, "reason": "done"}, "is_in_loop": {"answer": false, "reason": ""},
"is_progress_being_made": {"answer": true, "reason": ""}, "next_speaker": {"answer": "Assistant", "reason": ""},
"instruction_or_question": {"answer": "Thus, the answer is: Yamasaki, Uehara.", "reason": ""}}`
	tests := []struct {
		name   string
		run    *run.Run
		source string
		text   string
		step   int
	}{
		{"ledger answer", steps("Orchestrator", "Updated Ledger:\n"+ledger, "Orchestrator", "Request satisfied."), SourceLedger, "Yamasaki, Uehara", 0},
		{"last answer before termination", steps("A", "The result is 7.5 km.", "B", "The answer is 8 km.", "B", "TERMINATE", "C", "The answer is 9."), SourceLastAnswer, "8 km", 1},
		{"last claim line", steps("A", "Savings:\n- **Total savings:** -$23.00\nTERMINATE"), SourceLastAnswer, "- **Total savings:** -$23.00", 0},
		{"a supervisor that routes to FINISH closes the run on the reply before", steps("supervisor", "Routing to writer: state the answer in one sentence.", "writer", "According to ADAC, a litre of Super E10 cost 1.86 euros on average in Germany.", "supervisor", "FINISH"), SourceLastAnswer, "According to ADAC, a litre of Super E10 cost 1.86 euros on average in Germany.", 1},
		{"agents that stop on a value answer with it", steps("A", "Count the items in the catalogue.", "B", "Duplicates are dropped first.\nWe found 1,234 items."), SourceLastAnswer, "We found 1,234 items.", 1},
		{"agents that stop on an order have no answer", steps("A", "Count the items in the catalogue.", "B", "We found 1,234 items.\nPlease review the count and confirm it."), "", "", 0},
		{"agents that stop on more work to do have no answer", steps("A", "Count the items in the catalogue.", "B", "We found 1,234 items.\nTo be sure, let me verify the count against the database."), "", "", 0},
		{"agents that stop on a failure have no answer", steps("A", "Count the items in the catalogue.", "B", "Unfortunately, I cannot open the catalogue, so the count of 1,234 items is unverified."), "", "", 0},
		{"a chat ends with its answer", chat("user", "How many pitchers are there?", "assistant", "There are 12 pitchers on the roster."), SourceLastAnswer, "There are 12 pitchers on the roster.", 1},
		{"a chat's closing reply is its answer though it states no value", chat("user", "Which element has atomic number 3?", "assistant", "The element is\nberyllium."), SourceLastAnswer, "The element is beryllium.", 1},
		{"a chat's closing reply that gives up is its answer", chat("user", "Who painted it?", "assistant", "I'm not sure; the results were inconclusive."), SourceLastAnswer, "I'm not sure; the results were inconclusive.", 1},
		{"a chat's closing reply of one symbol is its answer", chat("user", "What is the symbol of sodium?", "assistant", "K"), SourceLastAnswer, "K", 1},
		{"another agent's closing word in a team is no reply to the user", chat("user", "How many albums were released?", "Researcher", "The albums are Kid A (2000), Amnesiac (2001), In Rainbows (2007).", "Counter", "Counting them gives 5 albums.", "Verifier", "I agree with the count above."), "", "", 0},
		{"the agent the user was handed over to replies to the user", handoff(), SourceLastAnswer, "The element is beryllium.", 3},
		{"a closing reply without a value to a later turn of the user answers that turn, not the task", chat("user", "How many t-shirt options are available?", "assistant", "We have 12 t-shirt options.", "user", "Great, thanks!", "assistant", "You're welcome! Is there anything else I can help you with?"), "", "", 0},
		{"a chat that ends on code has no answer", chat("user", "How many pitchers are there?", "assistant", "```python\nprint(len(pitchers))\n```"), "", "", 0},
		{"a chat without tools that ends with the user's thanks answers with the reply before it", chat("user", "How many pitchers are there?", "assistant", "There are 12 pitchers.", "user", "Thanks, bye."), SourceLastAnswer, "There are 12 pitchers.", 1},
		{"so does one where the user doubted a first reply", chat("user", "What is 15% of 240?", "assistant", "15% of 240 is 36.", "user", "Are you sure? I think it's 32.", "assistant", "You're right. 15% of 240 is 32.", "user", "Thanks."), SourceLastAnswer, "You're right. 15% of 240 is 32.", 3},
		{"a chat that ends with the user asking again has no answer", chat("user", "How many pitchers are there?", "assistant", "There are 12 pitchers.", "user", "Thanks, and catchers?"), "", "", 0},
		{"a chat whose agent called a tool and that ends with the user's thanks has no answer", toolChatThanks(), "", "", 0},
		{"a labelled final solution is the answer, though a verdict closes the run", steps("solver", "Final solution: the garden needs 56 metres of fencing.", "evaluator", "Score: 1\nAdvice: The formula is used correctly."), SourceFinalAnswer, "the garden needs 56 metres of fencing", 0},
		{"so is the final answer of a debate its judge names", steps("Affirmative", "The trip lasts 215 minutes.", "Moderator", "Having heard both sides, the final answer of the debate is 225 minutes."), SourceFinalAnswer, "225 minutes", 1},
		{"a role-play its instructor closes reads its answer before the closing word", steps("Owner", "Instruction: Compute the revenue.\nInput: 180 loaves at $4.20.", "Analyst", "Solution: Revenue = 180 x $4.20 = $756.00. Next request.", "Owner", "<CAMEL_TASK_DONE>"), SourceLastAnswer, "Solution: Revenue = 180 x $4.20 = $756.00. Next request.", 1},
		{"or in the reply to the closing word, where that puts an answer forward", steps("Owner", "Instruction: Compute the revenue.\nInput: 180 loaves at $4.20.", "Analyst", "Solution: Revenue = 180 x $4.20 = $756.00. Next request.", "Owner", "<CAMEL_TASK_DONE>", "Analyst", "Solution: Task done. The daily revenue is $756.00."), SourceLastAnswer, "Task done. The daily revenue is $756.00", 3},
		{"a role-play that stops on a solution that asks for the next request ends on its line", steps("Owner", "Instruction: Compute the new price.\nInput: $3.50 and a 20% rise.", "Analyst", "Solution: $3.50 x 1.20 = $4.20. Next request.", "Owner", "Instruction: Compute the revenue.\nInput: 180 loaves.", "Analyst", "Solution: Revenue = 180 x $4.20 = $756.00. Next request."), SourceLastAnswer, "Solution: Revenue = 180 x $4.20 = $756.00. Next request.", 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fa := Run(tt.run).FinalAnswer
			if tt.source == "" {
				assert.Nil(t, fa)
				return
			}
			require.NotNil(t, fa)
			assert.Equal(t, tt.source, fa.Source)
			assert.Equal(t, tt.text, fa.Text)
			assert.Equal(t, tt.step, fa.Step)
		})
	}
}

// TestRolePlaySolutionsAnswerTheirInstruction: in a role-play (CAMEL's),
// the assistant's "Solution: …" that closes by asking for the next
// request answers the instruction it was given, a part of the task, and
// puts no answer forward; the solution that asks for nothing more does.
func TestRolePlaySolutionsAnswerTheirInstruction(t *testing.T) {
	rf := Run(steps(
		"Owner", "Instruction: Compute the new price.\nInput: $3.50 and a 20% rise.",
		"Analyst", "Solution: A 20% rise gives $3.50 x 1.20 = $4.20. Next request.",
		"Owner", "<CAMEL_TASK_DONE>",
		"Analyst", "Solution: The task is done. The new price is $4.20."))
	assert.Empty(t, rf.Steps[1].Answer)
	assert.False(t, rf.Steps[1].Has(KindAnswer))
	assert.Equal(t, "The task is done. The new price is $4.20", rf.Steps[3].Answer)
	require.NotNil(t, rf.FinalAnswer)
	assert.Equal(t, 3, rf.FinalAnswer.Step)
}

// TestClosingReplyAnswerValues: an answer read from a closing reply's line
// of prose holds its values, not the capitalised word that opens its
// sentence; a short answer where an answer is named is read leniently.
func TestClosingReplyAnswerValues(t *testing.T) {
	tests := []struct {
		name string
		run  *run.Run
		want []string
	}{
		{"agents among themselves", steps("A", "Price the parcel.", "B", "All tasks are done. Shipping a 10 kg parcel costs $25.00."), []string{"10 kg", "25"}},
		{"a chat", chat("user", "Price the parcel.", "assistant", "Shipping a 10 kg parcel costs $25.00."), []string{"10 kg", "25"}},
		{"a named answer", steps("A", "Who won?", "B", "FINAL ANSWER: Yamasaki, Sugiyura"), []string{"yamasaki", "sugiyura"}},
		{"a count in words told to a user", chat("user", "How many legs?", "assistant", "Spiders have six legs, and the one that bit you has twenty-one spots."), []string{"6", "21"}},
		{"a multiplier after a figure is the figure's", chat("user", "How many people?", "assistant", "It has about 5.3 million people."), []string{"5300000"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, answerNorms(t, tt.run)) })
	}
}

// TestAnswerCitationsAreNoValues: the source an answer cites is not a
// value of it; a closing parenthesis that is not a source stays.
func TestAnswerCitationsAreNoValues(t *testing.T) {
	page := `[{"title": "Burj Khalifa", "url": "https://en.wikipedia.org/wiki/Burj_Khalifa", "snippet": "architectural height 828 m"}]`
	tests := []struct {
		name string
		run  *run.Run
		want []string
	}{
		{"a site whose page was read", chat("user", "How tall is it?", "tool", page, "assistant", "The Burj Khalifa is 829.8 metres high (Wikipedia)."), []string{"burj khalifa", "829.8 m"}},
		{"according to", chat("user", "How tall is it?", "tool", page, "assistant", "According to Britannica, the Burj Khalifa is 829.8 metres high."), []string{"burj khalifa", "829.8 m"}},
		{"a named source and a reference", chat("user", "How tall is it?", "assistant", "It is 829.8 metres high (source: Emporis). Opened in 2010 [2]."), []string{"829.8 m", "2010"}},
		{"a name no page was read from", chat("user", "Which fund?", "tool", page, "assistant", "The fund is Fidelity Emerging Markets Fund (FEMKX)."), []string{"fidelity emerging markets fund", "femkx"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { assert.Equal(t, tt.want, answerNorms(t, tt.run)) })
	}
}

func TestParseLedger(t *testing.T) {
	tests := []struct {
		name string
		in   string
		ok   bool
		next string
		loop bool
	}{
		{"magentic-one", "Updated Ledger:\n{\"is_request_satisfied\": {\"reason\": \"no\", \"answer\": false}, \"is_in_loop\": {\"reason\": \"yes\", \"answer\": true}, \"is_progress_being_made\": {\"reason\": \"\", \"answer\": false}, \"next_speaker\": {\"reason\": \"r\", \"answer\": \"WebSurfer\"}, \"instruction_or_question\": {\"reason\": \"\", \"answer\": \"Search.\"}}", true, "WebSurfer", true},
		{"fenced with bare values", "```json\n{\"is_request_satisfied\": false, \"is_in_loop\": \"yes\", \"next_speaker\": \"Coder\"}\n```", true, "Coder", true},
		{"other json first", "meta {\"a\": 1} then {\"is_in_loop\": false, \"is_progress_being_made\": true, \"next_speaker\": \"X\"}", true, "X", false},
		{"too few fields", "{\"is_in_loop\": true}", false, "", false},
		{"broken json", "{\"is_in_loop\": true, \"next_speaker\": ", false, "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, ok := ParseLedger(tt.in)
			require.Equal(t, tt.ok, ok)
			if !ok {
				return
			}
			assert.Equal(t, tt.next, l.NextSpeaker)
			assert.Equal(t, tt.loop, l.InLoop.Answer)
		})
	}
}

func TestLedgerUnfound(t *testing.T) {
	ledger := func(satisfied bool, reason, answer string) string {
		return fmt.Sprintf(`Updated Ledger: {"is_request_satisfied": {"reason": %q, "answer": %t}, "is_in_loop": {"reason": "", "answer": false}, "is_progress_being_made": {"reason": "", "answer": true}, "next_speaker": {"reason": "", "answer": "Assistant"}, "instruction_or_question": {"reason": "", "answer": %q}}`, reason, satisfied, answer)
	}
	tests := []struct {
		name string
		in   string
		want bool
	}{
		{"satisfied, its answer saying the fact is not stated", ledger(true, "The request has been fulfilled.", "The word deleted is not explicitly stated on the screen."), true},
		{"satisfied, its reason saying the value could not be found", ledger(true, "The price could not be found, so we answer with the usual one.", "The answer is 25 cents."), true},
		{"satisfied with the fact found", ledger(true, "The price was found on the museum's page.", "The answer is 25 cents."), false},
		{"not satisfied: what is not found is still sought", ledger(false, "The price is not stated on this page.", "Please open the next result."), false},
		{"satisfied, a source that did not state the fact and one that did", ledger(true, "The population was not listed on the town's page but was found in the 2020 census table.", "The answer is 4,312."), false},
		{"satisfied, the fact found after a first search could not find it", ledger(true, "The first search could not find the figure; it was then located in the annual report.", "The answer is 12%."), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, ok := ParseLedger(tt.in)
			require.True(t, ok)
			assert.Equal(t, tt.want, l.Unfound)
		})
	}
}

func FuzzParseLedger(f *testing.F) {
	f.Add(`{"is_request_satisfied": {"answer": true, "reason": "r"}, "is_in_loop": false, "next_speaker": "A"}`)
	f.Add("Updated Ledger:\n{\"is_in_loop\": {\"answer\": \"yes\"}, \"is_progress_being_made\": 1, \"next_speaker\": {\"answer\": null}}")
	f.Add("{{{{")
	f.Fuzz(func(t *testing.T, s string) {
		l, ok := ParseLedger(s)
		if ok != (l != nil) {
			t.Fatalf("ok=%v but ledger=%v", ok, l)
		}
	})
}

func TestEstimateTokens(t *testing.T) {
	for in, want := range map[string]int{"": 0, "a": 1, "abcd": 1, "abcde": 2, "ō": 1} {
		assert.Equal(t, want, EstimateTokens(in), in)
	}
	assert.Equal(t, 400, TokensToBytes(100))
}

// addressedByPattern is what mayAddress screens for: whether either address
// pattern matches around s[i:j], read as addressed reads it.
func addressedByPattern(s string, i, j int) bool {
	t := newText(s)
	return t.sub(max(0, i-80), i).has(addressBeforeRe) || t.sub(j, min(len(s), j+40)).has(addressAfterRe)
}

// TestMayAddressNeverHidesAnAddress: where mayAddress says no, neither
// address pattern matches: in the table, and at every mention of every
// agent's name in every run of both corpora.
func TestMayAddressNeverHidesAnAddress(t *testing.T) {
	tests := []struct {
		before, after string
		may           bool
	}{
		{"pass this to ", "", true},
		{"@", " now", true},
		{"hey \"", "", true},
		{"over to\u00a0*", "", true},
		{"", ", please go on", true},
		{"", "*\u2003: your turn", true},
		{"", " \t, please", true},
		{"the", " said", false},
		{"as ", "", false},
		{"ask ", "'s plan", true},
		{"ASKING  the ", "", true},
		{"Let *", "", true},
		{"pass it to the ", "", true},
		{"pass it to the   ", "", false}, // three spaces: more than the pattern allows
		{"help the ", " now", false},
		{"over to the　", "", true},
		{"aK ", "", false},  // "aK", the Kelvin sign: no address word
		{"asK ", "", true},  // the Kelvin sign folds to k: "ask"
		{"xto ", "", false}, // no word boundary before "to"
		{"_to ", "", false},

		{"", "   , please", false}, // three spaces: more than the pattern allows
		{"", "''' , now", false},
	}
	for _, tt := range tests {
		s := tt.before + "Coder" + tt.after
		i, j := len(tt.before), len(tt.before)+len("Coder")
		assert.Equal(t, tt.may, mayAddress(s, i, j), "%q", s)
		if !tt.may {
			assert.False(t, addressedByPattern(s, i, j), "%q", s)
		}
	}
	mentions, addresses := 0, 0
	for _, c := range runtest.Cases(t, runtest.AllFiles(t)) {
		names := c.Run.Agents()
		for _, st := range c.Run.Steps {
			lower := strings.ToLower(st.Content)
			if len(lower) != len(st.Content) {
				continue
			}
			for _, name := range names {
				n := strings.ToLower(name)
				for from := 0; n != ""; {
					k := strings.Index(lower[from:], n)
					if k < 0 {
						break
					}
					i := from + k
					from = i + len(n)
					mentions++
					if addressedByPattern(st.Content, i, i+len(n)) {
						addresses++
						assert.True(t, mayAddress(st.Content, i, i+len(n)), "%s: %q", c.Run.Source, st.Content[max(0, i-20):min(len(st.Content), i+len(n)+20)])
					}
				}
			}
		}
	}
	t.Logf("%d mentions of an agent's name, %d of them addressed", mentions, addresses)
	assert.Positive(t, addresses)
}

// FuzzMayAddress: wherever mayAddress says no, neither address pattern
// matches around the name.
func FuzzMayAddress(f *testing.F) {
	for _, s := range []string{"pass this to ", "hey \"", "@", "as ", "the", "over to\u00a0*", " \u2003", "as\u212a ", "hand it to the  '", "İnstructing "} {
		f.Add(s, ", please")
		f.Add(s, " said")
	}
	f.Fuzz(func(t *testing.T, before, after string) {
		s := before + "Coder" + after
		i, j := len(before), len(before)+len("Coder")
		if !mayAddress(s, i, j) && addressedByPattern(s, i, j) {
			t.Fatalf("mayAddress said no, yet the pattern addresses the name in %q", s)
		}
	})
}

// answerNorms returns the norms of the claims of r's final answer, which
// must have one.
func answerNorms(t *testing.T, r *run.Run) []string {
	t.Helper()
	fa := Run(r).FinalAnswer
	require.NotNil(t, fa)
	var got []string
	for _, c := range fa.Claims {
		got = append(got, c.Norm)
	}
	return got
}

// TestAddressedWithALoadersTarget: a message that hands the work to an
// agent by name ("Solver, your turn.") is an instruction to it whether
// the run came as a chat (no target) or as a trace, whose loader gives
// each agent's message the next agent as its target; one that addresses
// no one stays a message either way.
func TestAddressedWithALoadersTarget(t *testing.T) {
	for _, target := range []string{"", "Solver"} {
		t.Run("target "+target, func(t *testing.T) {
			r := chat(
				"user", "A cyclist rides at 12 miles per hour for 2.5 hours. How far does she ride, in kilometres?",
				"Coordinator", "Here is how we will solve it:\n- Take the speed.\n- Multiply it by the time.\nSolver, your turn.",
				"Solver", "Distance = 12 x 2.5 = 30 miles.",
				"Checker", "Verified: 30 miles.",
			)
			if target != "" {
				r.Steps[1].Edit().Target = target
				r.Steps[2].Edit().Target = "Checker"
			}
			rf := Run(r)
			assert.True(t, rf.Steps[1].Has(KindInstruction), "kinds %v", rf.Steps[1].Kinds)
			assert.Equal(t, "Solver", rf.Steps[1].Target)
			assert.False(t, rf.Steps[2].Has(KindInstruction), "kinds %v", rf.Steps[2].Kinds)
		})
	}
}

// TestAddressedCodeWithALoadersTarget: a step that writes code and asks
// the executor by name to run it ("Computer_terminal, please run this
// code") is an instruction to it, as well as a call, whether the run came
// as a group chat's log (no target) or as a trace, whose loader gives the
// message the next agent as its target. Shape: an AutoGen group chat with
// a code-running terminal, as Who&When's algorithm-generated runs write it.
func TestAddressedCodeWithALoadersTarget(t *testing.T) {
	for _, target := range []string{"", "Computer_terminal"} {
		t.Run("target "+target, func(t *testing.T) {
			r := chat(
				"user", "How many studio albums did the singer publish between 2000 and 2009?",
				"DataAnalysis_Expert", "I'll search for the discography.\n\n```python\nfrom functions import perform_web_search\nprint(perform_web_search(\"singer discography\"))\n```\n\nComputer_terminal, please run this code to retrieve the search results.",
				"Computer_terminal", "exitcode: 0 (execution succeeded)\nCode output: Search Result 1: Discography",
			)
			if target != "" {
				r.Steps[1].Edit().Target = target
			}
			rf := Run(r)
			assert.True(t, rf.Steps[1].Has(KindToolCall), "kinds %v", rf.Steps[1].Kinds)
			assert.True(t, rf.Steps[1].Has(KindInstruction), "kinds %v", rf.Steps[1].Kinds)
			assert.Equal(t, "Computer_terminal", rf.Steps[1].Target)
		})
	}
}

// TestOrchestratorTurnAsATrace: an orchestrator's turn (its ledger, the
// instruction the ledger names, a note of the next speaker) reads the same
// whether the log marks each message's kind and addressee, as Who&When's
// Magentic-One logs do by role ("Orchestrator (thought)", "Orchestrator
// (-> WebSurfer)"), or not, as a trace's model outputs are: the message
// that sends the ledger's instruction is an instruction to the ledger's
// next speaker, and the note of the next speaker is a thought. Shape:
// Magentic-One's ledger as Who&When's hand-crafted runs record it.
func TestOrchestratorTurnAsATrace(t *testing.T) {
	const ask = "Please visit the 'Astronomy Picture of the Day Archive 2015' page on nasa.gov and identify the city shown on the horizon."
	ledger := `Updated Ledger:
{
  "is_request_satisfied": {"reason": "We have not yet identified the city shown in the image.", "answer": false},
  "is_in_loop": {"reason": "This is the first attempt.", "answer": false},
  "is_progress_being_made": {"reason": "We have initiated the search.", "answer": true},
  "next_speaker": {"reason": "The archive must be browsed.", "answer": "WebSurfer"},
  "instruction_or_question": {"reason": "We need the image of the first week of August 2015.", "answer": "` + ask + `"}
}`
	layouts := map[string]func(r *run.Run){
		"logged by role": func(r *run.Run) {
			r.Steps[1].Kind = run.KindThought
			r.Steps[2].Kind = run.KindInstruction
			r.Steps[2].Edit().Target = "WebSurfer"
			r.Steps[3].Kind = run.KindThought
		},
		"as a trace": func(r *run.Run) {
			r.Steps[3].Edit().Target = "WebSurfer"
			r.Steps[4].Edit().Target = "Orchestrator"
		},
	}
	for name, lay := range layouts {
		t.Run(name, func(t *testing.T) {
			r := chat(
				"user", "During the first week of August 2015, one of the NASA Astronomy Pictures of the Day shows the lights of a city on the horizon. Which city?",
				"Orchestrator", ledger,
				"Orchestrator", ask,
				"Orchestrator", "Next speaker WebSurfer",
				"WebSurfer", "I clicked 'Astronomy Picture of the Day Archive 2015'. The viewport shows 1% of the webpage.",
			)
			lay(r)
			rf := Run(r)
			assert.True(t, rf.Steps[2].Has(KindInstruction), "kinds %v", rf.Steps[2].Kinds)
			assert.Equal(t, "WebSurfer", rf.Steps[2].Target)
			assert.True(t, rf.Steps[3].Has(KindThought), "kinds %v", rf.Steps[3].Kinds)
			assert.False(t, rf.Steps[3].Has(KindInstruction), "kinds %v", rf.Steps[3].Kinds)
		})
	}
}

// TestReActTrajectory: a ReAct agent's numbered lines, as its prompt has
// the model write them and as HotpotQA and FEVER trajectories keep them:
// "Action 2: Search[Stockholm]" is a call, the "Observation 2: …" the
// environment answers with is its output, and "Finish[Norrström]" states
// the answer.
func TestReActTrajectory(t *testing.T) {
	r := steps(
		"user", "Which river flows through the capital of Sweden?",
		"ReAct", "Thought 1: I need the capital of Sweden.\nAction 1: Search[Sweden]",
		"Environment", "Observation 1: Sweden is a Nordic country; its capital is Stockholm.",
		"ReAct", "Thought 2: The capital is Stockholm.\nAction 2: Lookup[river]",
		"Environment", "Observation 2: (Result 1/1) The Norrström river runs through the centre of Stockholm.",
		"ReAct", "Thought 3: The river is the Norrström.\nAction 3: Finish[Norrström]",
	)
	rf := Run(r)
	for _, i := range []int{1, 3} {
		assert.True(t, rf.Steps[i].Has(KindToolCall), "step %d kinds %v", i, rf.Steps[i].Kinds)
	}
	assert.Equal(t, []string{"Action: Search[Sweden]"}, rf.Steps[1].Code)
	for _, i := range []int{2, 4} {
		assert.True(t, rf.Steps[i].Has(KindToolResult), "step %d kinds %v", i, rf.Steps[i].Kinds)
		assert.Equal(t, int32(i-1), rf.Steps[i].Caller, "step %d's call", i)
	}
	require.NotNil(t, rf.FinalAnswer)
	assert.Equal(t, 5, rf.FinalAnswer.Step)
	assert.Equal(t, "Norrström", rf.FinalAnswer.Text)
}

// TestActionBlobFinalAnswer: a JSON chat agent ends its run with an action
// blob whose action is "Final Answer": its input is the answer.
func TestActionBlobFinalAnswer(t *testing.T) {
	r := steps(
		"user", "How many seats do the two largest stadiums in Finland have together?",
		"assistant", "Thought: I know what to respond\nAction:\n```json\n{\n  \"action\": \"Final Answer\",\n  \"action_input\": \"They seat 54,800 people together.\"\n}\n```",
	)
	rf := Run(r)
	require.NotNil(t, rf.FinalAnswer)
	assert.Equal(t, 1, rf.FinalAnswer.Step)
	assert.Equal(t, "They seat 54,800 people together", rf.FinalAnswer.Text, "trimmed as every answer is")
}

// TestCodeTags: smolagents' code agents write their action in <code> tags
// on lines of their own, the closing tag often cut by the stop sequence
// that ends the model's output; the code inside is the step's code, as a
// fenced block's is. A tag inside a line (a page's inline code) is none.
func TestCodeTags(t *testing.T) {
	tests := []struct {
		name, text string
		want       []string
	}{
		{"closed", "Thought: I will search.\n<code>\nresult = web_search(query=\"population of Tokyo\")\nprint(result)\n</code>", []string{"result = web_search(query=\"population of Tokyo\")\nprint(result)"}},
		{"cut by the stop sequence", "Thought: I will search.\n<code>\nresult = web_search(query=\"population of Tokyo\")\nprint(result)\n", []string{"result = web_search(query=\"population of Tokyo\")\nprint(result)"}},
		{"a page's inline code", "Use <code>pip install requests</code> to install it.", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rf := Run(&run.Run{Question: "What is the population of Tokyo?", Steps: []run.Step{
				{Index: 0, Agent: "user", Kind: run.KindUser, Content: "What is the population of Tokyo?"},
				{Index: 1, Agent: "CodeAgent", Kind: run.KindMessage, Content: tt.text},
			}})
			assert.Equal(t, tt.want, rf.Steps[1].Code)
		})
	}
}

// TestTargetOfAHandoffTheLogDoesNotAddress: a chat transcript records no
// addressee, yet a message that opens with a worker's name and a colon or
// a comma is an instruction to it, and a call hands the work to the agent
// its name ends with ("transfer_to_venue_agent") or an argument names
// ({"coworker": "venue_agent"}); a message that names the worker further
// on, and a call that names no agent, address no one.
func TestTargetOfAHandoffTheLogDoesNotAddress(t *testing.T) {
	for _, tt := range []struct {
		name, content, call, args string
		want                      string
		instruction               bool
	}{
		{"a message opening with the worker's name", "venue_agent: reserve a room for 12 in Leeds.", "", "", "venue_agent", true},
		{"a message naming the worker further on", "The room is for 12. Send To: venue_agent", "", "", "", false},
		{"a transfer call", "", "transfer_to_venue_agent", `{"task_description": "Reserve a room for 12 in Leeds."}`, "venue_agent", false},
		{"a delegation naming the coworker", "", "delegate_work", `{"coworker": "venue_agent", "task": "Reserve a room for 12 in Leeds."}`, "venue_agent", false},
		{"a call naming no agent", "", "search_venues", `{"city": "Leeds", "capacity": 12}`, "", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := chat("user", "Reserve a wheelchair-accessible room for 12 in Leeds.", "supervisor", tt.content, "venue_agent", "Reserved LDS-21.")
			if tt.call != "" {
				r.Steps[1].Kind = run.KindToolCall
				r.Steps[1].Content = tt.call + "(" + tt.args + ")"
				r.Steps[1].Edit().ToolCalls = []run.ToolCall{{ID: "call_1", Name: tt.call, Arguments: tt.args}}
			}
			rf := Run(r)
			assert.Equal(t, tt.want, rf.Steps[1].Target)
			assert.Equal(t, tt.instruction, rf.Steps[1].Has(KindInstruction), "kinds %v", rf.Steps[1].Kinds)
		})
	}
}
