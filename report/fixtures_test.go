package report

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/engine"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/triage"
)

// pwned is what every hostile payload tries to set on the page's root
// element; a page is inert when no browser ever sees it as an attribute.
const pwned = "data-pwned"

// hostileTexts are log texts that try every way out of the text they are:
// script, event handlers, javascript: links, style, closing the page's own
// elements to forge a step, template syntax, remote resources, and control
// and bidi characters.
var hostileTexts = []string{
	`<script>document.documentElement.setAttribute("data-pwned","script")</script>`,
	`"><img src=x onerror="document.documentElement.setAttribute('data-pwned','img')">`,
	`<a href="javascript:document.documentElement.setAttribute('data-pwned','link')">click me</a>`,
	`</style><style>body{display:none}</style><p style="color:red">styled</p>`,
	`</pre></details></li><li id="step-999" data-blamed="true">a forged step`,
	"colours \x1b[31mred\x1b[0m, bell \x07, nul \x00, C1 \u0085, \u202eoverride\u202c, CR\r alone",
	`<svg onload="document.documentElement.setAttribute('data-pwned','svg')"><a xlink:href="javascript:alert(1)">x</a></svg>`,
	`{{.CSP}} <!-- comment --> <![CDATA[ x ]]> ]]> --> `,
	`<iframe src="https://evil.example/"></iframe><link rel="stylesheet" href="https://evil.example/x.css"><meta http-equiv="refresh" content="0;url=javascript:alert(1)">`,
	"<math><mi xlink:href=\"javascript:alert(1)\">m</mi></math><template><script>alert(1)</script></template>",
}

// hostileAgents are agent names that try the same.
var hostileAgents = []string{
	`<img src=x onerror="document.documentElement.setAttribute('data-pwned','agent')">`,
	`javascript:document.documentElement.setAttribute('data-pwned','agent-link')`,
	"\"><script>document.documentElement.setAttribute('data-pwned','agent-script')</script>\x1b[2J",
}

// hostileRun is a run whose every text field is hostile, with the final
// answer wrong so that the rules have something to blame.
func hostileRun() *run.Run {
	r := &run.Run{
		Source:      `runs/"><script>alert(1)</script>.json`,
		Format:      run.FormatTranscript,
		Question:    "What is 6 × 7? " + hostileTexts[0],
		GroundTruth: "42 " + hostileTexts[1],
	}
	add := func(agent string, kind run.Kind, content string) {
		r.Steps = append(r.Steps, run.Step{Index: len(r.Steps), Agent: agent, Kind: kind, Content: content,
			Extra: &run.Extra{TraceID: `4bf92f3577b34da6a3ce929d0e0e4736"><script>alert(1)</script>`, SpanID: "00f067aa0ba902b7\x1b[0m"},
		})
	}
	add("user", run.KindUser, "What is 6 × 7? "+hostileTexts[2])
	add(hostileAgents[0], run.KindMessage, "Plan: compute 6 × 7 with the calculator, then report it. "+hostileTexts[3])
	add(hostileAgents[1], run.KindMessage, "I computed it: the answer is 48. "+hostileTexts[4]+" "+hostileTexts[5])
	r.Steps[2].Edit().ToolCalls = []run.ToolCall{{ID: "c1", Name: `calc"><script>alert(1)</script>`, Arguments: hostileTexts[6]}}
	add(hostileAgents[2], run.KindMessage, "Error: the result 48 could not be verified. "+hostileTexts[7]+strings.Repeat(" padding", 200))
	add(hostileAgents[0], run.KindMessage, "FINAL ANSWER: 48 "+hostileTexts[8]+" "+hostileTexts[9])
	return r
}

// analyse runs the real engine over r, as the command does.
func analyse(t testing.TB, r *run.Run) engine.Result {
	t.Helper()
	an, err := engine.New(engine.Options{})
	require.NoError(t, err)
	res, err := an(context.Background(), r)
	require.NoError(t, err)
	return res
}

// withVotes adds model analysts' votes, hostile reasons included, as
// localllm would.
func withVotes(res engine.Result) engine.Result {
	a := res.Attribution
	a.Mode = rules.ModeRulesLLM
	a.Usage = rules.Usage{LLMCalls: 3, PromptTokens: 2400, CompletionTokens: 300}
	a.Votes = []rules.Vote{
		{Analyst: "skeptical", Step: a.Step, Confidence: 0.8, Reason: "The value first appears here. " + hostileTexts[1]},
		{Analyst: `<b onmouseover="alert(1)">general</b>`, Step: 1, Confidence: 0.55, Reason: hostileTexts[0]},
		{Analyst: "detail-focused", Step: 99, Confidence: 0.4, Reason: "a step the run does not have"},
	}
	res.Attribution = a
	return res
}

// hostilePage renders the hostile run's page.
func hostilePage(t testing.TB) []byte {
	t.Helper()
	res := withVotes(analyse(t, hostileRun()))
	var b bytes.Buffer
	require.NoError(t, WriteRun(&b, res, RunOptions{File: hostileRun().Source,
		Triage: triage.Decide(res.Attribution, triage.Defaults()), Back: "../screen.html"}))
	return b.Bytes()
}

// screenRows makes n screen records: every triage class, a failure in
// every tenth, agents and rules from small pools, and page links.
func screenRows(n int) []Row {
	agents := []string{"WebSurfer", "Orchestrator", "Coder", "ComputerTerminal", "Verification_Expert", "FileSurfer", "Assistant"}
	ruleSets := [][]string{{"data_flow_origin"}, {"local_fault", "trial_first_fault"}, {"unsupported_claim"}, {"feedback", "planning_control"}, {"ground_truth_contradiction", "data_flow_origin"}}
	rows := make([]Row, n)
	for i := range rows {
		file := fmt.Sprintf("corpus/batch-%02d/run-%05d.json", i%37, i)
		if i%10 == 9 {
			rows[i] = Row{File: file, Error: fmt.Sprintf("load %s: invalid JSON at line %d, column 14", file, i%50+1)}
			continue
		}
		conf := float64((i*7919)%1000) / 1000
		d := triage.Decide(rules.Attribution{Agent: agents[i%len(agents)], Step: i % 40, Confidence: conf}, triage.Defaults())
		rows[i] = Row{File: file, Agent: agents[(i*31)%len(agents)], Step: (i * 13) % 60, Confidence: conf,
			Triage: d.Class, Reason: d.Reason, Rules: ruleSets[i%len(ruleSets)], Page: fmt.Sprintf("runs/run-%05d-%08x.html", i, i*2654435761%(1<<32))}
	}
	return rows
}
