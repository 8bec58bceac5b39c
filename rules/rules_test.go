package rules

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/graph"
	"github.com/offattr/offattr/run"
	"github.com/offattr/offattr/run/runtest"
)

// msg is a compact step for test runs.
type msg struct {
	agent, content string
	kind           run.Kind
	target         string
}

// call is a step of a coding session's assistant calling a tool, c
// written as the call.
func call(c string) msg { return msg{agent: "assistant", content: c, kind: run.KindToolCall} }

// out is the tool's output c, the result of the call before it.
func out(c string) msg { return msg{agent: "tool", content: c, kind: run.KindToolResult} }

func prepare(t *testing.T, question, gt string, msgs ...msg) *Input {
	t.Helper()
	r := &run.Run{Source: "test.json", Question: question, GroundTruth: gt}
	for i, m := range msgs {
		k := m.kind
		if k == "" {
			k = run.KindMessage
		}
		r.Steps = append(r.Steps, run.Step{Index: i, Agent: m.agent, Kind: k, Content: m.content, Extra: &run.Extra{Target: m.target}})
	}
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(t, err)
	return &Input{Run: r, Features: f, Graph: g}
}

func steps(fs []Finding, positive bool) []int {
	var out []int
	for _, f := range fs {
		if (f.Strength > 0) == positive {
			out = append(out, f.Step)
		}
	}
	return out
}

// stepsFor are the steps of the findings whose reason says why in the
// words given, in order.
func stepsFor(fs []Finding, why string) []int {
	var out []int
	for _, f := range fs {
		if strings.Contains(f.Reason, why) {
			out = append(out, f.Step)
		}
	}
	return out
}

// codeRun: a coder's script fails, a second coder fixes it, a third agent
// reports a wrong value it made up.
func codeRun(t *testing.T, gt string) *Input {
	return prepare(t, "How many rows does data.csv have?", gt,
		msg{agent: "user", content: "How many rows does data.csv have?", kind: run.KindUser},
		msg{agent: "Coder", content: "I will count them.\n```python\nimport pandas as pd\nprint(len(pd.read_csv('data.csv')))\n```"},
		msg{agent: "Terminal", content: "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"x.py\", line 1\nModuleNotFoundError: No module named 'pandas'"},
		msg{agent: "Fixer", content: "Let me use the csv module instead.\n```python\nimport csv\nprint(sum(1 for _ in csv.reader(open('data.csv'))))\n```"},
		msg{agent: "Terminal", content: "exitcode: 0 (execution succeeded)\nCode output: 1200"},
		msg{agent: "Reporter", content: "Assuming the header is counted twice, the file has 1198 rows. FINAL ANSWER: 1198"},
	)
}

func TestLocalFault(t *testing.T) {
	// Without the fix at steps 3-4 the failure stands.
	in := prepare(t, "How many rows does data.csv have?", "",
		msg{agent: "user", content: "How many rows does data.csv have?", kind: run.KindUser},
		msg{agent: "Coder", content: "I will count them.\n```python\nimport pandas as pd\nprint(len(pd.read_csv('data.csv')))\n```"},
		msg{agent: "Terminal", content: "exitcode: 1 (execution failed)\nCode output: Traceback (most recent call last):\n  File \"x.py\", line 1\nModuleNotFoundError: No module named 'pandas'"},
		msg{agent: "Reporter", content: "The file could not be read. FINAL ANSWER: unknown"},
	)
	fs := LocalFault.Run(in)
	assert.Contains(t, steps(fs, true), 1, "the failing script's author is at fault")
	assert.NotContains(t, steps(fs, true), 2, "the terminal only reported it")
	for _, f := range fs {
		assert.NotEmpty(t, f.Reason)
		assert.NotEmpty(t, f.Quote)
	}
	assert.NotContains(t, steps(LocalFault.Run(codeRun(t, "")), true), 1,
		"a failure corrected later in the trial is not a fault that decided the run")
}

// TestCorrectedPastOtherFailures: a coding agent works around a command
// that failed through other commands, some of which fail too; the first
// failure was corrected once one of them runs cleanly. A retry of the same
// command that fails again is no correction, nor is a tool by name that
// fails again with other arguments.
func TestCorrectedPastOtherFailures(t *testing.T) {
	in := prepare(t, "Fix the failing parser test.", "",
		msg{agent: "user", content: "Fix the failing parser test.", kind: run.KindUser},
		msg{agent: "assistant", content: `bash({"command": "python -m pytest -q"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "ModuleNotFoundError: No module named 'freezegun'\n[exit code 4]", kind: run.KindToolResult},
		msg{agent: "assistant", content: `bash({"command": "pip install freezegun"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "ERROR: No matching distribution found for freezegun\n[exit code 1]", kind: run.KindToolResult},
		msg{agent: "assistant", content: `bash({"command": "python -m pytest -q --noconftest"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "1 failed, 11 passed in 0.04s\n[exit code 0]", kind: run.KindToolResult},
		msg{agent: "assistant", content: `bash({"command": "python -m pytest -q --noconftest"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "ImportError: cannot import name 'parse'\n[exit code 1]", kind: run.KindToolResult},
		msg{agent: "assistant", content: `bash({"command": "python -m pytest -q --noconftest"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "ImportError: cannot import name 'parse'\n[exit code 1]", kind: run.KindToolResult},
	)
	assert.Equal(t, 6, corrected(in, 2), "the test run past the install that failed too")
	assert.Equal(t, 6, corrected(in, 4))
	assert.Equal(t, -1, corrected(in, 8), "the same command failing again")
	assert.Equal(t, []int{7, 9}, steps(LocalFault.Run(in), true), "the command that kept failing")

	in = prepare(t, "When did the train arrive?", "",
		msg{agent: "user", content: "When did the train arrive?", kind: run.KindUser},
		msg{agent: "assistant", content: `inspect_file({"file_path": "https://example.org/files/2019/may.pdf"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://example.org/files/2019/may.pdf", kind: run.KindToolResult},
		msg{agent: "assistant", content: `inspect_file({"file_path": "https://example.org/files/2019/05.pdf"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "requests.exceptions.HTTPError: 404 Client Error: Not Found for url: https://example.org/files/2019/05.pdf", kind: run.KindToolResult},
		msg{agent: "assistant", content: `web_search({"query": "train arrival May 2019"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Results: the 6:50 PM train", kind: run.KindToolResult},
	)
	assert.Equal(t, -1, corrected(in, 2), "the tool failed again")
}

func TestReversibility(t *testing.T) {
	in := codeRun(t, "")
	fs := Reversibility.Run(in)
	assert.Equal(t, []int{1}, steps(fs, false), "the failed script was corrected at step 4")
	assert.Empty(t, steps(fs, true))
}

func TestDataFlowOrigin(t *testing.T) {
	in := codeRun(t, "1200")
	fs := DataFlowOrigin.Run(in)
	assert.Equal(t, []int{5}, steps(fs, true), "1198 first appears at the reporter's step")
}

func TestDataFlowOriginPastACorrection(t *testing.T) {
	// A guess of 1198 comes first; the script then prints the right count,
	// and the reporter goes back to the guess. The guess was corrected:
	// what decided the run is the step that dropped the correct value.
	in := prepare(t, "How many rows does data.csv have?", "1200",
		msg{agent: "user", content: "How many rows does data.csv have?", kind: run.KindUser},
		msg{agent: "Planner", content: "From memory it has 1198 rows; Coder, please count them to check."},
		msg{agent: "Coder", content: "Counting.\n```python\nimport csv\nprint(sum(1 for _ in csv.reader(open('data.csv'))))\n```"},
		msg{agent: "Terminal", content: "exitcode: 0 (execution succeeded)\nCode output: 1200"},
		msg{agent: "Reporter", content: "The count confirms the estimate. FINAL ANSWER: 1198"},
	)
	fs := DataFlowOrigin.Run(in)
	assert.Equal(t, []int{4}, steps(fs, true), "1198 first appears at step 1, but step 3 reached 1200 and step 4 dropped it")
	assert.Contains(t, fs[0].Reason, "without it")
}

func TestDataFlowOriginSilentWhenAnswerIsRight(t *testing.T) {
	in := codeRun(t, "1198")
	assert.Empty(t, DataFlowOrigin.Run(in))
}

func TestGroundTruthContradiction(t *testing.T) {
	in := codeRun(t, "1200")
	fs := GroundTruthContradiction.Run(in)
	require.Len(t, fs, 1)
	assert.Equal(t, 5, fs[0].Step, "1200 was reached at step 4 and discarded at step 5")
	assert.Contains(t, fs[0].Reason, "step 4")
	assert.Empty(t, GroundTruthContradiction.Run(codeRun(t, "")), "no ground truth, no finding")
}

// TestGroundTruthContradictionOfSmallCounts: a worker's reply that
// counts what the team's answer counts, as many of it ("2 open P1
// incidents"), put the wrong count forward first, though a small count
// is no value of a step's reading; a reply that counts another thing did
// not. Shape: a LangGraph supervisor's worker that answers without its
// tool.
func TestGroundTruthContradictionOfSmallCounts(t *testing.T) {
	for _, tt := range []struct {
		reply string
		want  []int
	}{
		{"The payments team has 2 open P1 incidents.", []int{2}},
		{"I found 2 dashboards for the payments team.", []int{3}},
	} {
		in := prepare(t, "How many open P1 incidents does the payments team have?", "5",
			msg{agent: "user", content: "How many open P1 incidents does the payments team have?", kind: run.KindUser},
			msg{agent: "supervisor", content: "analyst: count the open P1 incidents of the payments team."},
			msg{agent: "analyst", content: tt.reply},
			msg{agent: "supervisor", content: "The payments team has 2 open P1 incidents right now."},
		)
		assert.Equal(t, tt.want, steps(GroundTruthContradiction.Run(in), true), tt.reply)
	}
}

func TestUnsupportedClaim(t *testing.T) {
	in := codeRun(t, "")
	assert.Contains(t, steps(UnsupportedClaim.Run(in), true), 5, "the reporter admits an assumption")
}

// plannerRun: an orchestrator repeats the same instruction after failures.
func plannerRun(t *testing.T, changeStrategy bool) *Input {
	second := "Search the web for the 2020 census population of Brindle Cove and report the number."
	if changeStrategy {
		second = "Open census.gov directly, use its table search for Brindle Cove, and read the 2020 column."
	}
	return prepare(t, "What was the 2020 population of Brindle Cove?", "",
		msg{agent: "human", content: "What was the 2020 population of Brindle Cove?", kind: run.KindUser},
		msg{agent: "Planner", content: "Initial plan:\n\nHere is the plan to follow as best as possible:\n- Ask Surfer to search for the census figure.", kind: run.KindThought},
		msg{agent: "Planner", content: "Search the web for the 2020 census population of Brindle Cove and report the number.", kind: run.KindInstruction, target: "Surfer"},
		msg{agent: "Surfer", content: "I typed 'Brindle Cove population' into the search bar. Error: 404 page not found."},
		msg{agent: "Planner", content: second, kind: run.KindInstruction, target: "Surfer"},
		msg{agent: "Surfer", content: "I typed 'Brindle Cove population' into the search bar. Error: 404 page not found."},
	)
}

func TestPlanningControl(t *testing.T) {
	t.Run("planner repeats itself", func(t *testing.T) {
		fs := PlanningControl.Run(plannerRun(t, false))
		require.NotEmpty(t, fs)
		assert.Equal(t, 4, fs[0].Step)
	})
	t.Run("executor fails a changed strategy", func(t *testing.T) {
		fs := PlanningControl.Run(plannerRun(t, true))
		require.NotEmpty(t, fs)
		assert.Equal(t, 3, fs[0].Step)
	})
}

func TestFeedback(t *testing.T) {
	in := prepare(t, "What is 2+2?", "",
		msg{agent: "user", content: "What is 2+2?", kind: run.KindUser},
		msg{agent: "Solver", content: "2+2 is 5."},
		msg{agent: "Critic", content: "That result is incorrect: 2+2 is 4."},
	)
	assert.Equal(t, []int{1}, steps(Feedback.Run(in), true))
}

// TestChatAnswerContradicted: a user's chat with an assistant ends with
// its reply, which is its answer though nothing says it is final; the
// reply that gets wrong what the search had right is where it went wrong.
func TestChatAnswerContradicted(t *testing.T) {
	in := prepare(t, "What year was the Eiffel Tower completed?", "1889",
		msg{agent: "user", content: "What year was the Eiffel Tower completed?", kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "Eiffel Tower completion year"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "The Eiffel Tower was built from 1887 to 1889 for the World's Fair of 1889.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The Eiffel Tower was completed in 1887."},
	)
	assert.Equal(t, []int{3}, steps(GroundTruthContradiction.Run(in), true))
	assert.Equal(t, 3, Attribute(in).Step)
}

// TestGroundTruthInWords: a ground truth that is a number in words and
// nothing else ("six") is that number, as an answer so written is: an
// answer that states it in digits matches it, one that states another
// contradicts it.
func TestGroundTruthInWords(t *testing.T) {
	for _, tt := range []struct {
		answer string
		want   []int
	}{
		{"FINAL ANSWER: 6", nil},
		{"FINAL ANSWER: 7", []int{3}},
	} {
		t.Run(tt.answer, func(t *testing.T) {
			in := prepare(t, "How many studio albums did the band release?", "Six",
				msg{agent: "user", content: "How many studio albums did the band release?", kind: run.KindUser},
				msg{agent: "assistant", content: `web_search({"query": "band studio albums"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: "The band released six studio albums.", kind: run.KindToolResult},
				msg{agent: "assistant", content: tt.answer},
			)
			assert.Equal(t, tt.want, steps(GroundTruthContradiction.Run(in), true))
		})
	}
}

// TestChatAnswerWithoutValues: a reply that closes a chat with a user is
// its answer even when it states no value extract reads (a common noun,
// a report that nothing was found): its words are read against the
// ground truth, and the reply that does not hold it is where it went
// wrong; one whose words hold it matches.
func TestChatAnswerWithoutValues(t *testing.T) {
	for _, tt := range []struct{ reply, gt string }{
		{"The most abundant gas in the atmosphere is oxygen.", "Nitrogen"},
		{"I wasn't able to find the official language in the search results.", "Portuguese"},
		{"Spiders have many legs.", "8"},
	} {
		t.Run(tt.reply, func(t *testing.T) {
			in := prepare(t, "What is it?", tt.gt,
				msg{agent: "user", content: "What is it?", kind: run.KindUser},
				msg{agent: "assistant", content: `web_search({"query": "it"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: "Results: nitrogen 78%, oxygen 21%; Portuguese is spoken; spiders have eight legs.", kind: run.KindToolResult},
				msg{agent: "assistant", content: tt.reply},
			)
			assert.Equal(t, []int{3}, steps(GroundTruthContradiction.Run(in), true))
			assert.Equal(t, 3, Attribute(in).Step)
		})
	}
	in := prepare(t, "What is it?", "Nitrogen",
		msg{agent: "user", content: "What is it?", kind: run.KindUser},
		msg{agent: "assistant", content: "It is nitrogen."},
	)
	assert.True(t, answerMatches(in), "the reply's words hold the ground truth")
}

// TestChosenValueBesideNames: without a ground truth, a reply that picks
// one of a result's depths is where the depth was chosen; the names it
// read from its own search beside it are what it chose among, not
// suspects that outweigh it.
func TestChosenValueBesideNames(t *testing.T) {
	question := "What is the deepest point in the ocean, and how deep is it?"
	in := prepare(t, question, "",
		msg{agent: "user", content: question, kind: run.KindUser},
		msg{agent: "assistant", content: `search({"q": "deepest point ocean depth"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "The Challenger Deep in the Mariana Trench is the deepest known point, at about 10,935 m. The Tonga Trench reaches 10,882 m and the Puerto Rico Trench 8,376 m.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The Challenger Deep, in the Mariana Trench, is the deepest point at 10,882 m."},
	)
	assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(in), true))
	assert.Equal(t, 3, Attribute(in).Step)
}

// TestTaskNamePutForwardIsNoOnesValue: a reply that gets the value wrong
// but names what the task names ("LTS") repeats the task, not the search
// that named it too: the reply discarded the correct value the search
// found.
func TestTaskNamePutForwardIsNoOnesValue(t *testing.T) {
	question := "What is the current LTS version of Node.js?"
	in := prepare(t, question, "22.12.0",
		msg{agent: "user", content: question, kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "Node.js current LTS version"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Latest LTS: 22.12.0 (Jod). Latest Current: 23.4.0.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The current LTS version of Node.js is 23.4.0."},
	)
	assert.Equal(t, []int{3}, steps(GroundTruthContradiction.Run(in), true))
}

// TestYearOfADate: a year an answer gives was read from the full date a
// tool printed ("4 August 1792"): the search that found that page is where
// it came from; and a year taken from beside the dates of others ("moved
// there in 1884" beside "7 January 1943") was chosen by the reply, with a
// ground truth in one of the dates or without one.
func TestYearOfADate(t *testing.T) {
	question := "In what year was the author of the novel born?"
	hop := func(gt string) *Input {
		return prepare(t, question, gt,
			msg{agent: "user", content: question, kind: run.KindUser},
			msg{agent: "assistant", content: `web_search({"query": "novel author"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "The 1818 novel was written by Mary Shelley; her husband Percy Bysshe Shelley wrote its preface.", kind: run.KindToolResult},
			msg{agent: "assistant", content: `web_search({"query": "Percy Bysshe Shelley born"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Percy Bysshe Shelley (4 August 1792 – 8 July 1822) was an English poet.", kind: run.KindToolResult},
			msg{agent: "assistant", content: "The author was born in 1792."},
		)
	}
	assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(hop("1797")), true), "the date came from the second search")
	died := func(gt string) *Input {
		return prepare(t, "In what year did Tesla die?", gt,
			msg{agent: "user", content: "In what year did Tesla die?", kind: run.KindUser},
			msg{agent: "assistant", content: `search({"q": "Nikola Tesla death"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Nikola Tesla (10 July 1856 – 7 January 1943) was an inventor. He moved to the United States in 1884.", kind: run.KindToolResult},
			msg{agent: "assistant", content: "Tesla died in 1884."},
		)
	}
	for _, gt := range []string{"1943", ""} {
		assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(died(gt)), true), "ground truth %q", gt)
	}
}

// TestYearOfADateAnAgentReports: in a team, an agent's report of what it
// read states a year by the full date it writes ("22 October 1936") as a
// tool's output does: the report that held the correct year beside the
// wrong one had valid data, and the step that took the wrong one is where
// it went wrong.
func TestYearOfADateAnAgentReports(t *testing.T) {
	question := "In what year was the power plant first put into service?"
	in := prepare(t, question, "1936",
		msg{agent: "user", content: question, kind: run.KindUser},
		msg{agent: "Planner", content: "Plan: the Researcher finds when the plant first generated power; the Verifier checks it."},
		msg{agent: "Researcher", content: "The dam was dedicated on 30 September 1935. The first generator went into service on 22 October 1936."},
		msg{agent: "Verifier", content: "The dam was dedicated on 30 September 1935, so the plant was first put into service in 1935."},
		msg{agent: "Verifier", content: "FINAL ANSWER: 1935"},
	)
	assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(in), true))
	assert.Equal(t, 3, Attribute(in).Step)
}

// TestYearFirstWrittenBeforeTheAnswer: a year an agent writes on its own
// before the answer repeats it was taken there; a date in that year a tool
// printed earlier (a file's timestamp) is not where it came from.
func TestYearFirstWrittenBeforeTheAnswer(t *testing.T) {
	question := "In which year did the store first sell more than 1,000 units?"
	in := prepare(t, question, "",
		msg{agent: "user", content: question, kind: run.KindUser},
		msg{agent: "Analyst", content: `bash({"command": "ls -l --time-style=long-iso"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "-rw-r--r-- 1 user user 2048 2023-03-14 09:12 sales.csv", kind: run.KindToolResult},
		msg{agent: "Analyst", content: `python({"code": "print(df.groupby('year').units.sum())"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "2019 812\n2020 954\n2021 1043", kind: run.KindToolResult},
		msg{agent: "Verifier", content: "The totals are 812, 954 and 1043, so the store first exceeds 1,000 units in 2023."},
		msg{agent: "Analyst", content: "Agreed. The answer is 2023."},
	)
	assert.Equal(t, []int{5}, steps(DataFlowOrigin.Run(in), true))
}

// TestYearOfADateAnAgentWroteFirst: an agent that writes a date in the
// year before another writes the year on its own stated the year first;
// the one that repeats the year took it from there.
func TestYearOfADateAnAgentWroteFirst(t *testing.T) {
	question := "In what year did the Berlin Wall fall?"
	in := prepare(t, question, "",
		msg{agent: "user", content: question, kind: run.KindUser},
		msg{agent: "Historian", content: "The Berlin Wall was built in 1961 and stood for almost three decades."},
		msg{agent: "Analyst", content: "It fell in November 1991, shortly before German reunification."},
		msg{agent: "Historian", content: "That matches the timeline: the wall fell in 1991."},
		msg{agent: "Chair", content: "Our answer: the Berlin Wall fell in 1991."},
	)
	assert.Equal(t, []int{2}, steps(DataFlowOrigin.Run(in), true))
}

// TestSearchPutsNoAnswerForward: once a search result held the correct
// value, a refined search naming the task's subject again puts nothing
// forward; the reply that names the wrong one of the result's values
// does.
func TestSearchPutsNoAnswerForward(t *testing.T) {
	question := "Who was the first woman to win a Nobel Prize in Chemistry?"
	in := prepare(t, question, "Marie Curie",
		msg{agent: "user", content: question, kind: run.KindUser},
		msg{agent: "assistant", content: `wiki_search({"query": "first woman Nobel Prize"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Marie Curie was the first woman to win a Nobel Prize (Physics, 1903).", kind: run.KindToolResult},
		msg{agent: "assistant", content: `wiki_search({"query": "first woman Nobel Prize in Chemistry"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "In 1911 Marie Curie became the first woman to win the Nobel Prize in Chemistry; Irène Joliot-Curie won it in 1935.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The first woman to win the Nobel Prize in Chemistry was Irène Joliot-Curie."},
	)
	assert.Equal(t, []int{5}, steps(GroundTruthContradiction.Run(in), true))
}

// TestUnsupportedArguments: a search query of a few words that takes its
// words from the task is composed, not made up, though the task does not
// hold it as a whole; a name the caller brings from nowhere is made up;
// a date the user gave without its year is the user's, written in full,
// and so is a choice the user said apart that the tool joins by
// underscores, and an id the user wrote in another of its spellings.
func TestUnsupportedArguments(t *testing.T) {
	in := prepare(t, "Who is the current Director-General of the World Trade Organization?", "",
		msg{agent: "user", content: "Who is the current Director-General of the World Trade Organization?", kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "WTO Director-General"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"error": "SearchTimeoutError: upstream search provider did not respond within 30s"}`, kind: run.KindToolResult},
		msg{agent: "assistant", content: `lookup_person({"name": "Roberto Azevedo"})`, kind: run.KindToolCall},
	)
	assert.Equal(t, []int{3}, steps(UnsupportedArguments.Run(in), true))

	// A search in the caller's own words for what the task asks is a
	// question, not a value made up.
	query := prepare(t, "How long is the Danube river in kilometres?", "",
		msg{agent: "user", content: "How long is the Danube river in kilometres?", kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "Danube length km"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `[{"title": "Danube Day 2024 events", "snippet": "Join celebrations along the river on 29 June."}]`, kind: run.KindToolResult},
	)
	assert.Empty(t, steps(UnsupportedArguments.Run(query), true))

	// An order number no step gave, put in a search beside a word the
	// user said, is still made up (a customer service agent's lookup, as
	// an OpenAI chat transcript records it).
	id := prepare(t, "I'm Yusuf Rossi. Where is my desk lamp order?", "",
		msg{agent: "user", content: "I'm Yusuf Rossi. Where is my desk lamp order?", kind: run.KindUser},
		msg{agent: "assistant", content: `search_orders({"query": "Rossi W4817420 purchase"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"order_id": "#W4817420", "status": "cancelled"}`, kind: run.KindToolResult},
	)
	assert.Equal(t, []int{1}, steps(UnsupportedArguments.Run(id), true))

	// A choice the customer said with a hyphen or a space ("one-way",
	// "round trip"), which the call gives in the tool's spelling
	// (one_way), is the customer's; an id of words and digits joined so
	// (credit_card_7720) is looked for whole (an airline assistant's chat
	// transcript, as tau-bench's airline domain names its values).
	const book = "Book me a one-way economy flight BOS to ORD on May 20, and pay with my card."
	for _, tc := range []struct {
		name, args string
		want       []int
	}{
		{"an enum said apart", `{"flight_type": "one_way", "cabin": "economy", "origin": "BOS", "destination": "ORD"}`, nil},
		{"an enum nobody said", `{"flight_type": "round_trip", "cabin": "economy", "origin": "BOS", "destination": "ORD"}`, []int{1}},
		{"an id of words and digits", `{"flight_type": "one_way", "payment_id": "credit_card_7720"}`, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := prepare(t, book, "",
				msg{agent: "user", content: book, kind: run.KindUser},
				msg{agent: "assistant", content: `book_reservation(` + tc.args + `)`, kind: run.KindToolCall},
			)
			assert.Equal(t, tc.want, steps(UnsupportedArguments.Run(in), true))
		})
	}

	// A flight or order id the customer wrote in another of its
	// spellings ("LH 401", "#W-2041"), which the call writes joined, is
	// the customer's; another id is still made up.
	for _, tc := range []struct {
		name, said, args string
		want             []int
	}{
		{"a flight number written apart", "Is Lufthansa LH 401 on time today?", `{"flight_number": "LH401"}`, nil},
		{"an order id written with a hyphen", "Where is order #W-2041?", `{"order_id": "#W2041"}`, nil},
		{"another flight number", "Is Lufthansa LH 401 on time today?", `{"flight_number": "LH410"}`, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := prepare(t, tc.said, "",
				msg{agent: "user", content: tc.said, kind: run.KindUser},
				msg{agent: "assistant", content: `lookup(` + tc.args + `)`, kind: run.KindToolCall},
			)
			assert.Equal(t, tc.want, steps(UnsupportedArguments.Run(in), true))
		})
	}

	// A date the customer wrote in words with its year ("12 April
	// 1986"), which the call writes in full, is the customer's (a clinic
	// assistant's chat transcript).
	dob := prepare(t, "I'm Marco Ruiz, born 12 April 1986.", "",
		msg{agent: "user", content: "I'm Marco Ruiz, born 12 April 1986.", kind: run.KindUser},
		msg{agent: "assistant", content: `find_patient({"name": "Marco Ruiz", "dob": "1986-04-12"})`, kind: run.KindToolCall},
	)
	assert.Empty(t, steps(UnsupportedArguments.Run(dob), true))

	// A reason the customer gave in other words ("I won't be needing
	// it"), which the call gives as the tool's choice ("no longer
	// needed"), is the customer's; one whose content words nobody said is
	// made up (tau-bench retail's cancel_pending_order reasons).
	for _, tc := range []struct {
		name, said, args string
		want             []int
	}{
		{"a reason said otherwise", "Cancel order #W7719034, I won't be needing it.", `{"order_id": "#W7719034", "reason": "no longer needed"}`, nil},
		{"a reason nobody said", "Cancel order #W7719034, I won't be needing it.", `{"order_id": "#W7719034", "reason": "ordered by mistake"}`, []int{1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := prepare(t, tc.said, "",
				msg{agent: "user", content: tc.said, kind: run.KindUser},
				msg{agent: "assistant", content: `update_order(` + tc.args + `)`, kind: run.KindToolCall},
			)
			assert.Equal(t, tc.want, steps(UnsupportedArguments.Run(in), true))
		})
	}

	// A date the customer gave without its year ("May 14"), which the
	// call writes in full with the year of the reservation it read, or
	// of today's date the system's instructions give, is the customer's;
	// one whose day nobody named, or whose year nothing wrote where
	// another year is in view, is made up; with no year in view, the day
	// alone holds it (an airline assistant's chat transcript).
	const ask = "Please move reservation 4WQ150 from May 13 to May 14, same route JFK to SEA."
	for _, tc := range []struct {
		name, result, date, instructions string
		want                             []int
	}{
		{"the day given, the year read", `{"reservation_id": "4WQ150", "flights": [{"flight_number": "HAT083", "date": "2024-05-13"}]}`, "2024-05-14", "", nil},
		{"the day given, the year in the system's instructions", `{"reservation_id": "4WQ150", "flights": [{"flight_number": "HAT083"}]}`, "2024-05-14", "The current time is 2024-05-12 15:00:00 EST.", nil},
		{"a day nobody gave", `{"reservation_id": "4WQ150", "flights": [{"flight_number": "HAT083", "date": "2024-05-13"}]}`, "2024-05-15", "", []int{3}},
		{"a year nobody wrote, another in view", `{"reservation_id": "4WQ150", "flights": [{"flight_number": "HAT083", "date": "2022-05-13"}]}`, "2024-05-14", "", []int{3}},
		{"no year in view", `{"reservation_id": "4WQ150", "flights": [{"flight_number": "HAT083"}]}`, "2024-05-14", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := prepare(t, ask, "",
				msg{agent: "user", content: ask, kind: run.KindUser},
				msg{agent: "assistant", content: `get_reservation_details({"reservation_id": "4WQ150"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: tc.result, kind: run.KindToolResult},
				msg{agent: "assistant", content: `search_direct_flight({"origin": "JFK", "destination": "SEA", "date": "` + tc.date + `"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `[{"flight_number": "HAT170", "date": "` + tc.date + `", "departure": "10:00"}]`, kind: run.KindToolResult},
				msg{agent: "assistant", content: "On " + tc.date + " HAT170 leaves at 10:00. Shall I move you to it?"},
			)
			in.Run.Instructions = tc.instructions
			assert.Equal(t, tc.want, steps(UnsupportedArguments.Run(in), true))
			assert.Equal(t, tc.want, steps(UnsupportedClaim.Run(in), true), "the date the search carries on")
		})
	}
}

// TestPathsAReaderFound: a coding agent that opens the module an issue
// implies, by a path no step named, made nothing up when the read comes
// back with the file (Claude Code's Read tool, as its session log records
// it). A path whose read fails was.
func TestPathsAReaderFound(t *testing.T) {
	for _, tt := range []struct {
		result string
		want   []int
	}{
		{"1\tdef page_bounds(page, per_page, total):\n2\t    start = page * per_page", nil},
		{"<tool_use_error>File does not exist.</tool_use_error>", []int{1}},
	} {
		in := prepare(t, "page_bounds(1, 10, 95) returns (10, 20) but page 1 should be (0, 10).", "",
			msg{agent: "user", content: "page_bounds(1, 10, 95) returns (10, 20) but page 1 should be (0, 10).", kind: run.KindUser},
			msg{agent: "assistant", content: `Read({"file_path":"/repo/pager/bounds.py"})`, kind: run.KindToolCall},
			msg{agent: "assistant", content: tt.result, kind: run.KindToolResult},
			msg{agent: "assistant", content: `Edit({"file_path":"/repo/pager/bounds.py","old_string":"start = page * per_page","new_string":"start = (page - 1) * per_page"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.result)
	}
}

// TestUnsupportedArgumentsOfHandoffs: a coordinator's transfer_to_agent
// given a member of the team, who then takes its turn, names an agent
// its instructions listed outside the run's steps; a name no agent of the
// run bears is still made up. Shape: Google ADK's sub-agents.
func TestUnsupportedArgumentsOfHandoffs(t *testing.T) {
	for _, tt := range []struct {
		to   string
		want []int
	}{
		{"flight_agent", nil},
		{"hotel_agent", []int{1}},
	} {
		in := prepare(t, "Which flight from Vienna to Lisbon lands first on 14 March?", "",
			msg{agent: "user", content: "Which flight from Vienna to Lisbon lands first on 14 March?", kind: run.KindUser},
			msg{agent: "coordinator", content: `transfer_to_agent({"agent_name": "` + tt.to + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"result": null}`, kind: run.KindToolResult, target: "flight_agent"},
			msg{agent: "flight_agent", content: `search_flights({"origin": "Vienna", "destination": "Lisbon"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.to)
	}
}

// TestUnsupportedArgumentsMisspelt: a name of a few words copied with one
// word misspelt ("Yusuf Rosi" for the user's "Yusuf Rossi") is not
// composed from what the caller read: the words it holds are the copy's,
// and the one it changed makes it a name nobody gave. Shape: a
// tau-bench-like customer service agent's call, as an OpenAI chat
// transcript records it.
func TestUnsupportedArgumentsMisspelt(t *testing.T) {
	in := prepare(t, "Change the shipping address of my order #W4817420.", "",
		msg{agent: "user", content: "Hi, I'm Yusuf Rossi and I'd like to change the shipping address of my order #W4817420.", kind: run.KindUser},
		msg{agent: "assistant", content: `find_user_by_name({"full_name": "Yusuf Rosi"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Error: user not found", kind: run.KindToolResult},
		msg{agent: "assistant", content: `web_search({"query": "Rossi shipping address change"})`, kind: run.KindToolCall},
	)
	assert.Equal(t, []int{1}, steps(UnsupportedArguments.Run(in), true), "the misspelt name, not the query composed of what was read")
}

// TestUnsupportedArgumentsInflected: a query that writes one of the
// task's common nouns in the singular ("Ostra tunnel length" for "the
// Vellen and Ostra tunnels") is composed of what the caller read, not a
// name misspelt; a query of words nobody gave still is not. Shape: a Qwen
// model's parallel searches, as its chat template writes them.
func TestUnsupportedArgumentsInflected(t *testing.T) {
	in := prepare(t, "What is the combined length of the Vellen and Ostra tunnels, in metres?", "",
		msg{agent: "user", content: "What is the combined length of the Vellen and Ostra tunnels, in metres?", kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "Vellen tunnel length"})` + "\n" + `web_search({"query": "Ostra tunnel length"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "The Vellen Tunnel is 4,312 metres long.", kind: run.KindToolResult},
		msg{agent: "assistant", content: `web_search({"query": "Brekke bridge span"})`, kind: run.KindToolCall},
	)
	assert.Equal(t, []int{3}, steps(UnsupportedArguments.Run(in), true), "the singular noun is the task's; the bridge is nobody's")
}

// TestUnsupportedArgumentsOfNumbers: a call's JSON writes a number as
// JSON does (42.5, 69004) where the prose it was read from says "42.50
// EUR" and "69,004": the same value, not a made-up one. Shape: an OpenAI
// Agents SDK coordinator delegating to a math specialist's tool.
func TestUnsupportedArgumentsOfNumbers(t *testing.T) {
	in := prepare(t, "What do 3 units of SKU B-4471 cost at the current list price?", "",
		msg{agent: "user", content: "What do 3 units of SKU B-4471 cost at the current list price?", kind: run.KindUser},
		msg{agent: "inventory", content: "The current list price of SKU B-4471 is 42.50 EUR per unit; 69,004 units are in stock."},
		msg{agent: "math", content: `multiply_numbers({"a":42.5,"b":3})`, kind: run.KindToolCall},
		msg{agent: "math", content: `reserve_units({"sku":"B-4471","available":69004})`, kind: run.KindToolCall},
		msg{agent: "math", content: `multiply_numbers({"a":42.75,"b":3})`, kind: run.KindToolCall},
	)
	assert.Equal(t, []int{4}, steps(UnsupportedArguments.Run(in), true), "only 42.75, which nothing states")
}

// TestUnsupportedAnswerOfNumbersWithUnits: a worker that reports the
// price its tool's JSON gave, with the currency the JSON keeps in another
// field ("12.30 EUR" for "price": 12.30), tells what its tool returned;
// the price no tool gave is its own. Shape: an OpenAI Agents SDK
// inventory specialist called as a tool by a coordinator.
func TestUnsupportedAnswerOfNumbersWithUnits(t *testing.T) {
	in := prepare(t, "What do SKUs A-1037 and A-1481 cost?", "",
		msg{agent: "user", content: "What do SKUs A-1037 and A-1481 cost?", kind: run.KindUser},
		msg{agent: "inventory", content: `get_list_price({"sku":"A-1037","currency":"EUR"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"sku": "A-1037", "price": 12.30, "currency": "EUR"}`, kind: run.KindToolResult},
		msg{agent: "inventory", content: "The list price of SKU A-1037 is 12.30 EUR."},
		msg{agent: "inventory", content: `get_list_price({"sku":"A-1481","currency":"EUR"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Error: PriceServiceError: price service unavailable", kind: run.KindToolResult},
		msg{agent: "inventory", content: "The list price of SKU A-1481 is 19.90 EUR."},
	)
	assert.Equal(t, []int{6}, steps(UnsupportedAnswer.Run(in), true))
}

// TestUnsupportedAnswerOfCodes: an assistant that tells the customer a
// ticket's code its tool never printed made the code up; the asset's code
// the lookup printed, and the ticket's the tool returned, are the
// system's. Shape: an IT helpdesk assistant with OpenAI tool calls.
func TestUnsupportedAnswerOfCodes(t *testing.T) {
	in := prepare(t, "My laptop screen flickers. Can you open a ticket?", "",
		msg{agent: "user", content: "My laptop screen flickers. Can you open a ticket?", kind: run.KindUser},
		msg{agent: "assistant", content: `create_ticket({"asset": "LT-5521", "summary": "Screen flickers"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"status": "created", "ticket": {"id": "INC-30517", "asset": "LT-5521"}}`, kind: run.KindToolResult},
		msg{agent: "assistant", content: "Ticket INC-30517 is open for laptop LT-5521."},
		msg{agent: "assistant", content: `create_ticket({"asset": "LT-5521", "summary": "Dock not charging"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"status": "created"}`, kind: run.KindToolResult},
		msg{agent: "assistant", content: "I've also opened INC-48213 for your dock on laptop LT-5521."},
	)
	assert.Equal(t, []int{6}, steps(UnsupportedAnswer.Run(in), true))
}

// TestUnsupportedAnswerOfCodesWrittenOtherwise: a code a tool's record
// prints with its parts spaced or joined ("AES 256", "INC48213") is the
// code the assistant tells with a hyphen; a code no record holds in any
// writing is still made up. Shape: an IT helpdesk assistant with OpenAI
// tool calls.
func TestUnsupportedAnswerOfCodesWrittenOtherwise(t *testing.T) {
	in := prepare(t, "My laptop was stolen. Is its disk encrypted?", "",
		msg{agent: "user", content: "My laptop was stolen. Is its disk encrypted?", kind: run.KindUser},
		msg{agent: "assistant", content: `get_device({"employee_id": "E-20417"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"model": "ThinkPad X1", "disk_encryption": "BitLocker, AES 256", "ticket": "INC48213"}`, kind: run.KindToolResult},
		msg{agent: "assistant", content: "Your disk is encrypted with BitLocker (AES-256); the theft is logged as INC-48213."},
		msg{agent: "assistant", content: "Your backup is encrypted with XTS-512."},
	)
	assert.Equal(t, []int{4}, steps(UnsupportedAnswer.Run(in), true))
}

// TestUnsupportedAnswerOfIdTails: an assistant that names a payment
// method by the digits its id ends in ("credit_card_2201": "your card
// ending 2201") tells what its tool printed; digits that end no id it
// was shown are its own. Shape: a tau-bench retail order's payment
// history.
func TestUnsupportedAnswerOfIdTails(t *testing.T) {
	in := prepare(t, "I want to return the desk lamp from order #W5521873.", "",
		msg{agent: "user", content: "I want to return the desk lamp from order #W5521873.", kind: run.KindUser},
		msg{agent: "assistant", content: `get_order_details({"order_id": "#W5521873"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"order_id": "#W5521873", "payment_history": [{"payment_method_id": "credit_card_2201", "amount": 39.5}]}`, kind: run.KindToolResult},
		msg{agent: "assistant", content: "The refund goes to your credit card ending 2201. Shall I proceed?"},
		msg{agent: "user", content: "Can it go to my other card instead?", kind: run.KindUser},
		msg{agent: "assistant", content: `get_user_details({"user_id": "omar_diaz_1184"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"payment_methods": {"credit_card_2201": {}}}`, kind: run.KindToolResult},
		msg{agent: "assistant", content: "I can send it to your card ending 3301 instead."},
	)
	assert.Equal(t, []int{7}, steps(UnsupportedAnswer.Run(in), true))
}

// TestUnsupportedAnswerOfRoundedFigures: an assistant that tells a
// converter's figure rounded or cut to whole units tells what its tool
// returned; a figure that no rounding of the tool's gives is its own.
// Shape: a search assistant with a unit converter, OpenAI tool calls.
func TestUnsupportedAnswerOfRoundedFigures(t *testing.T) {
	in := prepare(t, "How tall is Kilimanjaro in feet?", "",
		msg{agent: "user", content: "How tall is Kilimanjaro in feet?", kind: run.KindUser},
		msg{agent: "assistant", content: `convert_units({"value": 5895, "from_unit": "m", "to_unit": "ft"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"value": 19340.55, "unit": "ft"}`, kind: run.KindToolResult},
		msg{agent: "assistant", content: "Kilimanjaro is about 19,341 feet tall."},
		msg{agent: "assistant", content: "That is roughly 19,340 feet."},
		msg{agent: "assistant", content: "Or 19,345 feet, give or take."},
	)
	assert.Equal(t, []int{5}, steps(UnsupportedAnswer.Run(in), true))
}

// TestUnsupportedCounts: a change given a count (of bags) that neither
// the customer nor the agreed proposal stated, where they counted that
// thing, is a made-up argument; the counts they stated, a zero for what
// was not asked for, and a count of a thing no one counted are not.
// Shape: tau-bench airline's update_reservation_baggages.
func TestUnsupportedCounts(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       []int
	}{
		{"another count", `{"reservation_id": "7QK2LD", "total_baggages": 4, "nonfree_baggages": 3}`, []int{5}},
		{"the counts agreed", `{"reservation_id": "7QK2LD", "total_baggages": 2, "nonfree_baggages": 1}`, nil},
		{"none unpaid", `{"reservation_id": "7QK2LD", "total_baggages": 2, "nonfree_baggages": 0}`, nil},
		{"a thing no one counted", `{"reservation_id": "7QK2LD", "total_baggages": 2, "priority_boarding": 5}`, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "On reservation 7QK2LD I want two bags in total.", "",
				msg{agent: "user", content: "On reservation 7QK2LD I want two bags in total.", kind: run.KindUser},
				msg{agent: "assistant", content: `get_reservation_details({"reservation_id": "7QK2LD"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"reservation_id": "7QK2LD", "cabin": "economy", "total_baggages": 1, "nonfree_baggages": 0}`, kind: run.KindToolResult},
				msg{agent: "assistant", content: "You have 1 bag now; with one more, 2 checked bags, one of them at $50. Shall I go ahead?"},
				msg{agent: "user", content: "Yes.", kind: run.KindUser},
				msg{agent: "assistant", content: `update_reservation_baggages(` + tt.args + `)`, kind: run.KindToolCall},
			)
			assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true))
		})
	}
}

// TestCountInWords: a count a step writes in words ("one night") holds
// the call's number (1) of that thing; another number is still made up.
// Shape: a Swarm handoff from a flight agent to a hotel agent.
func TestCountInWords(t *testing.T) {
	for _, tt := range []struct {
		nights string
		want   []int
	}{
		{"1", nil},
		{"3", []int{3}},
	} {
		in := prepare(t, "Book me a hotel near LIS airport.", "",
			msg{agent: "user", content: "Book me a hotel near LIS airport.", kind: run.KindUser},
			msg{agent: "flight_agent", content: "hotel_agent: book one night near LIS airport."},
			msg{agent: "hotel_agent", content: "On it."},
			msg{agent: "hotel_agent", content: `book_hotel({"near": "LIS", "nights": ` + tt.nights + `})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.nights)
	}
}

// TestUnsupportedCountsBesideAnotherThing: a count the change is given
// that the task states only of another thing ("we're 3 travellers") is
// still made up for the thing the key names; the task that counts that
// thing by it holds it.
// Shape: tau-bench airline's update_reservation_baggages.
func TestUnsupportedCountsBesideAnotherThing(t *testing.T) {
	for _, tt := range []struct {
		name, task string
		want       []int
	}{
		{"a count of travellers", "On reservation 7QK2LD we're 3 travellers and I want two bags in total.", []int{5}},
		{"a count of the bags", "On reservation 7QK2LD we have 3 bags, but I want two bags in total.", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.task, "",
				msg{agent: "user", content: tt.task, kind: run.KindUser},
				msg{agent: "assistant", content: `get_reservation_details({"reservation_id": "7QK2LD"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"reservation_id": "7QK2LD", "cabin": "economy", "total_baggages": 1, "nonfree_baggages": 0}`, kind: run.KindToolResult},
				msg{agent: "assistant", content: "You have 1 bag now; with one more, 2 checked bags, one of them at $50. Shall I go ahead?"},
				msg{agent: "user", content: "Yes.", kind: run.KindUser},
				msg{agent: "assistant", content: `update_reservation_baggages({"reservation_id": "7QK2LD", "total_baggages": 3, "nonfree_baggages": 1})`, kind: run.KindToolCall},
			)
			assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true))
		})
	}
}

// TestUnsupportedAnswerOtherRow: a reply that tells the figure of one
// record of a listing (the checking account's balance) while it names
// another record by its words (savings) told the other row; the reply
// that names the figure's own record, or restates the listing row by
// row, did not. Shape: a bank assistant's chat transcript with
// tool_calls.
func TestUnsupportedAnswerOtherRow(t *testing.T) {
	for _, tt := range []struct {
		name, reply string
		want        []int
	}{
		{"the other row's figure", "Your savings account has a balance of $2,340.18.", []int{3}},
		{"the row it names", "Your savings account has a balance of $12,905.44.", nil},
		{"the listing restated", "Checking has $2,340.18 and savings $12,905.44.", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "How much is in my savings account?", "",
				msg{agent: "user", content: "How much is in my savings account?", kind: run.KindUser},
				msg{agent: "assistant", content: `get_accounts({"customer_id": "31-90577"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `[{"account_id": "CHK-11802", "type": "checking", "balance": 2340.18}, {"account_id": "SAV-11803", "type": "savings", "balance": 12905.44}]`, kind: run.KindToolResult},
				msg{agent: "assistant", content: tt.reply},
			)
			assert.Equal(t, tt.want, steps(UnsupportedAnswer.Run(in), true))
		})
	}
}

// TestUnsupportedAnswerTakenBackWrittenOtherwise: the value the tool
// printed and the one the reply told are one figure written two ways
// ("5,895 m", "5,895 metres"), as the claims read them; the answer that
// takes the user's figure in its place still took its answer back.
// Shape: a search assistant in OpenAI chat with tool calls.
func TestUnsupportedAnswerTakenBackWrittenOtherwise(t *testing.T) {
	in := prepare(t, "How tall is Mount Kilimanjaro in metres?", "",
		msg{agent: "user", content: "How tall is Mount Kilimanjaro in metres?", kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "Kilimanjaro height"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Kilimanjaro: summit Uhuru Peak, elevation 5,895 m (19,341 ft).", kind: run.KindToolResult},
		msg{agent: "assistant", content: "Mount Kilimanjaro is 5,895 metres tall."},
		msg{agent: "user", content: "Are you sure? I read that it's 5,985 metres.", kind: run.KindUser},
		msg{agent: "assistant", content: "You're right, my apologies: Mount Kilimanjaro is 5,985 metres tall."},
	)
	assert.Equal(t, []int{5}, steps(UnsupportedAnswer.Run(in), true))
}

// TestUnsupportedAnswerOfUndoneActions: an assistant that tells the
// customer the cancellation they asked for is done, with no call since
// that changed anything, told of an action it never took; and the
// values its closing reply read from its tool are then no suspects of
// the data flow; so did one whose only call for it its tool refused, or
// that only handed the work to another agent. A
// change made by a call of another verb (or again after a refusal), a
// state a tool's output reports, and an action no one asked for are not
// so.
// Shape: a hotel booking assistant in OpenAI chat with tool calls.
func TestUnsupportedAnswerOfUndoneActions(t *testing.T) {
	lookup := `{"reservation_id": "HB-78812", "hotel": "Harbor Inn", "status": "confirmed", "nights": 3, "total": 412.5}`
	for _, tt := range []struct {
		name, ask string
		middle    []msg
		want      []int
	}{
		{"never called", "Please cancel my reservation HB-78812.", nil, []int{5}},
		{"called by another verb", "Please cancel my reservation HB-78812.", []msg{
			{agent: "assistant", content: `void_booking({"reservation_id": "HB-78812"})`, kind: run.KindToolCall},
			{agent: "tool", content: `{"ok": true}`, kind: run.KindToolResult},
		}, nil},
		{"a state the tool reports", "Please cancel my reservation HB-78812.", []msg{
			{agent: "assistant", content: `get_reservation({"reservation_id": "HB-78812"})`, kind: run.KindToolCall},
			{agent: "tool", content: `{"reservation_id": "HB-78812", "status": "cancelled"}`, kind: run.KindToolResult},
		}, nil},
		{"not asked", "What does my reservation HB-78812 cost?", nil, nil},
		{"refused by its tool", "Please cancel my reservation HB-78812.", []msg{
			{agent: "assistant", content: `cancel_reservation({"reservation_id": "HB-78812"})`, kind: run.KindToolCall},
			{agent: "tool", content: "Error: 409 Conflict: reservation HB-78812 is locked for changes", kind: run.KindToolResult},
		}, []int{7}},
		{"refused, then made", "Please cancel my reservation HB-78812.", []msg{
			{agent: "assistant", content: `cancel_reservation({"reservation_id": "HB-78812"})`, kind: run.KindToolCall},
			{agent: "tool", content: "Error: 503 Service Unavailable", kind: run.KindToolResult},
			{agent: "assistant", content: `cancel_reservation({"reservation_id": "HB-78812"})`, kind: run.KindToolCall},
			{agent: "tool", content: `{"ok": true}`, kind: run.KindToolResult},
		}, nil},
		{"asked as an order", "Cancel my reservation HB-78812.", nil, []int{5}},
		{"only handed on", "Please cancel my reservation HB-78812.", []msg{
			{agent: "assistant", content: `transfer_to_cancellations_agent({})`, kind: run.KindToolCall},
			{agent: "tool", content: `{"assistant": "cancellations_agent"}`, kind: run.KindToolResult, target: "cancellations_agent"},
		}, []int{7}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msgs := []msg{
				{agent: "user", content: tt.ask, kind: run.KindUser},
				{agent: "assistant", content: `get_reservation({"reservation_id": "HB-78812"})`, kind: run.KindToolCall},
				{agent: "tool", content: lookup, kind: run.KindToolResult},
				{agent: "assistant", content: "HB-78812 at Harbor Inn, 3 nights, $412.50. Shall I go ahead?"},
				{agent: "user", content: "Yes.", kind: run.KindUser},
			}
			msgs = append(append(msgs, tt.middle...), msg{agent: "assistant", content: "Your reservation HB-78812 has been cancelled; $412.50 will be refunded."})
			in := prepare(t, tt.ask, "", msgs...)
			assert.Equal(t, tt.want, steps(UnsupportedAnswer.Run(in), true))
			if tt.want != nil {
				assert.Empty(t, DataFlowOrigin.Run(in), "the answer's values are its tool's")
			}
		})
	}
}

// TestUnsupportedAnswerOfHiddenFailures: an inventory agent whose stock
// lookup failed and which tells the supervisor the product is out of
// stock reported a result its tool did not give; one that tells of the
// failure hid nothing. Shape: a LangGraph supervisor's worker, as
// OpenInference spans give its steps.
func TestUnsupportedAnswerOfHiddenFailures(t *testing.T) {
	for _, tt := range []struct {
		reply string
		want  []int
	}{
		{"The Trailblazer 45 (TB-45) is out of stock at the Leeds store: 0 units.", []int{4}},
		{"The stock service timed out, so I could not check TB-45 at the Leeds store.", nil},
	} {
		q := "Is the Trailblazer 45 backpack (TB-45) in stock at the Leeds store?"
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "inventory_agent: check the stock of TB-45 at the Leeds store."},
			msg{agent: "inventory_agent", content: `check_store_stock({"sku": "TB-45", "store": "Leeds"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Error: 503 Service Unavailable: inventory service timed out after 30s", kind: run.KindToolResult},
			msg{agent: "inventory_agent", content: tt.reply},
		)
		assert.Equal(t, tt.want, stepsFor(UnsupportedAnswer.Run(in), "failed, and says nothing of the failure"), tt.reply)
	}
}

// TestStateConflictOfRefusalsTaken: an assistant that said a
// reservation cannot be cancelled and, with nothing but the customer's
// insistence since, offers and makes the cancellation made the
// exception its refusal ruled out: the offer is the fault. One that
// looked again and found what changes the answer (insurance), and one
// that refused another action, did not. Shape: tau-bench airline.
func TestStateConflictOfRefusalsTaken(t *testing.T) {
	for _, tt := range []struct {
		name, refusal string
		between       []msg
		want          []int
	}{
		{"insisted", "Sorry, R5QX1B was booked over 24 hours ago without insurance, so it can't be cancelled.", nil, []int{5}},
		{"looked again", "Sorry, R5QX1B was booked over 24 hours ago without insurance, so it can't be cancelled.", []msg{
			{agent: "assistant", content: `get_reservation_details({"reservation_id": "R5QX1B"})`, kind: run.KindToolCall},
			{agent: "tool", content: `{"reservation_id": "R5QX1B", "insurance": "yes"}`, kind: run.KindToolResult},
		}, nil},
		{"another action refused", "Sorry, R5QX1B is not eligible for an upgrade.", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msgs := []msg{
				{agent: "user", content: "Cancel reservation R5QX1B please.", kind: run.KindUser},
				{agent: "assistant", content: `get_reservation_details({"reservation_id": "R5QX1B"})`, kind: run.KindToolCall},
				{agent: "tool", content: `{"reservation_id": "R5QX1B", "cabin": "economy", "insurance": "no", "created_at": "2024-05-02T09:00:00"}`, kind: run.KindToolResult},
				{agent: "assistant", content: tt.refusal},
				{agent: "user", content: "Please, I really need this. Just cancel it.", kind: run.KindUser},
			}
			msgs = append(append(msgs, tt.between...),
				msg{agent: "assistant", content: "I understand, I'll make an exception. Cancelling R5QX1B now, okay?"},
				msg{agent: "user", content: "Yes!", kind: run.KindUser},
				msg{agent: "assistant", content: `cancel_reservation({"reservation_id": "R5QX1B"})`, kind: run.KindToolCall})
			in := prepare(t, "Cancel reservation R5QX1B please.", "", msgs...)
			assert.Equal(t, tt.want, steps(StateConflict.Run(in), true))
		})
	}
}

// TestStateConflictOfGuards: a condition the task sets on an action
// ("apply only if the plan destroys nothing", "delete ... unless it
// carries the tag retain=true") is broken by the first consequential call
// of that action, or on the object shown, made after the latest result
// that speaks of the state showed it; not by a call after a later result
// that shows the state absent, by a read-only call, or by an action on
// other objects. A policy that requires a step before an action ("take a
// dump of the table before any destructive change") is broken by the
// first call of the action made with no call taking the step before it;
// not where a call took the step first, and not by calls that destroy
// nothing. Shape: Terraform, AWS CLI and database migration agents with a
// shell tool and an SQL tool.
func TestStateConflictOfGuards(t *testing.T) {
	const (
		dumpTask     = "Split users.full_name in two. Take a dump of the users table with pg_dump to /backups/users.sql before any destructive change. Then drop full_name."
		snapshotTask = "Resize the data disk. Make a snapshot of the disk before deleting the old volume."
		planTask     = "Raise the database to db.r6g.large. Run terraform plan first and apply only if the plan destroys nothing."
		bucketTask   = "Clean up: delete every bucket with the prefix tmp- unless it carries the tag retain=true."
		replaced     = "# aws_db_instance.orders must be replaced\n-/+ destroy and then create replacement\nPlan: 1 to add, 0 to change, 1 to destroy."
		inPlace      = "~ update in-place\nPlan: 0 to add, 1 to change, 0 to destroy."
		tags         = "== tmp-build-cache\nTAGSET\towner\tci\n== tmp-etl-staging\nTAGSET\tretain\ttrue"
		deployTask   = "Deploy the web service to staging only."
		npmTest      = "\n> web@1.0.0 test\n> jest\n\nPASS src/app.test.js\nTests: 3 passed, 3 total"
		preview      = "Stage 1/2: build\nThe preview server is live at http://localhost:4173"
	)
	shell := func(line string) msg {
		return msg{agent: "assistant", content: `run_command({"command": "` + line + `"})`, kind: run.KindToolCall}
	}
	sql := func(q string) msg {
		return msg{agent: "assistant", content: `run_sql({"query": "` + q + `"})`, kind: run.KindToolCall}
	}
	result := func(s string) msg { return msg{agent: "tool", content: s, kind: run.KindToolResult} }
	for _, tt := range []struct {
		name, task string
		msgs       []msg
		want       []int
	}{
		{"dropped with no dump", dumpTask, []msg{sql("ALTER TABLE users ADD COLUMN first_name text;"), result("ALTER TABLE"), sql("ALTER TABLE users DROP COLUMN full_name;"), result("ALTER TABLE")}, []int{3}},
		{"dropped after the dump", dumpTask, []msg{shell("pg_dump -t users -f /backups/users.sql app"), result(""), sql("ALTER TABLE users DROP COLUMN full_name;"), result("ALTER TABLE")}, nil},
		{"nothing destroyed", dumpTask, []msg{sql("ALTER TABLE users ADD COLUMN first_name text;"), result("ALTER TABLE")}, nil},
		{"deleted with no snapshot", snapshotTask, []msg{shell("aws ec2 describe-volumes"), result("vol-1 in-use"), shell("aws ec2 delete-volume --volume-id vol-1"), result("")}, []int{3}},
		{"deleted after the snapshot", snapshotTask, []msg{shell("aws ec2 create-snapshot --volume-id vol-1"), result("snap-9"), shell("aws ec2 delete-volume --volume-id vol-1"), result("")}, nil},
		{"applied after the plan showed a destroy", planTask, []msg{shell("terraform plan -out=tfplan"), result(replaced), shell("terraform apply tfplan")}, []int{3}},
		{"applied after a new plan destroys nothing", planTask, []msg{shell("terraform plan -out=tfplan"), result(replaced), shell("terraform plan -out=tfplan"), result(inPlace), shell("terraform apply tfplan")}, nil},
		{"only shown again", planTask, []msg{shell("terraform plan -out=tfplan"), result(replaced), shell("terraform show tfplan")}, nil},
		{"deleted the tagged bucket", bucketTask, []msg{shell("get-tags"), result(tags), shell("aws s3 rb s3://tmp-build-cache && aws s3 rb s3://tmp-etl-staging")}, []int{3}},
		{"applied in another environment than the task's", "Scale the web tier to 4 and apply it to staging only.", []msg{shell("terraform workspace show"), result("prod"), shell("terraform apply -var web_count=4")}, []int{3}},
		{"applied after selecting the task's environment", "Scale the web tier to 4 and apply it to staging only.", []msg{shell("terraform workspace show"), result("prod"), shell("terraform workspace select staging"), result(`Switched to workspace "staging".`), shell("terraform apply -var web_count=4")}, nil},
		{"kept the tagged bucket", bucketTask, []msg{shell("get-tags"), result(tags), shell("aws s3 rb s3://tmp-build-cache")}, nil},
		{"deployed after a test script ran", deployTask, []msg{shell("npm test"), result(npmTest), shell("npm run deploy -- --env staging")}, nil},
		{"deployed after a preview went live", deployTask, []msg{shell("npm run preview"), result(preview), shell("npm run deploy -- --env staging")}, nil},
		{"deployed after a JSON config named another environment", deployTask, []msg{shell("cat deploy.json"), result(`{"environment": "production", "replicas": 2}`), shell("npm run deploy")}, []int{3}},
		{"deployed after the current context named another environment", deployTask, []msg{shell("kubectl config view --minify"), result("current-context: web-prod\nclusters: 1"), shell("npm run deploy")}, []int{3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			msgs := append([]msg{{agent: "user", content: tt.task, kind: run.KindUser}}, tt.msgs...)
			in := prepare(t, tt.task, "", msgs...)
			fs := StateConflict.Run(in)
			assert.Equal(t, tt.want, append(stepsFor(fs, "rules out"), stepsFor(fs, "requires before it")...))
		})
	}
}

// TestDateOfTheNextYear: a day a guest gives without a year, late in the
// year the run's date is in, written out by a call in the next year, is
// the day the guest gave; a year no one could mean is made up. Shape: a
// hotel booking assistant whose system prompt gives today's date, as
// tau-bench's do.
func TestDateOfTheNextYear(t *testing.T) {
	for _, tt := range []struct {
		date string
		want []int
	}{
		{"2027-01-03", nil},
		{"2026-01-03", nil},
		{"2028-01-03", []int{2}},
	} {
		in := prepare(t, "Book Lakeside Lodge from January 3 for 4 nights.", "",
			msg{agent: "system", content: "The current time is 2026-11-28 10:00:00 EST.", kind: run.KindSystem},
			msg{agent: "user", content: "Book Lakeside Lodge from January 3 for 4 nights.", kind: run.KindUser},
			msg{agent: "assistant", content: `search_rooms({"hotel": "Lakeside Lodge", "check_in": "` + tt.date + `"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.date)
	}
}

// TestYearlessDateWithNoYearInView: a day a customer gives without a
// year ("13 June", "June 13th"), where neither the task, the
// instructions nor an earlier step states any year, is the day a call
// writes in full in whatever year: nothing says another. Once a step
// states another year, a call in a year no one wrote is made up. Shape:
// a clinic scheduling assistant in OpenAI chat with tool calls.
func TestYearlessDateWithNoYearInView(t *testing.T) {
	for _, tt := range []struct {
		ask, listed, date string
		want              []int
	}{
		{"Please book my check-up on 13 June.", `{"patient": "P-4410", "status": "active"}`, "2025-06-13", nil},
		{"Please book my check-up on June 13th.", `{"patient": "P-4410", "status": "active"}`, "2025-06-13", nil},
		{"Please book my check-up on 13 June.", `{"patient": "P-4410", "status": "active"}`, "2025-06-14", []int{3}},
		{"Please book my check-up on 13 June.", `{"patient": "P-4410", "last_visit": "2023-02-01"}`, "2025-06-13", []int{3}},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `get_patient({"patient": "P-4410"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: tt.listed, kind: run.KindToolResult},
			msg{agent: "assistant", content: `book_slot({"patient": "P-4410", "date": "` + tt.date + `"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.ask+" "+tt.date)
	}
}

// TestUnsupportedAnswerOfTotals: a total an assistant tells that is a
// rate a tool printed times a count the run states (4 nights at $210)
// was worked out; a total that no such product gives is its own. Shape:
// a hotel booking assistant in OpenAI chat with tool calls.
func TestUnsupportedAnswerOfTotals(t *testing.T) {
	for _, tt := range []struct {
		total string
		want  []int
	}{
		{"$840", nil},
		{"$860", []int{3}},
	} {
		in := prepare(t, "A family room at Lakeside Lodge for 4 nights, please.", "",
			msg{agent: "user", content: "A family room at Lakeside Lodge for 4 nights, please.", kind: run.KindUser},
			msg{agent: "assistant", content: `search_rooms({"hotel": "Lakeside Lodge"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"available": [{"room_id": "FAM-12", "rate": 210}]}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: "Room FAM-12 is $210 a night, " + tt.total + " for the 4 nights. Shall I book it?"},
		)
		assert.Equal(t, tt.want, steps(UnsupportedAnswer.Run(in), true), tt.total)
	}
}

// TestCallOnAnotherRecordThanNamed: a customer who names one of their
// two policies, and an assistant that lists both and looks up the other,
// took up another record than the one asked about; looking up the one
// named, or either when none was named, did not. Shape: an insurance
// claims assistant in OpenAI chat with tool calls.
func TestCallOnAnotherRecordThanNamed(t *testing.T) {
	for _, tt := range []struct {
		ask, policy string
		want        []int
	}{
		{"My home policy is HO-220519; a pipe burst.", "AU-448210", []int{3}},
		{"My home policy is HO-220519; a pipe burst.", "HO-220519", nil},
		{"A pipe burst in my house.", "AU-448210", nil},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "user", content: "I'm Dana Reyes. " + tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `find_policies({"holder": "Dana Reyes"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"policies": [{"policy_number": "AU-448210", "type": "auto"}, {"policy_number": "HO-220519", "type": "home"}]}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: `get_policy({"policy_number": "` + tt.policy + `"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.ask+" "+tt.policy)
	}
}

// TestRelativeDates: a date a call writes that falls within two weeks
// of today's, where the user named a day from today ("next Monday",
// "yesterday"), was worked out from it, and is no value the call puts
// forward either; one further off, or with no such day named (a span of
// weekdays, "Monday to Friday", names none), was not. Where every day
// named is a day of the week ("on Friday", "next Tuesday"), only the
// dates it pins from today are ("next" read either way people read it).
// Today's date is read alike from a transcript's system step and from
// the system instructions a trace keeps apart from its steps. Shape: a
// travel search assistant whose system prompt gives today's date, as an
// OpenAI chat transcript with tool calls and as a GenAI trace.
func TestRelativeDates(t *testing.T) {
	const system = "You are a travel assistant. Today is Saturday, 2026-11-28."
	for _, tt := range []struct {
		ask, date string
		want      []int
	}{
		{"What is the earliest flight from Lisbon to Porto next Monday?", "2026-11-30", nil},
		{"What was the earliest flight from Lisbon to Porto yesterday?", "2026-11-27", nil},
		{"What is the earliest flight from Lisbon to Porto next Monday?", "2026-12-21", []int{2}},
		{"What was the earliest flight from Lisbon to Porto yesterday?", "2026-11-07", []int{2}},
		{"What is the earliest flight from Lisbon to Porto?", "2026-11-30", []int{2}},
		{"I commute Monday to Friday; what is the earliest flight from Lisbon to Porto?", "2026-11-30", []int{2}},
		{"Move my flight from Lisbon to Porto from Monday to Tuesday and tell me the earliest one.", "2026-12-01", nil},
		{"What is the earliest flight from Lisbon to Porto on Friday?", "2026-12-04", nil},
		{"What is the earliest flight from Lisbon to Porto on Friday?", "2026-12-05", []int{2}},
		{"What is the earliest flight from Lisbon to Porto this Thursday?", "2026-12-03", nil},
		{"What is the earliest flight from Lisbon to Porto next Tuesday?", "2026-12-01", nil},
		{"What is the earliest flight from Lisbon to Porto next Tuesday?", "2026-12-08", nil},
		{"What is the earliest flight from Lisbon to Porto next Tuesday?", "2026-12-02", []int{2}},
		{"What was the last flight from Lisbon to Porto last Wednesday?", "2026-11-25", nil},
		{"What was the last flight from Lisbon to Porto last Wednesday?", "2026-11-26", []int{2}},
		{"What is the earliest flight from Lisbon to Porto on Saturday?", "2026-11-28", nil},
		{"What is the earliest flight from Lisbon to Porto by Friday?", "2026-12-02", nil},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "system", content: system, kind: run.KindSystem},
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `flight_search({"from": "Lisbon", "to": "Porto", "date": "` + tt.date + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `[{"flight": "TP1940", "date": "` + tt.date + `", "departs": "06:05"}, {"flight": "TP1942", "date": "` + tt.date + `", "departs": "08:40"}]`, kind: run.KindToolResult},
			msg{agent: "assistant", content: "The earliest flight on " + tt.date + " is TP1942 at 08:40."},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), "unsupported_arguments: "+tt.ask+" "+tt.date)
		assert.Equal(t, tt.want, steps(UnsupportedClaim.Run(in), true), "unsupported_claim: "+tt.ask+" "+tt.date)

		r := &run.Run{Source: "trace.json", Question: tt.ask, Instructions: system, Steps: []run.Step{
			{Index: 0, Agent: "user", Kind: run.KindUser, Content: tt.ask},
			{Index: 1, Agent: "assistant", Kind: run.KindToolCall, Content: `flight_search({"from": "Lisbon", "to": "Porto", "date": "` + tt.date + `"})`},
		}}
		f := extract.Run(r)
		g, err := graph.Build(r, f)
		require.NoError(t, err)
		var want []int
		for _, s := range tt.want {
			want = append(want, s-1)
		}
		assert.Equal(t, want, steps(UnsupportedArguments.Run(&Input{Run: r, Features: f, Graph: g}), true), "in a trace: "+tt.ask+" "+tt.date)
	}
}

// TestArithmeticOfHeldNumbers: a calculator's expression whose numbers
// the task or a tool stated, a rate in percent as its fraction or one
// plus it, was worked out from them; one with a number no step states
// was not. Shape: a search assistant with web_search and calculator
// tools, in OpenAI chat with tool calls.
func TestArithmeticOfHeldNumbers(t *testing.T) {
	for _, tt := range []struct {
		expr string
		want []int
	}{
		{"240 * 1.08875", nil},
		{"240 * 0.08875", nil},
		{"240 + 21.3", []int{3}},
		{"240 * 1.0875", []int{3}},
	} {
		q := "I'm buying a $240 jacket in New York City. How much will I pay including sales tax?"
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "assistant", content: `web_search({"query": "New York City sales tax rate"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "The combined sales tax rate in New York City is 8.875% (4% state, 4.5% city and 0.375% MCTD).", kind: run.KindToolResult},
			msg{agent: "assistant", content: `calculator({"expression": "` + tt.expr + `"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.expr)
	}
}

// TestCodeOfHeldNumbers: code a team's analyst gives its python tool,
// whose numbers another agent or a tool stated (a digit or a power of
// ten being the code's own), was worked out from them; code with a
// number no step states was not. Shape: a supervisor with a researcher
// (web_search) and an analyst (python), in OpenAI chat with tool calls.
func TestCodeOfHeldNumbers(t *testing.T) {
	for _, tt := range []struct {
		code string
		want []int
	}{
		{"print(1889 - 1886)", nil},
		{"print(round((1889-1886)/1886*100, 2))", nil},
		{"print(1889 - 1884)", []int{6}},
		{"math.floor(1889 - 1884)", []int{6}},
	} {
		q := "How many years before the opening of the Eiffel Tower was the Statue of Liberty dedicated?"
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "researcher", content: `web_search({"query": "Statue of Liberty dedication year"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "The Statue of Liberty was dedicated on October 28, 1886.", kind: run.KindToolResult},
			msg{agent: "researcher", content: `web_search({"query": "Eiffel Tower opening year"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "The Eiffel Tower opened on 31 March 1889.", kind: run.KindToolResult},
			msg{agent: "supervisor", content: "analyst: compute the difference between the two years."},
			msg{agent: "analyst", content: `python({"code": "` + tt.code + `"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.code)
	}
}

// TestSearchYearsAreQuestions: a search that adds a year to its query
// where the task names none asks for the latest figure, and states no
// value; one whose year differs from the year the task names put a
// value of its own forward, which the answer builds on. Shape: a
// search assistant in OpenAI chat with tool calls.
func TestSearchYearsAreQuestions(t *testing.T) {
	for _, tt := range []struct {
		ask, query string
		want       []int
	}{
		{"What is the population of Oslo?", "Oslo population 2024", nil},
		{"What was the population of Oslo in 2022?", "Oslo population 2024", []int{1}},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `search({"q": "` + tt.query + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Oslo municipality population (2024): 717,710.", kind: run.KindToolResult},
			msg{agent: "assistant", content: "Oslo had 717,710 inhabitants in 2024."},
		)
		assert.Equal(t, tt.want, steps(UnsupportedClaim.Run(in), true), tt.ask)
	}
}

// TestSwitchToANamedFlight: a customer who names the flight they are
// on and the one to move to named both records of the listing; a call
// that takes up the second acts on a record the customer named. One who
// names only the first did not name the call's. Shape: tau-bench's
// airline domain, in OpenAI chat with tool calls, with flights written
// as a carrier's designator.
func TestSwitchToANamedFlight(t *testing.T) {
	for _, tt := range []struct {
		ask  string
		want []int
	}{
		{"I'm booked on LH 1792 from FRA to LIS on 14 May 2025, reservation QX7R2P. Please move me to TP 555 the same day.", nil},
		{"I'm booked on LH 1792 from FRA to LIS on 14 May 2025, reservation QX7R2P. Please move me to a later flight the same day.", []int{3}},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `search_direct_flight({"origin": "FRA", "destination": "LIS", "date": "2025-05-14"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `[{"flight": "LH 1792", "departs": "07:05"}, {"flight": "TP 555", "departs": "13:40"}]`, kind: run.KindToolResult},
			msg{agent: "assistant", content: `update_reservation_flights({"reservation_id": "QX7R2P", "flight": "TP 555", "date": "2025-05-14"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"reservation_id": "QX7R2P", "flight": "TP 555", "status": "updated"}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: "Done: you are now on TP 555 on 14 May 2025."},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.ask)
	}
}

// TestUnitFactorIsNoOnesFigure: without the correct answer, a planner
// that states the defined factor between two units (a mile's 1.609344
// km) hands the code no figure of its own: code that multiplies where it
// should divide is the coder's fault. A factor no unit defines (a mile
// "is 1.5 km") is the planner's, and so is the factor of a unit the run
// does not convert (a nautical mile's 1.852 km given for a mile). Shape:
// a Who&When group chat of experts with a code-running terminal.
func TestUnitFactorIsNoOnesFigure(t *testing.T) {
	miles := "A runner completed a 42.195 km marathon. How many miles is that, rounded to two decimals?"
	nautical := "A ship sailed 42.195 km. How many nautical miles is that, rounded to two decimals?"
	for _, tt := range []struct {
		q, factor, result string
		want              []int
	}{
		{miles, "1.609344", "67.91", []int{2}},
		{miles, "1.5", "63.29", []int{1}},
		{miles, "1.852", "78.14", []int{1}},
		{nautical, "1.852", "78.14", []int{2}},
	} {
		in := prepare(t, tt.q, "",
			msg{agent: "user", content: tt.q, kind: run.KindUser},
			msg{agent: "Marathon_Expert", content: "One mile is " + tt.factor + " km, so we divide the distance by " + tt.factor + ". Let me have the converter run it."},
			msg{agent: "Conversion_Expert", content: "```python\nkm = 42.195\nmiles = km * " + tt.factor + "\nprint(round(miles, 2))\n```"},
			msg{agent: "Computer_terminal", content: "exitcode: 0 (execution succeeded)\nCode output: " + tt.result + "\n"},
			msg{agent: "Conversion_Expert", content: "The distance is " + tt.result + " miles."},
			msg{agent: "Verification_Expert", content: "I agree: " + tt.result + " miles. TERMINATE"},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.q+" "+tt.factor)
	}
}

// TestTaggedYearIsGiven: a year the user tagged as a fiscal year
// ("FY2024"), which a call's field then writes alone, was given, as was
// the same year a statement tells; a year no one named is still made up.
// Shape: an OpenAI chat with tool calls of a bookkeeping assistant.
func TestTaggedYearIsGiven(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want []int
	}{
		{"How much did we spend on travel in FY2024?", nil},
		{"How much did we spend on travel this fiscal year?", []int{1}},
		{"How much did we spend on travel in FY2023 and 1920x2024?", []int{1}},
	} {
		in := prepare(t, tt.q, "",
			msg{agent: "user", content: tt.q, kind: run.KindUser},
			msg{agent: "assistant", content: `sum_expenses({"category": "travel", "fiscal_year": 2024})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"category": "travel", "fiscal_year": 2024, "total": 18420.5}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: "Travel spend was $18,420.50 in 2024."},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), "arguments: "+tt.q)
		assert.Equal(t, tt.want, steps(UnsupportedClaim.Run(in), true), "claims: "+tt.q)
	}
}

// TestLookupEchoesItsArgument: a code a worker built for a lookup, which
// the lookup's result writes again, named a record the tool found; one
// the result does not write, or that a call which changes something was
// given, is still unsupported. Shape: the OpenAI Agents SDK's triage
// agent handing off to an inventory agent, in OpenAI chat with tool
// calls and a name per agent.
func TestLookupEchoesItsArgument(t *testing.T) {
	q := "Do you have the TrailRunner 2 shoe in size 43 in stock anywhere? How many?"
	for _, tt := range []struct {
		call, result string
		want         []int
	}{
		{`check_stock({"sku": "TR2-43"})`, `{"sku": "TR2-43", "warehouses": [{"name": "Berlin", "quantity": 0}, {"name": "Hamburg", "quantity": 12}]}`, nil},
		{`check_stock({"sku": "TR2-43"})`, `{"warehouses": [{"name": "Berlin", "quantity": 0}, {"name": "Hamburg", "quantity": 12}]}`, []int{3}},
		{`reserve_stock({"sku": "TR2-43"})`, `{"sku": "TR2-43", "reserved": 1}`, []int{3}},
		// A result that writes the key back with nothing found under it
		// (a search API's echo of its query, a record marked not found)
		// found no record.
		{`check_stock({"sku": "TR2-43"})`, `{"query": {"sku": "TR2-43"}, "results": [], "total": 0}`, []int{3}},
		{`check_stock({"sku": "TR2-43"})`, `{"sku": "TR2-43", "found": false, "warehouses": null}`, []int{3}},
		{`check_stock({"sku": "TR2-43"})`, `{"error": "No product with sku TR2-43"}`, []int{3}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "triage_agent", content: `transfer_to_inventory_agent({})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"assistant": "inventory_agent"}`, kind: run.KindToolResult},
			msg{agent: "inventory_agent", content: tt.call, kind: run.KindToolCall},
			msg{agent: "tool", content: tt.result, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.call+" "+tt.result)
	}
}

// TestReplyOfGivenValuesPutsItsWordsForward: a tool-using worker's reply
// to the user that states only the values the task gave beside a small
// count puts its words forward against the correct answer; one that
// states the correct count does not. Shape: the OpenAI Agents SDK's
// triage agent handing off to an inventory agent, in OpenAI chat with
// tool calls and a name per agent.
func TestReplyOfGivenValuesPutsItsWordsForward(t *testing.T) {
	q := "How many pairs of the Alpine Hiker boot in size 42 do you have in total?"
	for _, tt := range []struct {
		reply string
		want  []int
	}{
		{"We have 9 pairs of the Alpine Hiker in size 42 in total.", []int{5}},
		{"We have 17 pairs of the Alpine Hiker in size 42 in total.", nil},
	} {
		in := prepare(t, q, "17",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "triage_agent", content: `transfer_to_inventory_agent({})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"assistant": "inventory_agent"}`, kind: run.KindToolResult},
			msg{agent: "inventory_agent", content: `check_stock({"product": "Alpine Hiker", "size": 42})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"product": "Alpine Hiker", "size": 42, "warehouses": [{"name": "Lyon", "quantity": 9}, {"name": "Lille", "quantity": 8}]}`, kind: run.KindToolResult},
			msg{agent: "inventory_agent", content: tt.reply},
		)
		assert.Equal(t, tt.want, steps(GroundTruthContradiction.Run(in), true), tt.reply)
	}
}

// TestPrefixedIDsNameRecords: a worker that refunds a charge other than
// the one another worker named, of the same listing, acts on another
// record, with ids as payment APIs write them ("ch_7782"); one that
// refunds the charge named does not. Shape: a supervisor with a billing
// researcher (get_orders) and a support agent (refund_charge), as an
// OpenInference trace reads.
func TestPrefixedIDsNameRecords(t *testing.T) {
	q := "I was charged twice for my last order (customer number C-40112). Please refund the duplicate charge."
	for _, tt := range []struct {
		charge string
		want   []int
	}{
		{"ch_7790", []int{6}},
		{"ch_7782", nil},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "billing_researcher: find the customer's last order and its charges."},
			msg{agent: "billing_researcher", content: `get_orders({"customer_id": "C-40112", "limit": 2})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `[{"order_id": "ORD-58213", "charges": [{"charge_id": "ch_7781", "amount": 64.0}, {"charge_id": "ch_7782", "amount": 64.0}]}, {"order_id": "ORD-58231", "charges": [{"charge_id": "ch_7790", "amount": 12.5}]}]`, kind: run.KindToolResult},
			msg{agent: "billing_researcher", content: "The last order is ORD-58213, charged twice: ch_7781 and ch_7782, 64.00 each. Refund ch_7782."},
			msg{agent: "supervisor", content: "support_agent: refund the duplicate charge the researcher named."},
			msg{agent: "support_agent", content: `refund_charge({"charge_id": "` + tt.charge + `"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.charge)
	}
}

// TestCodeWithAMisreadYear: without the correct answer, an analyst's
// code that subtracts the years a researcher reported, one of them
// misread from its search (1884 or 1876 where the page says 1886),
// reports a difference its code printed ("13") or it wrote with its unit
// ("5 years"): the misread year is where it went wrong. When the researcher reports the
// page's year, the figure it states came from a tool and the code's
// result is the analyst's own. Shape: a supervisor with a researcher
// (web_search) and an analyst (python), in OpenAI chat with tool calls
// and a name per agent.
func TestCodeWithAMisreadYear(t *testing.T) {
	q := "How many years before the opening of the Eiffel Tower was the Statue of Liberty dedicated?"
	for _, tt := range []struct {
		year, diff string
		want       []int
	}{
		{"1884", "5", []int{4}},
		{"1876", "13", []int{4}},
		{"1886", "3", []int{8}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "researcher: find the year the Statue of Liberty was dedicated and the year the Eiffel Tower opened."},
			msg{agent: "researcher", content: `web_search({"query": "Statue of Liberty dedication and Eiffel Tower opening"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "The Statue of Liberty was dedicated in 1886. The Eiffel Tower opened to the public in 1889.", kind: run.KindToolResult},
			msg{agent: "researcher", content: "The Statue of Liberty was dedicated in " + tt.year + " and the Eiffel Tower opened in 1889."},
			msg{agent: "supervisor", content: "analyst: compute the difference between the two years."},
			msg{agent: "analyst", content: `python({"code": "print(1889 - ` + tt.year + `)"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: tt.diff, kind: run.KindToolResult},
			msg{agent: "analyst", content: "The Statue of Liberty was dedicated " + tt.diff + " years before the Eiffel Tower opened."},
			msg{agent: "supervisor", content: tt.diff + " years."},
		)
		// The call as a transcript's tool_calls carry it, beside its text.
		r := in.Run
		r.Steps[6].Extra.ToolCalls = []run.ToolCall{{Name: "python", Arguments: `{"code": "print(1889 - ` + tt.year + `)"}`}}
		f := extract.Run(r)
		g, err := graph.Build(r, f)
		require.NoError(t, err)
		in = &Input{Run: r, Features: f, Graph: g}
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.year)
	}
}

// TestCodeWithFiguresInMillions: an analyst's code that computes with
// the figures a researcher reported in millions, written without their
// scale ("$2,310 million" as 2310), uses what it read; a figure with its
// digits transposed (2130) is its own. Shape: a researcher (web_search)
// and an analyst (python) under a supervisor, in OpenAI chat with tool
// calls and a name per agent.
func TestCodeWithFiguresInMillions(t *testing.T) {
	q := "What was Northwind's operating margin in fiscal 2025? Use its annual report."
	for _, tt := range []struct {
		code string
		want []int
	}{
		{"print(round(543/2310*100, 1))", nil},
		{"print(round(543/2130*100, 1))", []int{6}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "researcher: find Northwind's operating income and revenue for fiscal 2025."},
			msg{agent: "researcher", content: `web_search({"query": "Northwind annual report fiscal 2025"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Northwind Annual Report 2025: revenue of $2,310 million and operating income of $543 million for the fiscal year.", kind: run.KindToolResult},
			msg{agent: "researcher", content: "Fiscal 2025: revenue $2,310 million, operating income $543 million."},
			msg{agent: "supervisor", content: "analyst: compute the operating margin in percent."},
			msg{agent: "analyst", content: `python({"code": "` + tt.code + `"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.code)
	}
}

// TestAnswerReplacesAFigure: without the correct answer, a writer that
// turns the analyst's 14.2% into 12.4% beside the revenues the
// researcher's search gave is where the answer went wrong: the revenues
// are what the growth was worked out from, not a second origin. When the
// writer keeps 14.2%, its figures came from the tools as before (the
// growth from the analyst's code, which printed it bare). Shape: a
// supervisor with a researcher (web_search), an analyst (python) and a
// writer with no tools, in OpenAI chat with tool calls and a name per
// agent.
func TestAnswerReplacesAFigure(t *testing.T) {
	q := "By what percentage did ACME's revenue grow from 2023 to 2024? Use the 10-K figures."
	for _, tt := range []struct {
		growth string
		want   []int
	}{
		{"12.4%", []int{10}},
		{"14.2%", []int{6, 2}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "researcher: find ACME's total revenue for 2023 and 2024 in its 10-K."},
			msg{agent: "researcher", content: `web_search({"query": "ACME 10-K 2024 total revenue"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "ACME Corp Form 10-K (2024): Total revenue was $4,820 million in 2024 compared with $4,221 million in 2023.", kind: run.KindToolResult},
			msg{agent: "researcher", content: "ACME's revenue was $4,221 million in 2023 and $4,820 million in 2024."},
			msg{agent: "supervisor", content: "analyst: compute the growth from 4221 to 4820 in percent."},
			msg{agent: "analyst", content: `python({"code": "print(round((4820-4221)/4221*100, 1))"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "14.2", kind: run.KindToolResult},
			msg{agent: "analyst", content: "Revenue grew 14.2% from 2023 to 2024."},
			msg{agent: "supervisor", content: "writer: write the answer for the user."},
			msg{agent: "writer", content: "ACME's revenue grew " + tt.growth + " from 2023 ($4,221 million) to 2024 ($4,820 million)."},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.growth)
	}
}

// TestAnswerSlipsABareFigure: a writer that writes the researcher's
// 1,284 beds as 1,824 put its own figure in the answer; the dates and
// counts beside it, which the other agents gave, are what it is about, and
// the writer's step is the one origin left. A figure copied right leaves
// the earlier origins as they were. Shape: a lead with a researcher
// (web_search) and a writer with no tools, in OpenAI chat with tool calls
// and a name per agent.
func TestAnswerSlipsABareFigure(t *testing.T) {
	q := "How many beds does the new hospital wing add, and when does it open?"
	for _, tt := range []struct {
		beds string
		want []int
	}{
		{"1,824", []int{6}},
		{"1,284", []int{2}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "lead", content: "researcher: find the bed count and opening date of the new wing."},
			msg{agent: "researcher", content: `web_search({"query": "new hospital wing beds opening"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Press release: the new wing adds 1,284 beds and opens on 1 September 2026.", kind: run.KindToolResult},
			msg{agent: "researcher", content: "The new wing adds 1,284 beds and opens on 1 September 2026."},
			msg{agent: "lead", content: "writer: one sentence for the user: 1,284 beds, opening 1 September 2026."},
			msg{agent: "writer", content: "The new wing adds " + tt.beds + " beds when it opens on 1 September 2026."},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.beds)
	}
}

// TestWriterSlipsAHandedFigure: a writer of a team, calling no tool
// itself, that writes the 2,415 attendees it was handed as 2,145 tells a
// value no one gave; copied right, it tells nothing of its own. Shape: an
// editor with a researcher (search_events_db) and a writer with no tools,
// in OpenAI chat with tool calls and a name per agent.
func TestWriterSlipsAHandedFigure(t *testing.T) {
	q := "Write a one-sentence press note on how many people attended this year's summit."
	for _, tt := range []struct {
		attendees string
		want      []int
	}{
		{"2,145", []int{6}},
		{"2,415", nil},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "editor", content: "researcher: find this year's attendance of the summit."},
			msg{agent: "researcher", content: `search_events_db({"event": "summit", "year": 2026})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"year": 2026, "attendees": 2415}`, kind: run.KindToolResult},
			msg{agent: "researcher", content: "The summit had 2,415 attendees this year."},
			msg{agent: "editor", content: "writer: one sentence: 2,415 attendees this year."},
			msg{agent: "writer", content: "This year's summit welcomed " + tt.attendees + " attendees."},
		)
		assert.Equal(t, tt.want, steps(UnsupportedAnswer.Run(in), true), tt.attendees)
	}
}

// TestWriterSlipsAFigureItGivesAUnit: a writer handed "7,845 m" that
// writes "7,485 metres" slipped the figure's digits, though it spells the
// unit out where the researcher's "m" was read without one (an "m" may
// be a million), and put its own figure in the answer, its one origin;
// copied right, it tells nothing of its own, and the figure and the year
// come from where they did. Shape: a
// researcher with a lookup and a writer with no tools, in Semantic
// Kernel's group chat.
func TestWriterSlipsAFigureItGivesAUnit(t *testing.T) {
	q := "Write a fact box on the bridge: its length in metres and the year it opened."
	for _, tt := range []struct {
		length       string
		want, origin []int
	}{
		{"7,485 metres", []int{4}, []int{4}},
		{"7,845 metres", nil, []int{4, 1}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "Researcher", content: `Encyclopedia-Lookup({"topic": "bridge"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Total length: 7,845 m. Main span: 490 m. It opened to traffic on 1 July 2000.", kind: run.KindToolResult},
			msg{agent: "Researcher", content: "Research notes: the bridge is 7,845 m long (main span 490 m) and opened on 1 July 2000."},
			msg{agent: "Writer", content: "The bridge stretches " + tt.length + " across the strait. It opened in 2000."},
		)
		assert.Equal(t, tt.want, steps(UnsupportedAnswer.Run(in), true), tt.length)
		assert.Equal(t, tt.origin, steps(DataFlowOrigin.Run(in), true), tt.length)
	}
}

// TestReportMisreadsOwnOutput: a payroll agent that reports its tool's
// net pay 3615.40 as 3,651.40, beside the pension the same output gave,
// misread the output: its report is the origin, and the pension it read
// right is no second one. Reported right, the net and the pension both
// come from the call. Shape: a supervisor with a payroll agent
// (get_payslip) and a writer with no tools, in OpenAI chat with tool
// calls and a name per agent.
func TestReportMisreadsOwnOutput(t *testing.T) {
	q := "What will Priya's net pay for November be after the pension contribution? Draft a short reply to her."
	for _, tt := range []struct {
		net  string
		want []int
	}{
		{"3,651.40", []int{4}},
		{"3,615.40", []int{2}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "payroll_agent: net pay for employee E-20417 for November, with the pension."},
			msg{agent: "payroll_agent", content: `get_payslip({"employee_id": "E-20417", "period": "2026-11"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"gross": 5240.00, "pension": 262.00, "income_tax": 938.60, "net": 3615.40}`, kind: run.KindToolResult},
			msg{agent: "payroll_agent", content: "Net pay " + tt.net + " after the pension of 262.00."},
			msg{agent: "supervisor", content: "writer: a short reply to Priya with her net pay."},
			msg{agent: "writer", content: "Your net pay for November will be " + tt.net + " after the pension of 262.00."},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.net)
	}
}

// TestRefundsAnotherOrdersCharge: a billing agent that refunds a charge
// of another order than the one the customer named acts on another record
// of the listing: the charges are told apart by their own ids and by
// their orders', and the customer named the order. Refunding one of the
// named order's two charges is no suspect. Shape: a support agent
// delegating to a billing agent (list_charges, refund_charge), in OpenAI
// chat with tool calls and a name per agent.
func TestRefundsAnotherOrdersCharge(t *testing.T) {
	q := "I was charged twice for order #A-55120 ($38.50 both times). Please refund the duplicate."
	listing := `{"charges": [{"id": "ch_3PqL81", "amount": 38.50, "order": "A-55120"}, {"id": "ch_3PqL9c", "amount": 38.50, "order": "A-55120"}, {"id": "ch_3PzT02", "amount": 38.50, "order": "A-55873"}]}`
	for _, tt := range []struct {
		charge string
		want   []int
	}{
		{"ch_3PzT02", []int{5}},
		{"ch_3PqL9c", nil},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "support_agent", content: "billing_agent: customer cus_Q81xk, refund the duplicate $38.50 charge of their order."},
			msg{agent: "billing_agent", content: `list_charges({"customer_id": "cus_Q81xk"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: listing, kind: run.KindToolResult},
			msg{agent: "billing_agent", content: "I found the charges; refunding the duplicate."},
			msg{agent: "billing_agent", content: `refund_charge({"charge_id": "` + tt.charge + `", "amount": 38.50})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.charge)
	}
}

// TestRefundedLineOfAnotherOrder: the amount a returns agent reports
// came through its refund of a line of another order than the one the
// customer named (the listing tells lines apart by their ids and their
// orders'): the refund call took up another record and is the origin, not
// the listing's call. Refunding the named order's line leaves the listing
// as the origin. Shape: a supervisor routing to a returns agent
// (list_order_lines, refund_line), in OpenAI chat with tool calls and a
// name per agent.
func TestRefundedLineOfAnotherOrder(t *testing.T) {
	q := "Order #W-30317 arrived with a cracked phone case. Please refund it."
	listing := `{"lines": [{"line_id": "ln_8841", "order_id": "W-30317", "item": "phone case", "price": 19.99}, {"line_id": "ln_8842", "order_id": "W-30317", "item": "screen protector", "price": 9.99}, {"line_id": "ln_9107", "order_id": "W-30452", "item": "phone case", "price": 19.99}]}`
	for _, tt := range []struct {
		line string
		want []int
	}{
		{"ln_9107", []int{4}},
		{"ln_8841", []int{2}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "returns_agent: customer cust_5521, refund the cracked phone case of their order."},
			msg{agent: "returns_agent", content: `list_order_lines({"customer_id": "cust_5521"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: listing, kind: run.KindToolResult},
			msg{agent: "returns_agent", content: `refund_line({"line_id": "` + tt.line + `", "reason": "damaged"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"line_id": "` + tt.line + `", "amount": 19.99, "status": "processed"}`, kind: run.KindToolResult},
			msg{agent: "returns_agent", content: "Refunded $19.99 for the phone case."},
			msg{agent: "supervisor", content: "Sorry about the cracked case: $19.99 has been refunded to your card."},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.line)
	}
}

// TestBookedAnotherListedFlight: a booker that books another flight of
// the search's listing than the one the researcher named took up another
// record: the flight and the price that reach the answer came through its
// call, not the search. Booked as named, the call is no suspect. Shape: a
// supervisor with a flight researcher (search_flights) and a booker
// (book_flight), in OpenAI chat with tool calls and a name per agent.
func TestBookedAnotherListedFlight(t *testing.T) {
	q := "Book me the cheapest direct flight from Munich to Lisbon on 14 March 2026 and tell me the flight number and price."
	listing := `[{"flight": "TP 555", "price_eur": 212}, {"flight": "LH 1792", "price_eur": 189}, {"flight": "TP 557", "price_eur": 244}]`
	for _, tt := range []struct {
		booked, price   string
		origin, cleared int
		args            []int
	}{
		{"TP 555", "212", 6, 2, []int{6}},
		{"LH 1792", "189", 2, 6, nil},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "flight_researcher: find the direct flights MUC to LIS on 2026-03-14 and name the cheapest."},
			msg{agent: "flight_researcher", content: `search_flights({"origin": "MUC", "destination": "LIS", "date": "2026-03-14"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: listing, kind: run.KindToolResult},
			msg{agent: "flight_researcher", content: "The cheapest direct flight is LH 1792 for 189 EUR."},
			msg{agent: "supervisor", content: "booker: book the flight the researcher found."},
			msg{agent: "booker", content: `book_flight({"flight": "` + tt.booked + `", "date": "2026-03-14"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"status": "confirmed", "booking_ref": "QX7P2K", "flight": "` + tt.booked + `", "price_eur": ` + tt.price + `}`, kind: run.KindToolResult},
			msg{agent: "supervisor", content: "Your flight is booked: " + tt.booked + ", reference QX7P2K, " + tt.price + " EUR."},
		)
		origins := steps(DataFlowOrigin.Run(in), true)
		assert.Contains(t, origins, tt.origin, tt.booked)
		assert.NotContains(t, origins, tt.cleared, tt.booked)
		assert.Equal(t, tt.args, stepsFor(UnsupportedArguments.Run(in), "another record"), tt.booked)
	}
}

// TestAnswerNamesARecordByCode: without the correct answer, an answer
// that names a record by its code at the start of a sentence ("Order
// A-10482 has been cancelled") is traced by the code to where it was
// first written: a handover that names another order than the task's, or
// the worker's own call on another one. Shape: a swarm whose agents hand
// over in their messages, in OpenAI chat with tool calls and a name per
// agent.
func TestAnswerNamesARecordByCode(t *testing.T) {
	q := "Please cancel my order A-10428, I ordered the wrong size."
	for _, tt := range []struct {
		name, handed, cancelled string
		want                    []int
	}{
		{"handover names another order", "A-10482", "A-10482", []int{3}},
		{"call on another order", "A-10428", "A-10482", []int{4}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "sales_agent", content: `lookup_order({"order_id": "A-10428"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"order_id": "A-10428", "status": "processing"}`, kind: run.KindToolResult},
			msg{agent: "sales_agent", content: "Order A-10428 is still processing, so it can be cancelled. Handing over to support_agent to cancel order " + tt.handed + "."},
			msg{agent: "support_agent", content: `cancel_order({"order_id": "` + tt.cancelled + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"order_id": "` + tt.cancelled + `", "status": "cancelled"}`, kind: run.KindToolResult},
			msg{agent: "support_agent", content: "Order " + tt.cancelled + " has been cancelled."},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// TestCallWithAnAlteredFigure: a supervisor's instruction that hands a
// worker another year or date than the task's, which the worker's query
// executes as handed, is where the answer's count went wrong; a worker
// that alters the figure itself in its query, under a right instruction,
// is. Shape: a LangGraph supervisor routing to an analyst with run_sql,
// in OpenAI chat with tool calls and a name per agent.
func TestCallWithAnAlteredFigure(t *testing.T) {
	for _, tt := range []struct {
		name, task, said, where string
		want                    []int
	}{
		{"instruction alters the year", "in 2024", "in 2023", "opened_at >= '2023-01-01' AND opened_at < '2024-01-01'", []int{1}},
		{"query alters the year", "in 2024", "in 2024", "opened_at >= '2023-01-01' AND opened_at < '2024-01-01'", []int{2}},
		{"instruction alters the date", "on 11 March 2026", "on 2026-03-10", "opened_at::date = '2026-03-10'", []int{1}},
		{"query alters the date", "on 11 March 2026", "on 2026-03-11", "opened_at::date = '2026-03-10'", []int{2}},
		{"instruction alters the month's year", "in March 2025", "in March 2024", "opened_at >= '2024-03-01' AND opened_at < '2024-04-01'", []int{1}},
		{"query alters the month's year", "in March 2025", "in March 2025", "opened_at >= '2024-03-01' AND opened_at < '2024-04-01'", []int{2}},
	} {
		q := "How many support tickets were opened " + tt.task + " for the product 'Orbit'?"
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "analyst: count the support tickets opened " + tt.said + " for product 'Orbit'."},
			msg{agent: "analyst", content: `run_sql({"query": "SELECT COUNT(*) AS n FROM tickets WHERE product='Orbit' AND ` + tt.where + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `[{"n": 412}]`, kind: run.KindToolResult},
			msg{agent: "analyst", content: "412 tickets were opened for Orbit in that period."},
			msg{agent: "supervisor", content: "writer: state the count."},
			msg{agent: "writer", content: "412 support tickets were opened for Orbit."},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// TestAnswerFigureBesideToolNames: without the correct answer, a
// writer's notice that changes the date the researcher gave, beside a
// place name the researcher's search brought in, is where the date went
// wrong: the name is what the notice is about, not a second origin.
// When the notice keeps the date, both came from the researcher's search. Shape: a
// supervisor with a researcher (web_search) and a writer with no tools,
// in OpenAI chat with tool calls and a name per agent.
func TestAnswerFigureBesideToolNames(t *testing.T) {
	q := "When does the new Munich U-Bahn line U5 extension open? Write a one-line notice for commuters."
	for _, tt := range []struct {
		date string
		want []int
	}{
		{"16 June 2026", []int{6}},
		{"14 June 2026", []int{2}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "researcher: find the opening date of the U5 extension in Munich."},
			msg{agent: "researcher", content: `web_search({"query": "Munich U5 extension opening date"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "MVG press release: the U5 extension to Freiham opens to passengers on 14 June 2026.", kind: run.KindToolResult},
			msg{agent: "researcher", content: "The U5 extension opens on 14 June 2026."},
			msg{agent: "supervisor", content: "writer: write the commuter notice."},
			msg{agent: "writer", content: "Notice: the U5 extension to Freiham opens to passengers on " + tt.date + "."},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.date)
	}
}

// TestDroppedAfterARelay: a worker that reports the value its own tool
// gave passed on what it found; when another worker then reaches the
// correct value and the supervisor answers with the first one, the
// supervisor dropped it. A report that misread its tool stays the origin
// of the wrong answer. Shape: a
// supervisor with a researcher (a wiki search) and an analyst (SQL), in
// OpenAI chat with tool calls and a name per agent.
func TestDroppedAfterARelay(t *testing.T) {
	q := "How many active subscribers did we have at the end of January 2026?"
	for _, tt := range []struct {
		name, wiki string
		want       []int
	}{
		{"the report relays its tool", "17,450 active subscribers as of 30 September 2025", []int{8}},
		{"the report misreads its tool", "16,200 active subscribers as of 30 September 2025", []int{4}},
	} {
		in := prepare(t, q, "18,930",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "researcher: check the wiki for the subscriber count. analyst: count active subscriptions at 2026-01-31."},
			msg{agent: "researcher", content: `search_wiki({"query": "active subscribers"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Metrics page (last edited 2025-10-02): " + tt.wiki + ".", kind: run.KindToolResult},
			msg{agent: "researcher", content: "The wiki says 17,450 active subscribers, as of 30 September 2025."},
			msg{agent: "analyst", content: `run_sql({"query": "SELECT COUNT(*) FROM subscriptions WHERE status='active'"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "count\n-----\n18930\n(1 row)", kind: run.KindToolResult},
			msg{agent: "analyst", content: "There were 18,930 active subscriptions on 31 January 2026."},
			msg{agent: "supervisor", content: "We had 17,450 active subscribers at the end of January 2026."},
		)
		assert.Equal(t, tt.want, steps(GroundTruthContradiction.Run(in), true), tt.name)
	}
}

// TestDataFlowOriginOfASumWithTheTruth: with the correct answer, an
// answer that states a sum it worked out wrong beside the two figures its
// searches returned is where the wrong value was made; the searches that
// brought its right inputs are not. Shape: a search assistant in OpenAI
// chat with parallel tool calls.
func TestDataFlowOriginOfASumWithTheTruth(t *testing.T) {
	in := prepare(t, "What is the combined population of Oslo and Bergen?", "1,009,650",
		msg{agent: "user", content: "What is the combined population of Oslo and Bergen?", kind: run.KindUser},
		msg{agent: "assistant", content: "search({\"q\": \"Oslo population\"})\nsearch({\"q\": \"Bergen population\"})", kind: run.KindToolCall},
		msg{agent: "tool", content: "Oslo municipality population (2024): 717,710.", kind: run.KindToolResult},
		msg{agent: "tool", content: "Bergen municipality population (2024): 291,940.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "Oslo (717,710) and Bergen (291,940) have a combined population of 1,019,650."},
	)
	assert.Equal(t, []int{4}, steps(DataFlowOrigin.Run(in), true))
}

// TestUnsupportedAnswerTakenBack: an assistant whose closing answer tells
// the value the user offered in doubt, in place of the one its tool
// found and it had told, took back its answer; one that searches again
// before it answers, or that tells its tool's value beside the user's,
// did not. Shape: a search assistant in OpenAI chat with tool calls.
func TestUnsupportedAnswerTakenBack(t *testing.T) {
	opening := []msg{
		{agent: "user", content: "What is the boiling point of ethanol?", kind: run.KindUser},
		{agent: "assistant", content: `web_search({"query": "ethanol boiling point"})`, kind: run.KindToolCall},
		{agent: "tool", content: "Ethanol: boiling point 78.37 °C at 1 atm; melting point -114.1 °C.", kind: run.KindToolResult},
		{agent: "assistant", content: "Ethanol boils at 78.37 °C."},
		{agent: "user", content: "Are you sure? My textbook says 82.5 °C.", kind: run.KindUser},
	}
	for _, tt := range []struct {
		name string
		rest []msg
		want []int
	}{
		{"the user's value", []msg{{agent: "assistant", content: "You're right, I apologize: ethanol boils at 82.5 °C."}}, []int{5}},
		{"searched again", []msg{
			{agent: "assistant", content: `web_search({"query": "ethanol boiling point 82.5"})`, kind: run.KindToolCall},
			{agent: "tool", content: "82.5 °C is the boiling point of isopropanol.", kind: run.KindToolResult},
			{agent: "assistant", content: "Ethanol boils at 82.5 °C."},
		}, nil},
		{"both told", []msg{{agent: "assistant", content: "Yes: 82.5 °C is isopropanol's; ethanol boils at 78.37 °C."}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "What is the boiling point of ethanol?", "", append(slices.Clone(opening), tt.rest...)...)
			assert.Equal(t, tt.want, steps(UnsupportedAnswer.Run(in), true))
		})
	}
}

// TestUnsupportedArgumentsOfCommands: a coding agent's shell and editor
// are given commands, which say what the call does, and files by paths
// the listings before them print from another directory; neither is a
// made-up value. Shapes: SWE-agent's str_replace_editor, Codex CLI's
// exec_command.
func TestUnsupportedArgumentsOfCommands(t *testing.T) {
	in := prepare(t, "parse_duration('1h30m') returns 3630 instead of 5400", "",
		msg{agent: "user", content: "parse_duration('1h30m') returns 3630 instead of 5400", kind: run.KindUser},
		msg{agent: "assistant", content: `bash({"command": "grep -rn 'def parse_duration' ."})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "./durations/parser.py:8:def parse_duration(text: str) -> int:", kind: run.KindToolResult},
		msg{agent: "assistant", content: `str_replace_editor({"command": "view", "path": "/repo/durations/parser.py"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "UNITS = {\"h\": 3600, \"m\": 1}", kind: run.KindToolResult},
		msg{agent: "assistant", content: `exec_command({"cmd": "cat -n /repo/durations/format.py"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "No such file", kind: run.KindToolResult},
		msg{agent: "assistant", content: `str_replace_editor({"command": "view", "path": "/repo/durations/units.py"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "No such file", kind: run.KindToolResult},
		msg{agent: "assistant", content: `Bash({"command": "ls tests", "description": "List test files"})`, kind: run.KindToolCall},
	)
	assert.Equal(t, []int{7}, steps(UnsupportedArguments.Run(in), true), "only the file no step named, not the words describing a command")
}

// TestCommandWordsNoArguments: a command given as a list of words, as
// Codex CLI's shell tool takes it (["bash", "-lc", "cat -n x.py"]), says
// what the call does: its words are no values the caller made up.
func TestCommandWordsNoArguments(t *testing.T) {
	in := prepare(t, "clamp(5, 0, 3) should return 3.", "",
		msg{agent: "user", content: "clamp(5, 0, 3) should return 3.", kind: run.KindUser},
		msg{agent: "assistant", content: `shell({"command": ["bash", "-lc", "cat -n mathx/clamp.py"]})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "1\tdef clamp(x, lo, hi):", kind: run.KindToolResult},
		msg{agent: "assistant", content: `shell({"command": ["sed", "-i", "s/min/max/", "mathx/clamp.py"]})`, kind: run.KindToolCall},
	)
	assert.Empty(t, steps(UnsupportedArguments.Run(in), true))
	assert.Equal(t, []string{"mathx/clamp.py"}, commandObjects(in.Features.Steps[3].Calls[0]))
}

// TestCommandObjects: the objects of a call given a command are the
// files extract reads its command line to name, and its other arguments
// of one word: not a sed script, the code an interpreter runs, or the
// text of a heredoc. Shapes: SWE-agent's bash and str_replace_editor.
func TestCommandObjects(t *testing.T) {
	for _, tc := range []struct {
		name, call string
		want       []string
	}{
		{"an edit in place", `bash({"command": "sed -i 's/a/b/' f.py"})`, []string{"f.py"}},
		{"code run by an interpreter", `bash({"command": "python3 -c \"from shop.orders import total; print(total({}))\""})`, nil},
		{"a file written from a heredoc", `bash({"command": "cat > x.py <<'EOF'\nimport os.path\nEOF"})`, []string{"x.py"}},
		{"an editor's path, not the text it puts in", `str_replace_editor({"command": "str_replace", "path": "/repo/a.py", "old_str": "x = 1", "new_str": "x = 2"})`, []string{"repo/a.py"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := prepare(t, "Fix it.", "", msg{agent: "assistant", content: tc.call, kind: run.KindToolCall})
			require.Len(t, in.Features.Steps[0].Calls, 1)
			assert.Equal(t, tc.want, commandObjects(in.Features.Steps[0].Calls[0]))
		})
	}
}

// TestStateOriginOfCommands: what a command acts on is the files it
// names, not the description a shell tool is given beside it (Claude
// Code's Bash: {"command", "description"}). An edit in place breaks the
// script that a later command runs; an install described as the failing
// command is ("Run the check") changed nothing it needed.
func TestStateOriginOfCommands(t *testing.T) {
	in := prepare(t, "Make the report script print totals.", "",
		msg{agent: "user", content: "Make the report script print totals.", kind: run.KindUser},
		msg{agent: "assistant", content: `Bash({"command": "sed -i 's/print(rows)/print(total(rows))/' /repo/tools/report.py", "description": "Run the check"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "", kind: run.KindToolResult},
		msg{agent: "assistant", content: `Bash({"command": "pip install sums", "description": "Run the check"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Successfully installed sums-1.0", kind: run.KindToolResult},
		msg{agent: "assistant", content: `Bash({"command": "python3 tools/report.py", "description": "Run the check"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "NameError: name 'total' is not defined\nExit code 1", kind: run.KindToolResult},
	)
	assert.Equal(t, []int{1}, steps(StateOrigin.Run(in), true))

	// Of two changes to the file a command then fails on, the later one
	// changed the state it met; a change to another file in between is
	// none of its business.
	edit := func(file string) msg {
		return msg{agent: "assistant", content: `Bash({"command": "sed -i 's/a/b/' /repo/` + file + `"})`, kind: run.KindToolCall}
	}
	in = prepare(t, "Fix the report.", "",
		msg{agent: "user", content: "Fix the report.", kind: run.KindUser},
		edit("tools/report.py"), msg{agent: "tool", content: "", kind: run.KindToolResult},
		edit("tools/other.py"), msg{agent: "tool", content: "", kind: run.KindToolResult},
		edit("tools/report.py"), msg{agent: "tool", content: "", kind: run.KindToolResult},
		edit("tools/other.py"), msg{agent: "tool", content: "", kind: run.KindToolResult},
		msg{agent: "assistant", content: `Bash({"command": "python3 tools/report.py > /repo/tools/report.py.out"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "NameError: name 'total' is not defined\nExit code 1", kind: run.KindToolResult},
	)
	assert.Equal(t, []int{5}, steps(StateOrigin.Run(in), true))
	assert.Equal(t, stateOriginByScan(in), stateOrigin(in))

	// A script run twice, failing the second time: running it changed
	// nothing of the script, and the change in between is what it met;
	// nor did the directory both runs go to first (cd /repo) change.
	repro := msg{agent: "assistant", content: `bash({"command": "python reproduce.py"})`, kind: run.KindToolCall}
	for _, line := range []string{"python reproduce.py", "cd /repo && python reproduce.py"} {
		repro := msg{agent: "assistant", content: `bash({"command": "` + line + `"})`, kind: run.KindToolCall}
		in = prepare(t, "Fix the report.", "",
			msg{agent: "user", content: "Fix the report.", kind: run.KindUser},
			repro, msg{agent: "tool", content: "Traceback (most recent call last):\nNameError: name 'total' is not defined", kind: run.KindToolResult},
			repro, msg{agent: "tool", content: "Traceback (most recent call last):\nNameError: name 'total' is not defined", kind: run.KindToolResult},
		)
		assert.Empty(t, steps(StateOrigin.Run(in), true), line)
	}

	// A reproduction written, then run and failing: writing the check
	// changed nothing it met.
	in = prepare(t, "Fix the report.", "",
		msg{agent: "user", content: "Fix the report.", kind: run.KindUser},
		msg{agent: "assistant", content: `str_replace_editor({"command": "create", "path": "reproduce.py", "file_text": "from report import total\nprint(total([]))"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "File created successfully at: /repo/reproduce.py", kind: run.KindToolResult},
		repro, msg{agent: "tool", content: "Traceback (most recent call last):\nNameError: name 'total' is not defined", kind: run.KindToolResult},
	)
	assert.Empty(t, steps(StateOrigin.Run(in), true))
	assert.Equal(t, stateOriginByScan(in), stateOrigin(in))
}

// TestDataFlowOriginGroundTruthInUnit: a ground truth given as a bare
// number ("78.37") is what a tool's table prints with its unit ("78.37
// °C"): the search had the right value, and the answer that took the
// figure beside it dropped it.
func TestDataFlowOriginGroundTruthInUnit(t *testing.T) {
	in := prepare(t, "What is the boiling point of ethanol in degrees Celsius?", "78.37",
		msg{agent: "user", content: "What is the boiling point of ethanol in degrees Celsius?", kind: run.KindUser},
		msg{agent: "assistant", content: `wiki_search({"query": "ethanol boiling point"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Properties of ethanol: Melting point -114.14 °C; Boiling point 78.37 °C; Flash point 14 °C.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "Ethanol boils at 14 °C."},
	)
	assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(in), true))
}

// TestDataFlowOriginGroundTruthWithCurrency: a ground truth given with
// its currency ("9.90 EUR") is what a tool's table or record prints bare
// under a column or key that names it: the lookup had the right value,
// and the reply that took another row's figure dropped it.
func TestDataFlowOriginGroundTruthWithCurrency(t *testing.T) {
	for _, out := range []string{
		"plan | monthly_eur\n-------+------------\nBasic | 9.90\nPlus | 14.90\nPro | 24.90\n(3 rows)",
		`[{"plan": "Basic", "monthly_eur": 9.90}, {"plan": "Plus", "monthly_eur": 14.90}]`,
	} {
		in := prepare(t, "What is the monthly price of our Basic plan?", "9.90 EUR",
			msg{agent: "user", content: "What is the monthly price of our Basic plan?", kind: run.KindUser},
			msg{agent: "supervisor", content: "analyst: look up the current monthly price of the Basic plan."},
			msg{agent: "analyst", content: `run_sql({"query": "SELECT plan, monthly_eur FROM price_list"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: out, kind: run.KindToolResult},
			msg{agent: "analyst", content: "The Basic plan costs 14.90 EUR a month."},
			msg{agent: "supervisor", content: "The Basic plan costs 14.90 EUR per month."},
		)
		assert.Equal(t, []int{4}, steps(DataFlowOrigin.Run(in), true), out)
	}
}

// TestDataFlowOriginHandedSubject: a supervisor that hands the search on
// about another city than the task's, which the researcher's call then
// looks up, put the wrong subject in; a city a tool's output named first
// (the capital the first search found) was found, not put in; a call
// that adds a figure of its own (a year) went wrong there. Shape: a
// LangGraph supervisor's chat transcript.
func TestDataFlowOriginHandedSubject(t *testing.T) {
	tests := []struct {
		name, question, gt, handoff, query, result, said, answer string
		want                                                     int
		handed                                                   bool // the reason says the subject was handed on
	}{
		{"another city handed on", "How many people live in Porto, according to the latest census?", "248,769",
			"researcher: find the population of Lisbon in the latest census.", "Lisbon population latest census",
			"Census 2021: the municipality of Lisbon had 545,796 residents.", "The 2021 census counted 545,796 residents.",
			"About 545,796 people live there, according to the 2021 census.", 1, true},
		// The supervisor names the city the task describes; the
		// researcher's call adds a census year of its own, and that is
		// where it went wrong.
		{"the task's city resolved, a year of the call's own", "How many people live in the city where the Eiffel Tower stands?", "2,102,650",
			"researcher: the Eiffel Tower is in Paris; find the current population of Paris.", "Paris population 1999 census",
			"At the 1999 census, the city of Paris had 2,125,246 inhabitants.", "Paris has a population of 2,125,246.",
			"About 2,125,246 people live there.", 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, tt.question, tt.gt,
				msg{agent: "user", content: tt.question, kind: run.KindUser},
				msg{agent: "supervisor", content: tt.handoff},
				msg{agent: "researcher", content: `web_search({"query": "` + tt.query + `"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: tt.result, kind: run.KindToolResult},
				msg{agent: "researcher", content: tt.said},
				msg{agent: "supervisor", content: tt.answer},
			)
			fs := DataFlowOrigin.Run(in)
			assert.Equal(t, []int{tt.want}, steps(fs, true))
			if tt.handed {
				require.NotEmpty(t, fs)
				assert.Contains(t, fs[0].Reason, "names a subject the task does not")
			}
		})
	}

	found := prepare(t, "How many people live in the capital of Portugal?", "",
		msg{agent: "user", content: "How many people live in the capital of Portugal?", kind: run.KindUser},
		msg{agent: "researcher", content: `web_search({"query": "capital of Portugal"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Lisbon is the capital and largest city of Portugal.", kind: run.KindToolResult},
		msg{agent: "supervisor", content: "researcher: find the population of Lisbon in the latest census."},
		msg{agent: "researcher", content: `web_search({"query": "Lisbon population latest census"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Census 2021: the municipality of Lisbon had 545,796 residents.", kind: run.KindToolResult},
		msg{agent: "supervisor", content: "About 545,796 people live there."},
	)
	assert.NotContains(t, steps(DataFlowOrigin.Run(found), true), 3)
}

// TestDataFlowOriginActingCall: a refunds agent that refunds the order's
// total, which its lookup printed beside the item's price, where the
// customer asked back the one item's 9.90 EUR, acted with another figure
// than the task's: the refund call is where, not the lookup. Refunding
// the item's price is no such call. Shape: the OpenAI Agents SDK's
// handoff to a refunds agent, as GenAI spans give its steps.
func TestDataFlowOriginActingCall(t *testing.T) {
	for _, tt := range []struct {
		amount string
		want   []int
	}{
		{"39.60", []int{3}},
		{"9.90", nil},
	} {
		q := "Order 88412 arrived with one broken mug. Please refund just that mug, 9.90 EUR."
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "refunds_agent", content: `get_order({"order_id":"88412"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"order_id": "88412", "items": [{"sku": "MUG-STONE", "qty": 4, "unit_price_eur": 9.90}], "total_eur": 39.60}`, kind: run.KindToolResult},
			msg{agent: "refunds_agent", content: `issue_refund({"amount":` + tt.amount + `,"currency":"EUR","order_id":"88412"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"refund_id": "rf_20931", "amount": ` + tt.amount + `, "status": "issued"}`, kind: run.KindToolResult},
			msg{agent: "refunds_agent", content: "I've issued a refund of " + tt.amount + " EUR for order 88412."},
		)
		assert.Equal(t, tt.want, stepsFor(DataFlowOrigin.Run(in), "in place of the task's own figure"), tt.amount)
	}
}

// TestDataFlowOriginUnitChanged: a supervisor that answers with the
// analyst's 3.2 hours as 3.2 minutes changed the unit, not the query that
// printed the bare figure; an answer in the analyst's unit changed none.
// Shape: a LangGraph supervisor's chat transcript.
func TestDataFlowOriginUnitChanged(t *testing.T) {
	for _, tt := range []struct {
		answer string
		want   []int
	}{
		{"The median time to first response this month is 3.2 minutes.", []int{5}},
		{"The median time to first response this month is 3.2 hours.", nil},
	} {
		in := prepare(t, "What is the median time to first response on support tickets this month?", "",
			msg{agent: "user", content: "What is the median time to first response on support tickets this month?", kind: run.KindUser},
			msg{agent: "supervisor", content: "analyst: compute the median time to first response this month."},
			msg{agent: "analyst", content: `run_sql({"query": "SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY first_response_hours) FROM tickets"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "percentile_cont\n---------------\n3.2\n(1 row)", kind: run.KindToolResult},
			msg{agent: "analyst", content: "The median time to first response this month is 3.2 hours."},
			msg{agent: "supervisor", content: tt.answer},
		)
		assert.Equal(t, tt.want, stepsFor(DataFlowOrigin.Run(in), "in another unit"), tt.answer)
	}
}

// TestDataFlowOriginFreshValue: without a ground truth, an answer that
// first states one of its values (a misread year) beside values its own
// search gave as they were is blamed for that value, not the search; so
// is one beside a name another agent's search brought in, the subject
// of the answer's figure (TestAnswerFigureBesideToolNames).
func TestDataFlowOriginFreshValue(t *testing.T) {
	page := `[{"snippet": "Hubble was launched into orbit on 24 April 1990 aboard Space Shuttle Discovery."}]`
	for _, tt := range []struct {
		searcher string
		want     []int
	}{
		{"assistant", []int{3}},
		{"researcher", []int{3}},
	} {
		in := prepare(t, "In what year did the Hubble Space Telescope launch?", "",
			msg{agent: "user", content: "In what year did the Hubble Space Telescope launch?", kind: run.KindUser},
			msg{agent: tt.searcher, content: `web_search({"query": "Hubble launch year"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: page, kind: run.KindToolResult},
			msg{agent: "assistant", content: "The Hubble Space Telescope was launched in 1991 aboard Space Shuttle Discovery."},
		)
		assert.ElementsMatch(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.searcher)
	}
}

// TestDataFlowOriginChosenAmong: without a ground truth, an assistant that
// answers with one of the values its own search listed chose it; the
// search reported all of them. In a team, where another agent passes the
// value on, the search that brought it in is still where it came from,
// unless the researcher reported every value and the other agent kept one.
func TestDataFlowOriginChosenAmong(t *testing.T) {
	listing := `[{"snippet": "2020 census populations: Springfield, Missouri 169,176; Springfield, Massachusetts 155,929; Springfield, Illinois 114,394."}]`
	in := prepare(t, "What was the population of Springfield, Massachusetts at the 2020 census?", "",
		msg{agent: "user", content: "What was the population of Springfield, Massachusetts at the 2020 census?", kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "Springfield Massachusetts population 2020 census"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: listing, kind: run.KindToolResult},
		msg{agent: "assistant", content: "In 2020, Springfield, Massachusetts had a population of 114,394."},
	)
	fs := DataFlowOrigin.Run(in)
	assert.Equal(t, []int{3}, steps(fs, true))
	require.NotEmpty(t, fs)
	assert.Contains(t, fs[0].Reason, `"114,394", first read from a tool among other values of its kind`)

	team := prepare(t, "What was the population of Springfield, Massachusetts at the 2020 census?", "",
		msg{agent: "user", content: "What was the population of Springfield, Massachusetts at the 2020 census?", kind: run.KindUser},
		msg{agent: "researcher", content: `web_search({"query": "Springfield Massachusetts population 2020 census"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: listing, kind: run.KindToolResult},
		msg{agent: "writer", content: "In 2020, Springfield, Massachusetts had a population of 114,394."},
	)
	assert.Equal(t, []int{1}, steps(DataFlowOrigin.Run(team), true))

	// Where the researcher reported the listing's values together, the
	// agent whose answer kept one of them chose it.
	reported := prepare(t, "What was the population of Springfield, Massachusetts at the 2020 census?", "",
		msg{agent: "user", content: "What was the population of Springfield, Massachusetts at the 2020 census?", kind: run.KindUser},
		msg{agent: "researcher", content: `web_search({"query": "Springfield Massachusetts population 2020 census"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: listing, kind: run.KindToolResult},
		msg{agent: "researcher", content: "The 2020 census gives Springfield, Missouri 169,176; Springfield, Massachusetts 155,929; Springfield, Illinois 114,394."},
		msg{agent: "writer", content: "In 2020, Springfield, Massachusetts had a population of 114,394."},
	)
	assert.Equal(t, []int{4}, steps(DataFlowOrigin.Run(reported), true))

	// One other value of its kind is a choice too, and a figure the search
	// gives in a unit's symbol is the answer's in the unit's name.
	for _, tt := range []struct{ result, answer string }{
		{`[{"snippet": "Populations (2020): Lyon 522,250; Toulouse 498,003."}]`, "Lyon had 498,003 inhabitants in 2020."},
		{`[{"snippet": "Burj Khalifa: architectural height 828 m, tip height 829.8 m."}]`, "The architectural top is 829.8 metres high."},
	} {
		two := prepare(t, "What was it in 2020?", "",
			msg{agent: "user", content: "What was it in 2020?", kind: run.KindUser},
			msg{agent: "assistant", content: `web_search({"query": "the figure"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: tt.result, kind: run.KindToolResult},
			msg{agent: "assistant", content: tt.answer},
		)
		assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(two), true), tt.answer)
	}

	// A value the answer states beside the one chosen is no alternative
	// to it: the answer that reports two of a listing's three figures
	// chose them over the third.
	both := prepare(t, "What were the populations of the two largest cities in 2020?", "",
		msg{agent: "user", content: "What were the populations of the two largest cities in 2020?", kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "largest cities population 2020"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `[{"snippet": "Populations (2020): Lyon 522,250; Toulouse 498,003; Marseille 873,076."}]`, kind: run.KindToolResult},
		msg{agent: "assistant", content: "In 2020 Lyon had 522,250 inhabitants and Toulouse 498,003."},
	)
	fs = DataFlowOrigin.Run(both)
	assert.Equal(t, []int{3}, steps(fs, true))
	require.NotEmpty(t, fs)
	assert.Contains(t, fs[0].Reason, `"522,250", first read from a tool among other values of its kind`)

	// A name is chosen among the names a page gives as a figure is.
	names := prepare(t, "Who was the first woman to win the Nobel Prize in Chemistry?", "",
		msg{agent: "user", content: "Who was the first woman to win the Nobel Prize in Chemistry?", kind: run.KindUser},
		msg{agent: "assistant", content: `wiki_search({"query": "first woman Nobel Prize in Chemistry"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "In 1911 Marie Curie became the first woman to win the Nobel Prize in Chemistry; Irène Joliot-Curie won it in 1935.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The first woman to win the Nobel Prize in Chemistry was Irène Joliot-Curie."},
	)
	assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(names), true))

	// A figure beside its year was not chosen among values of its kind:
	// the search for the wrong city brought it in.
	year := prepare(t, "What is the population of the capital of Australia?", "",
		msg{agent: "user", content: "What is the population of the capital of Australia?", kind: run.KindUser},
		msg{agent: "assistant", content: `search({"q": "Sydney population"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Sydney has a metropolitan population of about 5,312,000 (2021).", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The capital of Australia has about 5,312,000 people."},
	)
	assert.Equal(t, []int{1}, steps(DataFlowOrigin.Run(year), true))

	// The subject a search asked about is no value the answer was chosen
	// among: the page names it beside what it reports, and the search on
	// the wrong country brought that in.
	asked := prepare(t, "What currency is used in the country where Angkor Wat is located?", "",
		msg{agent: "user", content: "What currency is used in the country where Angkor Wat is located?", kind: run.KindUser},
		msg{agent: "assistant", content: `search({"q": "Angkor Wat location"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "Angkor Wat is a temple complex in Siem Reap, Cambodia, near the border with Thailand.", kind: run.KindToolResult},
		msg{agent: "assistant", content: `search({"q": "currency of Thailand"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "The Thai baht is the official currency of Thailand.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The currency is the Thai baht."},
	)
	assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(asked), true))

	// A common noun the reply reports from a page is traced to the call
	// that opened it: the wrong page, not the reply, is where it went
	// wrong.
	page := prepare(t, "What is the national animal of Wales?", "",
		msg{agent: "user", content: "What is the national animal of Wales?", kind: run.KindUser},
		msg{agent: "assistant", content: `search({"q": "national animal of Wales"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "1. Wales national symbols https://example.org/wales 2. Scotland national symbols https://example.org/scotland", kind: run.KindToolResult},
		msg{agent: "assistant", content: `fetch({"url": "https://example.org/scotland"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: "The unicorn is the national animal of Scotland.", kind: run.KindToolResult},
		msg{agent: "assistant", content: "The national animal is the unicorn."},
	)
	assert.Equal(t, []int{3}, steps(DataFlowOrigin.Run(page), true))

	// With the ground truth the value dropped beside the right one is the
	// one quoted, not a name the answer states before it.
	in = prepare(t, "What was the population of Springfield, Massachusetts at the 2020 census?", "155,929",
		msg{agent: "user", content: "What was the population of Springfield, Massachusetts at the 2020 census?", kind: run.KindUser},
		msg{agent: "assistant", content: `web_search({"query": "Springfield Massachusetts population 2020 census"})`, kind: run.KindToolCall},
		msg{agent: "tool", content: listing, kind: run.KindToolResult},
		msg{agent: "assistant", content: "According to the 2020 census, Springfield, Massachusetts had a population of 114,394."},
	)
	fs = DataFlowOrigin.Run(in)
	require.NotEmpty(t, fs)
	assert.Contains(t, fs[0].Reason, `"114,394", first seen beside the correct value`)
}

// TestDataFlowOriginHandedValue: a worker's call computes the answer
// from a figure the supervisor's delegation handed it, which the task does
// not hold (1243 for the task's 1234): the delegation is where the value
// came from, not the call. A figure the call's own agent or a tool gave it
// leaves the call blamed. Shape: an OpenAI Agents SDK coordinator calling
// a math specialist as a tool.
func TestDataFlowOriginHandedValue(t *testing.T) {
	handed := func(query string) *Input {
		return prepare(t, "What do 56 units at 1234 EUR each cost in total?", "",
			msg{agent: "user", content: "What do 56 units at 1234 EUR each cost in total?", kind: run.KindUser},
			msg{agent: "coordinator", content: `ask_math_specialist({"query":"` + query + `"})`, kind: run.KindToolCall},
			msg{agent: "math_specialist", content: `multiply_numbers({"a":1243,"b":56})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "69608", kind: run.KindToolResult},
			msg{agent: "math_specialist", content: "1243 x 56 = 69,608."},
			msg{agent: "coordinator", content: "The total cost is 69,608 EUR."},
		)
	}
	assert.Equal(t, []int{1}, steps(DataFlowOrigin.Run(handed("1243 multiplied by 56")), true))
	assert.Equal(t, []int{2}, steps(DataFlowOrigin.Run(handed("the total of 56 units at the unit price")), true), "the worker brought 1243 itself")

	// A lookup given a number the delegation named (a limit of records)
	// does not compute with it: its record of several values gave the
	// answer, and the worker's call that asked for it is where it came
	// from, not the delegation.
	in := prepare(t, "What was the population of Lyon at the 2019 census?", "",
		msg{agent: "user", content: "What was the population of Lyon at the 2019 census?", kind: run.KindUser},
		msg{agent: "manager", content: "search_agent: look up Lyon's 2019 census population. Use the stats API and fetch at most 100 records."},
		msg{agent: "search_agent", content: `query_population({"city": "Lyon", "year": 2019, "limit": 100})`, kind: run.KindToolCall},
		msg{agent: "tool", content: `{"city": "Lyon", "metro": true, "population": 2308818, "year": 2019}`, kind: run.KindToolResult},
		msg{agent: "search_agent", content: "Lyon's 2019 population is 2,308,818."},
		msg{agent: "manager", content: "Final answer: 2,308,818"},
	)
	assert.Equal(t, []int{2}, steps(DataFlowOrigin.Run(in), true), "the limit the manager named did not make the figure")
}

// TestPolicyInInstructions: a trace keeps the system prompt apart from
// its steps (run.Run.Instructions); its policy governs the run as a
// transcript's system step does.
func TestPolicyInInstructions(t *testing.T) {
	r := &run.Run{Source: "trace.json", Question: "Hi, I need to cancel my trip to Denver.",
		Instructions: "Before taking any action that updates the booking database, you must obtain explicit user confirmation (yes) to proceed.",
		Steps: []run.Step{
			{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Hi, I need to cancel my trip to Denver."},
			{Index: 1, Agent: "agent", Kind: run.KindToolCall, Content: `get_reservation_details({"reservation_id": "AIXC49"})`},
			{Index: 2, Agent: "agent", Kind: run.KindToolResult, Content: `{"reservation_id": "AIXC49", "destination": "DEN"}`},
			{Index: 3, Agent: "agent", Kind: run.KindToolCall, Content: `cancel_reservation({"reservation_id": "AIXC49"})`},
			{Index: 4, Agent: "agent", Kind: run.KindToolResult, Content: `{"reservation_id": "AIXC49", "status": "cancelled"}`},
			{Index: 5, Agent: "agent", Kind: run.KindMessage, Content: "Your reservation AIXC49 has been cancelled."},
		}}
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(t, err)
	in := &Input{Run: r, Features: f, Graph: g}
	assert.Equal(t, []int{3}, steps(UnconfirmedAction.Run(in), true))
}

// TestUnconfirmedActionOnAnotherRecord: a customer agrees to a proposal
// naming one line; the call then acts on another line of the same
// listing, which the customer never agreed to. A call on the line
// proposed, and one after a proposal naming every id it uses, agreed.
// Shape: a telecom assistant with OpenAI tool calls under a confirmation
// policy, in tau-bench's manner.
func TestUnconfirmedActionOnAnotherRecord(t *testing.T) {
	policy := "Before any change, list the details and obtain explicit confirmation (yes)."
	for _, tt := range []struct {
		name, line string
		want       []int
	}{
		{"another line", "L-90199", []int{6}},
		{"the line proposed", "L-90177", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Please add roaming to my daughter's line, the one ending 0177.", "",
				msg{agent: "system", content: policy, kind: run.KindSystem},
				msg{agent: "user", content: "Please add roaming to my daughter's line, the one ending 0177.", kind: run.KindUser},
				msg{agent: "assistant", content: `get_customer_by_phone({"phone_number": "555-0199"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"lines": [{"line_id": "L-90199", "number": "555-0199"}, {"line_id": "L-90177", "number": "555-0177"}]}`, kind: run.KindToolResult},
				msg{agent: "assistant", content: "I'll add roaming to line L-90177 (555-0177). Shall I go ahead?"},
				msg{agent: "user", content: "Yes, go ahead.", kind: run.KindUser},
				msg{agent: "assistant", content: `add_roaming({"line_id": "` + tt.line + `"})`, kind: run.KindToolCall},
			)
			assert.Equal(t, tt.want, steps(UnconfirmedAction.Run(in), true))
		})
	}
}

// TestUnconfirmedActionOnAnotherDescribedRecord: a customer agrees to a
// proposal that describes a record by its words (the blue variant); the
// call acts on another variant of the same listing. A call on the variant
// described agreed, and so does an exchange whose proposal describes the
// new variant beside the old one it replaces. Shape: tau-bench retail's
// product variants, OpenAI tool calls.
func TestUnconfirmedActionOnAnotherDescribedRecord(t *testing.T) {
	policy := "Before an exchange, list the details and obtain explicit user confirmation (yes)."
	variants := `{"product_id": "8810", "variants": {"5512093": {"options": {"color": "white"}}, "5512177": {"options": {"color": "red"}}, "5512240": {"options": {"color": "blue"}}}}`
	for _, tt := range []struct {
		name, item string
		want       []int
	}{
		{"another variant", "5512177", []int{6}},
		{"the variant described", "5512240", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Please exchange my white mug for the blue one.", "",
				msg{agent: "system", content: policy, kind: run.KindSystem},
				msg{agent: "user", content: "Please exchange my white mug for the blue one.", kind: run.KindUser},
				msg{agent: "assistant", content: `get_product_details({"product_id": "8810"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: variants, kind: run.KindToolResult},
				msg{agent: "assistant", content: "I can exchange your white mug (item 5512093) for the blue one. Shall I proceed?"},
				msg{agent: "user", content: "Yes please.", kind: run.KindUser},
				msg{agent: "assistant", content: `exchange_delivered_order_items({"item_ids": ["5512093"], "new_item_ids": ["` + tt.item + `"]})`, kind: run.KindToolCall},
			)
			assert.Equal(t, tt.want, steps(UnconfirmedAction.Run(in), true))
		})
	}
}

// TestUnconfirmedActionOnAnotherTimedRecord: a policy that asks for the
// customer's yes in other words than "confirm" asks for confirmation; the
// proposal named a slot by its time ("2:30 pm"), which only another
// record of the listing gives (its start), so a booking of the 4 pm slot
// acts on another record than the one agreed. Shape: a clinic scheduling
// assistant's chat transcript with tool_calls.
func TestUnconfirmedActionOnAnotherTimedRecord(t *testing.T) {
	policy := "Read back the appointment and get the patient's yes before booking."
	slots := `[{"slot_id": "S-1104", "start": "2025-09-11T13:00"}, {"slot_id": "S-1107", "start": "2025-09-11T14:30"}, {"slot_id": "S-1109", "start": "2025-09-11T16:00"}]`
	for _, tt := range []struct {
		name, slot string
		want       []int
	}{
		{"another slot", "S-1109", []int{6}},
		{"the slot named", "S-1107", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Please move my physiotherapy to Thursday afternoon.", "",
				msg{agent: "system", content: policy, kind: run.KindSystem},
				msg{agent: "user", content: "Please move my physiotherapy to Thursday afternoon.", kind: run.KindUser},
				msg{agent: "assistant", content: `list_slots({"type": "physiotherapy", "date": "2025-09-11"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: slots, kind: run.KindToolResult},
				msg{agent: "assistant", content: "I'll move appointment A-5531 to Thursday at 2:30 pm. Is that right?"},
				msg{agent: "user", content: "Yes.", kind: run.KindUser},
				msg{agent: "assistant", content: `reschedule({"appt_id": "A-5531", "slot_id": "` + tt.slot + `"})`, kind: run.KindToolCall},
			)
			assert.Equal(t, tt.want, steps(UnconfirmedAction.Run(in), true))
		})
	}
}

// TestUnconfirmedActionOfIssuedApproval: a policy that asks for an
// approval code a tool issues asks for no one's yes, so a refund made
// after the tool gave the code is no action taken unconfirmed; one that
// asks for the customer's approval is, and holds the refund it names, not
// the request for a code. Shape: a retail support
// assistant's chat transcript with tool_calls.
func TestUnconfirmedActionOfIssuedApproval(t *testing.T) {
	for _, tt := range []struct {
		policy string
		want   []int
	}{
		{"You must get an approval code from the payment gateway with request_approval before issuing a refund.", nil},
		{"You must get the customer's approval before issuing a refund.", []int{6}},
	} {
		t.Run(tt.policy, func(t *testing.T) {
			in := prepare(t, "Order #W4471 arrived with a broken tent pole. Please refund it to my card.", "",
				msg{agent: "system", content: tt.policy, kind: run.KindSystem},
				msg{agent: "user", content: "Order #W4471 arrived with a broken tent pole. Please refund it to my card.", kind: run.KindUser},
				msg{agent: "assistant", content: `get_order({"order_id": "#W4471"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"order_id": "#W4471", "status": "delivered", "total": 189.0, "payment": "card_5512"}`, kind: run.KindToolResult},
				msg{agent: "assistant", content: `request_approval({"order_id": "#W4471", "amount": 189.0})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"approval_code": "APV-30918", "status": "approved"}`, kind: run.KindToolResult},
				msg{agent: "assistant", content: `refund_order({"order_id": "#W4471", "amount": 189.0, "approval_code": "APV-30918", "payment_method": "card_5512"})`, kind: run.KindToolCall},
			)
			assert.Equal(t, tt.want, steps(UnconfirmedAction.Run(in), true))
		})
	}
}

// TestUnsupportedClaimOfCommands: a coding agent's command names the
// files it runs on (Codex CLI's exec_command, its call written out as the
// step); the paths are what it looks at, not facts it states, though no
// step named them before and later steps use them. What a command writes
// out is stated all the same (as the Claude Agent SDK's traces in
// ../shared/traces/strands-evals show an agent echo a reading it made up).
func TestUnsupportedClaimOfCommands(t *testing.T) {
	in := prepare(t, "parse_duration('1h30m') returns 3630 instead of 5400", "",
		msg{agent: "user", content: "parse_duration('1h30m') returns 3630 instead of 5400", kind: run.KindUser},
		msg{agent: "assistant", content: `exec_command({"cmd": "python -m pytest -q --noconftest tests/test_parser.py"})`, kind: run.KindToolCall},
		msg{agent: "assistant", content: "tests/test_parser.py:14: AssertionError\n1 failed, 11 passed", kind: run.KindToolResult},
		msg{agent: "assistant", content: `exec_command({"cmd": "python -m pytest -q tests/test_parser.py -k days"})`, kind: run.KindToolCall},
		msg{agent: "assistant", content: "The failure in tests/test_parser.py is the minutes case.", kind: run.KindMessage},
	)
	assert.Empty(t, steps(UnsupportedClaim.Run(in), true))

	in = prepare(t, "Look up the weather in New York and Seattle, then calculate the temperature difference.", "",
		msg{agent: "user", content: "Look up the weather in New York and Seattle, then calculate the temperature difference.", kind: run.KindUser},
		msg{agent: "researcher", content: `Bash({"command": "echo \"Location: New York City\nTemperature: 89°F\""})`, kind: run.KindToolCall},
		msg{agent: "researcher", content: `{"stdout": "Location: New York City\nTemperature: 89°F", "stderr": ""}`, kind: run.KindToolResult},
		msg{agent: "lead", content: "New York is 89°F, warmer than Seattle.", kind: run.KindMessage},
	)
	assert.Equal(t, []int{1}, steps(UnsupportedClaim.Run(in), true))
}

// TestUnsupportedClaimOfFileArguments: a tool given the file it reads or
// changes as an argument of its own (Claude Code's Read and Edit take a
// file_path) names what it acts on, not a fact it states, though no
// earlier step named the file; a path written inside a longer argument
// (code) still counts.
func TestUnsupportedClaimOfFileArguments(t *testing.T) {
	const task = "parse_bool does not accept on and off."
	user := msg{agent: "user", content: task, kind: run.KindUser}
	in := prepare(t, task, "", user,
		msg{agent: "assistant", content: `Read({"file_path": "/repo/cfg/values.py"})`, kind: run.KindToolCall},
		msg{agent: "assistant", content: "1\tdef parse_bool(value: str) -> bool:", kind: run.KindToolResult},
		msg{agent: "assistant", content: `Edit({"file_path": "/repo/cfg/values.py", "old_string": "yes\")", "new_string": "yes\", \"on\")"})`, kind: run.KindToolCall},
		msg{agent: "assistant", content: "The file /repo/cfg/values.py has been edited.", kind: run.KindToolResult},
	)
	assert.Empty(t, steps(UnsupportedClaim.Run(in), true))

	in = prepare(t, task, "", user,
		msg{agent: "assistant", content: `python_interpreter({"code": "print(open('/repo/cfg/values.py').read())"})`, kind: run.KindToolCall},
		msg{agent: "assistant", content: "def parse_bool(value: str) -> bool:", kind: run.KindToolResult},
		msg{agent: "assistant", content: `Edit({"file_path": "/repo/cfg/values.py", "old_string": "yes\")", "new_string": "yes\", \"on\")"})`, kind: run.KindToolCall},
	)
	assert.Equal(t, []int{1}, steps(UnsupportedClaim.Run(in), true))
}

// TestUnsupportedClaimOfRenamedName: an engineer who writes the task's
// field user_id as userId, which the tester then carries, gave a name of
// its own that later steps build on, as a made-up figure is; a name kept,
// or renamed where no later step takes the new one up, is not blamed so.
// The shape is a MetaGPT-like team's design, code and tests.
func TestUnsupportedClaimOfRenamedName(t *testing.T) {
	const task = "Add POST /items; the JSON body has the fields user_id and title, as the mobile client sends them."
	user := msg{agent: "user", content: task, kind: run.KindUser}
	design := msg{agent: "Architect", content: "The handler reads user_id and title from the body and returns the new id."}
	for _, tc := range []struct {
		name string
		code string
		test string
		want []int
	}{
		{"renamed and carried", "def create(body):\n    return save(body['userId'], body['title'])", "post('/items', {'userId': 7, 'title': 'pen'})", []int{2}},
		{"kept", "def create(body):\n    return save(body['user_id'], body['title'])", "post('/items', {'user_id': 7, 'title': 'pen'})", nil},
		{"renamed, not carried", "def create(body):\n    return save(body['userId'], body['title'])", "The tests pass.", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := prepare(t, task, "", user, design, msg{agent: "Engineer", content: tc.code}, msg{agent: "QaEngineer", content: tc.test})
			assert.Equal(t, tc.want, steps(UnsupportedClaim.Run(in), true))
		})
	}
}

// TestRenamedTaskNameOutweighsAPlanValue: a name the task fixes (the
// fields a client reads) written otherwise in code, and carried by the
// test and the summary, is the run's fault before a status code the spec
// chose and the code then returns: the task's contract is broken there.
// The shape is a MetaGPT-like team's spec, code, test and summary.
func TestRenamedTaskNameOutweighsAPlanValue(t *testing.T) {
	const task = "Add GET /api/v1/users/<user_id>/profile. It returns JSON with the fields user_id, display_name and email; the mobile app reads these names."
	in := prepare(t, task, "",
		msg{agent: "user", content: task, kind: run.KindUser},
		msg{agent: "ProductManager", content: "## Requirement Pool\n- P0: profile JSON with user_id, display_name, email\n- P1: 404 for unknown users"},
		msg{agent: "Engineer", content: "## Code: profile_api.py\n```python\ndef get_profile(user_id):\n    user = find_user(user_id)\n    if user is None:\n        abort(404)\n    return {\"uid\": user.id, \"display_name\": user.name, \"email\": user.email}\n```"},
		msg{agent: "QaEngineer", content: "## Code: test_profile_api.py\n```python\ndef test_profile(client):\n    assert client.get(\"/api/v1/users/7/profile\").get_json()[\"uid\"] == 7\n```"},
		msg{agent: "Engineer", content: "## Summary\nThe endpoint returns {\"uid\": 7, \"display_name\": \"Ada\", \"email\": \"ada@example.com\"}."},
	)
	a := Attribute(in)
	assert.Equal(t, 2, a.Step)
	assert.Contains(t, a.Rationale, `the name "user_id" the task gives`)
}

func TestAttributeCodeRun(t *testing.T) {
	a := Attribute(codeRun(t, "1200"))
	assert.Equal(t, 5, a.Step)
	assert.Equal(t, "Reporter", a.Agent)
	assert.Equal(t, ModeRules, a.Mode)
	assert.NotEmpty(t, a.Evidence)
	assert.Contains(t, a.Rationale, "Step 5 (Reporter)")
	require.NotEmpty(t, a.Candidates)
	assert.Equal(t, 5, a.Candidates[0].Step)
	for i := 1; i < len(a.Candidates); i++ {
		assert.GreaterOrEqual(t, a.Candidates[i-1].Score, a.Candidates[i].Score, "candidates are ranked")
	}
	assert.Greater(t, a.Confidence, 0.0)
	assert.LessOrEqual(t, a.Confidence, 1.0)
}

func TestAttributeBlamesCallerForToolOutput(t *testing.T) {
	in := codeRun(t, "")
	assert.Equal(t, "Coder", responsible(in, 2))
	assert.Equal(t, "Reporter", responsible(in, 5))

	// No rule implicates any step and the weights put all their weight on
	// a tool's output: the answer is the terminal's step, its agent the
	// coder, and the rationale says why.
	w := DefaultWeights()
	w.Step = map[string]float64{FeatToolOutput: 5}
	w.Critical = 1
	a, _ := Combiner{Weights: w}.Attribute(in)
	require.Equal(t, 2, a.Step)
	assert.Equal(t, "Coder", a.Agent, "the agent whose code produced the output")
	assert.Contains(t, a.Rationale, "Coder answers for it, not Terminal who reports it")
}

// TestAttributeTestdata runs the engine on the project's own example runs,
// whose decisive faults are known by construction.
func TestAttributeTestdata(t *testing.T) {
	tests := []struct {
		file  string
		step  int
		agent string
		rule  string
	}{
		// Step 2's code printed the right saving (9); step 3 overturned it.
		{"autogen.json", 3, "Math_Expert", "ground_truth_contradiction"},
		// Step 4 reported the census figure beside a blog's; step 7 went
		// to the blog and carried its figure to the answer.
		{"magentic.json", 7, "WebSurfer", "data_flow_origin"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			r, err := run.Load("../testdata/runs/"+tt.file, run.Options{})
			require.NoError(t, err)
			a := attribute(t, r)
			assert.Equal(t, tt.step, a.Step)
			assert.Equal(t, tt.agent, a.Agent)
			require.NotEmpty(t, a.Candidates)
			assert.Contains(t, a.Candidates[0].Rules, tt.rule)
		})
	}
}

// ledger renders a Magentic-One progress ledger.
func ledger(satisfied, progress bool) string {
	return fmt.Sprintf(`Updated Ledger:
{"is_request_satisfied": {"reason": "checked", "answer": %t},
 "is_in_loop": {"reason": "no", "answer": false},
 "is_progress_being_made": {"reason": "see above", "answer": %t},
 "next_speaker": {"reason": "it browses", "answer": "Surfer"},
 "instruction_or_question": {"reason": "next", "answer": "Report the population."}}`, satisfied, progress)
}

func surferRun(t *testing.T, gt string) *Input {
	return surferReports(t, gt, "I clicked 'Brindle Cove travel blog'. The page says the town has about 3,900 residents.", true)
}

// surferReports is surferRun with what the surfer reports, and whether the
// ledger that then declares the request satisfied judges progress made.
func surferReports(t *testing.T, gt, report string, progress bool) *Input {
	return prepare(t, "What was the 2020 population of Brindle Cove?", gt,
		msg{agent: "human", content: "What was the 2020 population of Brindle Cove?", kind: run.KindUser},
		msg{agent: "Planner", content: "Initial plan:\n\nHere is the plan to follow as best as possible:\n- Ask Surfer to find the census figure.", kind: run.KindThought},
		msg{agent: "Planner", content: "Find the 2020 census population of Brindle Cove.", kind: run.KindInstruction, target: "Surfer"},
		msg{agent: "Surfer", content: report},
		msg{agent: "Planner", content: ledger(true, progress), kind: run.KindThought},
		msg{agent: "Planner", content: "FINAL ANSWER: 3900", kind: run.KindTermination},
	)
}

func TestPrematureSatisfaction(t *testing.T) {
	fs := PrematureSatisfaction.Run(surferRun(t, "4312"))
	require.Len(t, fs, 2)
	assert.Equal(t, 4, fs[0].Step, "the ledger that declared the wrong answer satisfactory")
	assert.Equal(t, 3, fs[1].Step, "the result it accepted")
	assert.Greater(t, fs[0].Strength, fs[1].Strength)
	assert.Empty(t, PrematureSatisfaction.Run(surferRun(t, "3,900")), "satisfied with the right answer is no fault")
}

// TestPrematureSatisfactionOfHandedFigures: a result the ledger accepted
// whose answer's figures the instruction it answers handed it carried
// them: the share of the blame is that instruction's; a result that
// brings a figure of its own keeps it.
func TestPrematureSatisfactionOfHandedFigures(t *testing.T) {
	q := "What share of the county's 12,000 people lived in Brindle Cove in 2020?"
	for _, tt := range []struct {
		name, instruction, result string
		want                      int
	}{
		{"carries the handed figure", "Brindle Cove had 4,800 people in 2020. Work out 4,800 / 12,000 as a share.", "4,800 / 12,000 = 0.4", 2},
		{"brings its own figure", "Work out Brindle Cove's 2020 population as a share of 12,000.", "Brindle Cove had 4,800 people: 4,800 / 12,000 = 0.4", 3},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "0.325",
				msg{agent: "human", content: q, kind: run.KindUser},
				msg{agent: "Planner", content: "Initial plan:\n\n- Ask Coder to work out the share.", kind: run.KindThought},
				msg{agent: "Planner", content: tt.instruction, kind: run.KindInstruction, target: "Coder"},
				msg{agent: "Coder", content: tt.result},
				msg{agent: "Planner", content: ledger(true, true), kind: run.KindThought},
				msg{agent: "Planner", content: "FINAL ANSWER: 4,800 people, 0.4", kind: run.KindTermination},
			)
			fs := PrematureSatisfaction.Run(in)
			require.Len(t, fs, 2)
			assert.Equal(t, 4, fs[0].Step, "the ledger")
			assert.Equal(t, tt.want, fs[1].Step, "the result's share")
		})
	}
}

func TestUnverifiedApproval(t *testing.T) {
	approve := func(evidence string) *Input {
		steps := []msg{
			{agent: "user", content: "What is 17 * 23?", kind: run.KindUser},
			{agent: "Solver", content: "17 * 23 = 381."},
		}
		if evidence != "" {
			steps = append(steps, msg{agent: "Terminal", content: evidence})
		}
		steps = append(steps, msg{agent: "Checker", content: "I have verified the result: 381 is correct. TERMINATE"})
		return prepare(t, "What is 17 * 23?", "391", steps...)
	}
	fs := UnverifiedApproval.Run(approve(""))
	require.Len(t, fs, 1)
	assert.Equal(t, 2, fs[0].Step)
	assert.Empty(t, UnverifiedApproval.Run(approve("exitcode: 0 (execution succeeded)\nCode output: 381")),
		"an approval right after a tool ran is a checked one")
}

// TestApprovalThatWorksTheFiguresOut: in a team that runs nothing, an
// approval that works the figures out again, and gets its arithmetic
// right, checked the result the only way it could; one whose arithmetic
// slips, or that works nothing out, did not. Where tools could run, it
// still should have run one.
func TestApprovalThatWorksTheFiguresOut(t *testing.T) {
	approve := func(check string, tools bool) *Input {
		steps := []msg{
			{agent: "user", content: "Visits rose from 12,400 to 14,880. By what percentage?", kind: run.KindUser},
			{agent: "Analyst", content: "Increase: 14,880 - 12,400 = 2,480; 2,480 / 12,400 = 0.20, so 20%."},
		}
		if tools {
			steps = append(steps, msg{agent: "Analyst", content: "```python\nprint(2480 / 12400)\n```"}, msg{agent: "Terminal", content: "exitcode: 0 (execution succeeded)\nCode output: 0.2"},
				msg{agent: "Writer", content: "Draft: visits rose by 20%."})
		}
		steps = append(steps, msg{agent: "Verifier", content: check}, msg{agent: "Writer", content: "Visits rose by 25% in 2023."})
		return prepare(t, "Visits rose from 12,400 to 14,880. By what percentage?", "", steps...)
	}
	assert.Empty(t, UnverifiedApproval.Run(approve("I checked: 12,400 x 1.20 = 14,880. The increase of 20% is correct.", false)))
	assert.Len(t, UnverifiedApproval.Run(approve("I checked: 12,400 x 1.20 = 14,980. The increase of 20% is correct.", false)), 1, "its arithmetic slips")
	assert.Len(t, UnverifiedApproval.Run(approve("I have verified it: the increase of 20% is correct.", false)), 1, "it works nothing out")
	assert.Len(t, UnverifiedApproval.Run(approve("I checked: 12,400 x 1.20 = 14,880. The increase of 20% is correct.", true)), 1, "a team with tools checks with them")
}

func TestTrialFirstFault(t *testing.T) {
	in := plannerRun(t, false)
	fs := TrialFirstFault.Run(in)
	require.NotEmpty(t, fs)
	assert.Equal(t, 3, fs[0].Step, "the first failure of the only trial")
	assert.Equal(t, 1.0, fs[0].Strength)
	// A corrected failure is not a trial's fault.
	for _, f := range TrialFirstFault.Run(codeRun(t, "")) {
		assert.NotEqual(t, 1, f.Step, "step 1's failure was corrected at step 4")
	}
}

func TestBusiestFirstBaseline(t *testing.T) {
	r := &run.Run{Steps: []run.Step{
		{Index: 0, Agent: "user", Kind: run.KindUser, Content: "task"},
		{Index: 1, Agent: "Planner", Kind: run.KindMessage, Content: "plan"},
		{Index: 2, Agent: "Coder", Kind: run.KindMessage, Content: "code"},
		{Index: 3, Agent: "tool", Kind: run.KindToolResult, Content: "out"},
		{Index: 4, Agent: "Coder", Kind: run.KindMessage, Content: "more code"},
	}}
	a := BusiestFirstBaseline(r)
	assert.Equal(t, "Coder", a.Agent)
	assert.Equal(t, 2, a.Step)
	require.Len(t, a.Candidates, 2)
	assert.Equal(t, 4, a.Candidates[1].Step)
}

// TestPositionalBaselines: the last step and a random step are drawn from
// the steps that can be blamed (never the system prompt or the task), the
// random one the same on every call and spread over the steps across runs.
func TestPositionalBaselines(t *testing.T) {
	r := &run.Run{Steps: []run.Step{
		{Index: 0, Agent: "system", Kind: run.KindSystem, Content: "policy"},
		{Index: 1, Agent: "user", Kind: run.KindUser, Content: "task"},
		{Index: 2, Agent: "Planner", Kind: run.KindMessage, Content: "plan"},
		{Index: 3, Agent: "Coder", Kind: run.KindMessage, Content: "code"},
		{Index: 4, Agent: "user", Kind: run.KindUser, Content: "thanks"},
	}}
	last := LastStepBaseline(r)
	assert.Equal(t, 4, last.Step)
	assert.Equal(t, []int{4, 3, 2}, candidateSteps(last))

	seen := map[int]bool{}
	for k := range 40 {
		r.Question = fmt.Sprint("task ", k)
		a := RandomBaseline(r)
		assert.Equal(t, a, RandomBaseline(r), "the same run, the same guess")
		assert.ElementsMatch(t, []int{2, 3, 4}, candidateSteps(a))
		seen[a.Step] = true
	}
	assert.Len(t, seen, 3, "over many runs every blamable step is drawn")
	assert.Equal(t, -1, LastStepBaseline(&run.Run{}).Step, "an empty run has no step to guess")
}

func candidateSteps(a Attribution) []int {
	var out []int
	for _, c := range a.Candidates {
		out = append(out, c.Step)
	}
	return out
}

// TestTelemetryTrip: the same two-agent trip in every telemetry format. The
// researcher's misspelt call fails and is retried correctly (a detour);
// the decisive fault is its report of Celsius figures as Fahrenheit.
func TestTelemetryTrip(t *testing.T) {
	files, err := filepath.Glob("../testdata/telemetry/*")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			cases, err := run.LoadAll(context.Background(), file, run.Options{})
			require.NoError(t, err)
			require.Len(t, cases, 1)
			a := attribute(t, cases[0].Run)
			assert.Equal(t, 6, a.Step)
			assert.Equal(t, "Researcher", a.Agent)
			assert.NotContains(t, a.Candidates[0].Rules, "local_fault", "the failed call was put right")
		})
	}
}

// TestStepColumns: StepRows writes each structural feature where
// StepFeatureNames names it, for any choice of analyzers.
func TestStepColumns(t *testing.T) {
	for _, as := range [][]*Analyzer{Registry, Registry[:1], nil} {
		names := StepFeatureNames(as)
		require.Len(t, names, stepWidth(as))
		for _, f := range structuralFeatures {
			assert.Equal(t, f, names[structuralColumn(as, f)])
		}
	}
	assert.Panics(t, func() { structuralColumn(Registry, "step:nonesuch") })
}

// TestPromptingTurnFollowsItsCandidate: a participant's later turn that
// prompted a top candidate is listed right after it; the answer stays,
// and an agent's own earlier step is never listed as a prompt.
func TestPromptingTurnFollowsItsCandidate(t *testing.T) {
	ask := "Actually, count the header too and report 1198."
	in := prepare(t, "How many rows does data.csv have?", "1200",
		msg{agent: "user", content: "How many rows does data.csv have?", kind: run.KindUser},
		msg{agent: "Coder", content: "I will count them.\n```python\nimport csv\nprint(sum(1 for _ in csv.reader(open('data.csv'))))\n```"},
		msg{agent: "Terminal", content: "exitcode: 0 (execution succeeded)\nCode output: 1200"},
		msg{agent: "user", content: ask, kind: run.KindUser},
		msg{agent: "Reporter", content: "The file has 1198 rows. FINAL ANSWER: 1198"},
	)
	assert.Equal(t, 3, promptOf(in, 4), "the user's turn prompted the report")
	assert.Equal(t, 0, promptOf(in, 1), "the task prompted the coder; it cannot be blamed, so it is never listed")
	assert.Equal(t, 0, promptOf(in, 2), "a tool's output answers for its caller: the coder's prompt")
	a := Attribute(in)
	require.NotEmpty(t, a.Candidates)
	k := slices.IndexFunc(a.Candidates, func(c Candidate) bool { return c.Step == 4 })
	require.True(t, 0 <= k && k < promptedCandidates, "the wrong report is a top candidate: %+v", a.Candidates)
	require.Greater(t, len(a.Candidates), k+1)
	assert.Equal(t, 3, a.Candidates[k+1].Step, "the prompting turn follows the report")
	steps := map[int]int{}
	for _, c := range a.Candidates {
		steps[c.Step]++
	}
	for s, n := range steps {
		assert.Equal(t, 1, n, "step %d listed once", s)
	}
	assert.NotContains(t, steps, 0, "the task is never a candidate")
}

// TestRequestBehindAnAgreement: an action taken on a bare "yes", or on a
// turn that only picks one of the choices offered ("The 4 pm one,
// please"), carries out the request the assistant's proposal answered,
// not the agreement or the pick.
func TestRequestBehindAnAgreement(t *testing.T) {
	for _, tt := range []struct {
		name             string
		msgs             []msg
		settles, request int
	}{
		{"a yes", []msg{
			{agent: "user", content: "Change my order.", kind: run.KindUser},
			{agent: "assistant", content: "Which item should I change?"},
			{agent: "user", content: "Swap the red bottle for the black one.", kind: run.KindUser},
			{agent: "assistant", content: "I will swap the red bottle for the black one. Shall I proceed?"},
			{agent: "user", content: "Yes, please go ahead.", kind: run.KindUser},
			{agent: "assistant", content: "The swap is done."},
		}, 4, 2},
		{"a pick", []msg{
			{agent: "user", content: "Can I get a haircut on Friday afternoon?", kind: run.KindUser},
			{agent: "assistant", content: "I have 2 pm or 4 pm on Friday. Which would you like?"},
			{agent: "user", content: "The 4 pm one, please.", kind: run.KindUser},
			{agent: "assistant", content: "You're booked for 4 pm on Friday."},
		}, 2, 0},
	} {
		in := prepare(t, tt.msgs[0].content, "", tt.msgs...)
		f := &in.Features.Steps[tt.settles]
		require.True(t, f.Affirms || f.Picks, "%s: the test needs step %d read as settling the proposal", tt.name, tt.settles)
		last := len(tt.msgs) - 1
		assert.Equal(t, tt.settles, promptOf(in, last), tt.name)
		assert.Equal(t, tt.request, requestOf(in, last), "%s: the request behind it", tt.name)
		assert.Equal(t, tt.request, requestOf(in, tt.request+1), "%s: a turn that settles nothing is the request itself", tt.name)
	}
}

// TestAgentRolesAreTheGuessesAgents: the agent-role features name the
// agents the label-free guesses blame, on every development run.
func TestAgentRolesAreTheGuessesAgents(t *testing.T) {
	for _, r := range devRuns(t) {
		busiest, first, last := AgentRoles(r)
		assert.Equal(t, run.AgentKey(BusiestFirstBaseline(r).Agent), busiest, r.Source)
		assert.Equal(t, run.AgentKey(FirstStepBaseline(r).Agent), first, r.Source)
		assert.Equal(t, run.AgentKey(LastStepBaseline(r).Agent), last, r.Source)
	}
	busiest, first, last := AgentRoles(&run.Run{})
	assert.Equal(t, [3]string{}, [3]string{busiest, first, last}, "an empty run has no agents")
}

// TestLastBlamable: the last step a positional guess may name is found
// as listing them all would find it.
func TestLastBlamable(t *testing.T) {
	step := func(k run.Kind) run.Step { return run.Step{Kind: k} }
	for _, steps := range [][]run.Step{
		{step(run.KindUser)},
		{step(run.KindSystem)},
		{step(run.KindUser), step(run.KindMessage)},
		{step(run.KindMessage), step(run.KindUser)},
		{step(run.KindSystem), step(run.KindUser), step(run.KindUser)},
		{step(run.KindUser), step(run.KindMessage), step(run.KindSystem)},
		{step(run.KindSystem), step(run.KindSystem)},
	} {
		for i := range steps {
			steps[i].Index = i
		}
		r := &run.Run{Steps: steps}
		all := blamable(r)
		assert.Equal(t, all[len(all)-1], lastBlamable(r), "%+v", steps)
	}
}

// TestStepRowsReadNoGraph: the rows are made from the run, its features
// and the findings alone, so that a caller may let the graph go first.
func TestStepRowsReadNoGraph(t *testing.T) {
	for _, r := range devRuns(t) {
		in := inputOf(t, r)
		findings := Apply(in, Registry)
		want := StepRows(in, Registry, findings)
		in.Graph = nil
		assert.Equal(t, want, StepRows(in, Registry, findings), r.Source)
	}
}

// TestAnswerIsAttribute: the answer made letting the graph and the
// findings' words go as it is weighed is the one Attribute gives.
func TestAnswerIsAttribute(t *testing.T) {
	c := Combiner{Weights: DefaultWeights(), Analyzers: Registry}
	for _, r := range devRuns(t) {
		want, _ := c.Attribute(inputOf(t, r))
		in := inputOf(t, r)
		assert.Equal(t, want, c.Answer(in), r.Source)
		assert.Nil(t, in.Graph, r.Source)
	}
}

// TestAgreedSinceLooksBack: whether another agent agreed since a
// consequential call's caller last spoke is what looking back from each
// call finds, on random runs of a few agents.
func TestAgreedSinceLooksBack(t *testing.T) {
	lookBack := func(in *Input, i int) bool {
		key := run.AgentKey(in.Run.Steps[i].Agent)
		for j := i - 1; j >= 0; j-- {
			g := &in.Features.Steps[j]
			if g.Has(extract.KindToolResult) || len(g.Calls) > 0 {
				continue
			}
			if run.AgentKey(in.Run.Steps[j].Agent) == key {
				return false
			}
			if g.Affirms {
				return true
			}
		}
		return false
	}
	rng := rand.New(rand.NewPCG(7, 30))
	agents := []string{"Assistant", "user", "", "assistant"}
	calls := []extract.Call{{Name: "cancel_order"}, {Name: "get_order"}}
	for range 300 {
		r := &run.Run{}
		f := &extract.RunFeatures{}
		for i := range rng.IntN(40) {
			r.Steps = append(r.Steps, run.Step{Index: i, Agent: agents[rng.IntN(len(agents))]})
			s := extract.Features{Index: int32(i), Affirms: rng.IntN(3) == 0, Details: &extract.Details{Rare: &extract.Rare{}}}
			switch rng.IntN(4) {
			case 0:
				s.Kinds = extract.KindsOf(extract.KindToolResult)
			case 1:
				s.Calls = []extract.Call{calls[rng.IntN(len(calls))]}
			}
			f.Steps = append(f.Steps, s)
		}
		in := &Input{Run: r, Features: f}
		var want, got []string
		for i := range f.Steps {
			if slices.ContainsFunc(f.Steps[i].Calls, extract.Call.Consequential) {
				want = append(want, fmt.Sprint(i, lookBack(in, i)))
			}
		}
		for i, agreed := range agreedSince(in) {
			got = append(got, fmt.Sprint(i, agreed))
		}
		require.Equal(t, want, got)
	}
}

// stateOriginByScan is state_origin as it reads, one failure at a time:
// from the failing call, back to the nearest consequential step that acted
// on one of its objects.
func stateOriginByScan(in *Input) []Finding {
	var out []Finding
	seen := map[int]bool{}
	scripts := writesOwnScripts(in)
	for j := range in.Features.Steps {
		f := &in.Features.Steps[j]
		if _, failed := toolFailed(f); !failed && !hasError(f) {
			continue
		}
		c := callerOf(in, j)
		if c < 0 || c == j {
			continue
		}
		failing := consequentialValues(&in.Features.Steps[c])
		for k := c - 1; k >= 0 && len(failing) > 0; k-- {
			g := &in.Features.Steps[k]
			if !slices.ContainsFunc(g.Calls, extract.Call.Consequential) || !slices.ContainsFunc(changedValues(g), func(v string) bool { return slices.Contains(failing, v) }) {
				continue
			}
			if !seen[k] && !scripts[k] {
				seen[k] = true
				out = append(out, Finding{Step: k, Strength: 0.6, Quote: quoteAt(in, k, 0, 0),
					Reason: fmt.Sprintf("a later action on the same object (step %d) failed at step %d after this one changed it", c, j)})
			}
			break
		}
	}
	return out
}

// TestStateOriginIndexed holds state_origin, which looks up the objects
// each step acted on, to its reading by scan on every labelled run and
// constructed kind.
func TestStateOriginIndexed(t *testing.T) {
	for path, in := range labelledAndKinds(t) {
		assert.Equal(t, stateOriginByScan(in), stateOrigin(in), path)
	}
}

// labelledAndKinds yields the Input of every labelled run and constructed
// kind, by the path of its file.
func labelledAndKinds(t *testing.T) iter.Seq2[string, *Input] {
	files := runtest.SystemFiles(t)
	kinds, err := filepath.Glob(filepath.Join("..", "testdata", "kinds", "*", "*.json"))
	require.NoError(t, err)
	require.NotEmpty(t, kinds)
	return func(yield func(string, *Input) bool) {
		for _, path := range append(files, kinds...) {
			cases, err := run.LoadAll(context.Background(), path, run.Options{})
			require.NoError(t, err, path)
			for _, c := range cases {
				if !yield(path, inputOf(t, c.Run)) {
					return
				}
			}
		}
	}
}

// correctedByScan is corrected as it reads one failure at a time: each
// later result of the trial in turn, until one is clean or the failure
// happens again.
func correctedByScan(in *Input, j int) int {
	trial := in.Graph.TrialOf(j)
	agent := ""
	var failing []extract.Call
	if c := callerOf(in, j); c >= 0 {
		agent = run.AgentKey(in.Run.Steps[c].Agent)
		failing = in.Features.Steps[c].Calls
	}
	for k := j + 1; k <= trial.End; k++ {
		f := &in.Features.Steps[k]
		if _, failed := toolFailed(f); failed {
			if c := callerOf(in, k); len(failing) == 0 || c < 0 || len(in.Features.Steps[c].Calls) == 0 || sameCalls(failing, in.Features.Steps[c].Calls) {
				return -1
			}
			continue
		}
		if toolSucceeded(f) {
			return k
		}
		if c := callerOf(in, k); c >= 0 && c != k && agent != "" && run.AgentKey(in.Run.Steps[c].Agent) == agent && !hasError(f) {
			return k
		}
	}
	return -1
}

// TestCorrectedIndexed holds corrected, which looks later results up in
// an index, to its reading by scan for every step of every labelled run
// and constructed kind.
func TestCorrectedIndexed(t *testing.T) {
	for path, in := range labelledAndKinds(t) {
		var want, got []int
		for j := range in.Features.Steps {
			want = append(want, correctedByScan(in, j))
			got = append(got, corrected(in, j))
		}
		assert.Equal(t, want, got, path)
	}
}

// BenchmarkCorrectedInALongRun is a coding session of 20,000 steps that
// runs a different failing check each time and never passes one: every
// failure asks what later result corrected it.
func BenchmarkCorrectedInALongRun(b *testing.B) {
	r := &run.Run{Source: "long.json", Question: "Fix parse_duration."}
	for i := 0; len(r.Steps) < 20000; i++ {
		r.Steps = append(r.Steps,
			run.Step{Index: len(r.Steps), Agent: "assistant", Kind: run.KindToolCall, Content: fmt.Sprintf(`Bash({"command": "python -m pytest -q tests/test_d%d.py"})`, i), Extra: &run.Extra{}},
			run.Step{Index: len(r.Steps) + 1, Agent: "tool", Kind: run.KindToolResult, Content: fmt.Sprintf("E   AssertionError\ntests/test_d%d.py:9: AssertionError\n1 failed\nExit code 1", i), Extra: &run.Extra{}})
	}
	read := inputOf(b, r)
	for b.Loop() {
		in := &Input{Run: r, Features: read.Features, Graph: read.Graph}
		for j := range r.Steps {
			corrected(in, j)
		}
	}
}

// TestAnswerFromInstructions: an assistant that tells a customer a rule
// its policy states ("booked more than 24 hours ago") tells what the
// system prompt holds, whether the log keeps the prompt as a step (a
// transcript) or apart from the steps (a trace's instructions). Shape:
// an airline assistant under tau-bench's policy, with OpenAI tool calls.
func TestAnswerFromInstructions(t *testing.T) {
	const policy = "Economy reservations can be cancelled only within 24 hours of booking unless travel insurance was bought."
	const ask = "Please cancel my reservation R5QX1B."
	log := []run.Step{
		{Agent: "user", Kind: run.KindUser, Content: ask},
		{Agent: "assistant", Kind: run.KindToolCall, Content: `get_reservation_details({"reservation_id": "R5QX1B"})`},
		{Agent: "tool", Kind: run.KindToolResult, Content: `{"reservation_id": "R5QX1B", "cabin": "economy", "created_at": "2024-05-01T10:00:00", "insurance": "no"}`},
		{Agent: "assistant", Kind: run.KindMessage, Content: "I'm sorry, R5QX1B is an economy reservation booked more than 24 hours ago without travel insurance, so it cannot be cancelled."},
	}
	for name, r := range map[string]*run.Run{
		"a system step": {Source: "t.json", Question: ask, Steps: append([]run.Step{{Agent: "system", Kind: run.KindSystem, Content: policy}}, slices.Clone(log)...)},
		"instructions":  {Source: "trace.json", Question: ask, Instructions: policy, Steps: slices.Clone(log)},
	} {
		for i := range r.Steps {
			r.Steps[i].Index = i
		}
		f := extract.Run(r)
		g, err := graph.Build(r, f)
		require.NoError(t, err)
		assert.Empty(t, steps(UnsupportedAnswer.Run(&Input{Run: r, Features: f, Graph: g}), true), name)
	}
}

// A value of the answer a chain of calls computed (a product handed on to
// a division) is traced back through the chain to the figure that went
// wrong: the coordinator's delegation that altered a figure of the task,
// or the specialist's own first call that did, not the last call of the
// chain, which only carried the earlier result on.
func TestDataFlowThroughAChainOfCalls(t *testing.T) {
	const q = "What is 42 multiplied by 17, then divided by 3?"
	tests := []struct {
		name, query, a, b string
		want              int
	}{
		{"the coordinator hands the specialist another operand", "42 multiplied by 71, then divided by 3", "42", "71", 1},
		{"the specialist's first call alters the operand it was handed", "42 multiplied by 17, then divided by 3", "42", "71", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			step, callOf := chainStep, chainCall
			delegate := `{"query":"` + tt.query + `"}`
			multiply := `{"a":` + tt.a + `,"b":` + tt.b + `}`
			r := &run.Run{Source: "test.json", Question: q, Steps: []run.Step{
				step(0, "user", run.KindUser, q, nil),
				step(1, "coordinator", run.KindToolCall, "ask_math_specialist("+delegate+")", callOf("c1", "ask_math_specialist", delegate)),
				step(2, "math_specialist", run.KindToolCall, "multiply_numbers("+multiply+")", callOf("c2", "multiply_numbers", multiply)),
				step(3, "math_specialist", run.KindToolResult, "2982", &run.Extra{ToolCallID: "c2"}),
				step(4, "math_specialist", run.KindToolCall, `divide_numbers({"a":2982,"b":3})`, callOf("c3", "divide_numbers", `{"a":2982,"b":3}`)),
				step(5, "math_specialist", run.KindToolResult, "994.0", &run.Extra{ToolCallID: "c3"}),
				step(6, "math_specialist", run.KindMessage, "I multiplied the numbers and divided the product by 3: the result is 994.", nil),
				step(7, "coordinator", run.KindMessage, "The result is **994**.", nil),
			}}
			r.Steps[1].Edit().Target = "math_specialist"
			got := DataFlowOrigin.Run(chainInput(t, r))
			require.NotEmpty(t, got)
			assert.Equal(t, tt.want, got[0].Step, "%+v", got)
		})
	}
}

// A place the caller names with the country or state it is in ("Tokyo,
// Japan" for the task's Tokyo) composes the task's name with its
// qualifier, as weather and map tools ask: the comma that joins them is
// no part of the name, and the country is the lookup's precision, not a
// value the step states. Another city of that country is still made up.
func TestUnsupportedArgumentsPlaceWithItsCountry(t *testing.T) {
	tests := []struct {
		name, location string
		want           []int
	}{
		{"the task's city with its country", "Tokyo, Japan", nil},
		{"another city of the country", "Kyoto, Japan", []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "What's the weather in Tokyo?", "",
				msg{agent: "user", content: "What's the weather in Tokyo?", kind: run.KindUser},
				msg{agent: "assistant", content: `get_weather({"location": "` + tt.location + `"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: "The weather in " + tt.location + " is stormy with a high of 23°C.", kind: run.KindToolResult},
				msg{agent: "assistant", content: "Current conditions in " + tt.location + ": stormy, high around 32°C."},
			)
			assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), "unsupported_arguments")
			assert.Equal(t, tt.want, steps(UnsupportedClaim.Run(in), true), "unsupported_claim")
		})
	}
}

// TestPickPastTheNamedChoice: of the buttons a shop's page offers, a
// click on another size than the one the task names, or on "buy now"
// with the named size never clicked, picks past what was asked for; the
// named size clicked, or a task that names none of the page's choices,
// does not. Shape: a WebShop agent with search and click tools, in
// OpenAI chat with tool calls.
func TestPickPastTheNamedChoice(t *testing.T) {
	page := `{"observation": "Back to Search [SEP] color [SEP] black [SEP] navy [SEP] size [SEP] small [SEP] large [SEP] x-large [SEP] Price: $16.50 [SEP] Buy Now", "clickables": ["back to search", "black", "navy", "small", "large", "x-large", "description", "buy now"]}`
	for _, tt := range []struct {
		task, pick string
		want       []int
	}{
		{"i want a men's t-shirt in navy, size large, and price lower than 30.00 dollars", "large", nil},
		{"i want a men's t-shirt in navy, size large, and price lower than 30.00 dollars", "x-large", []int{7}},
		{"i want a men's t-shirt in navy, size large, and price lower than 30.00 dollars", "navy", []int{9}},
		{"i want a men's t-shirt, and price lower than 30.00 dollars", "x-large", nil},
	} {
		in := prepare(t, tt.task, "",
			msg{agent: "user", content: tt.task, kind: run.KindUser},
			msg{agent: "assistant", content: `search({"keywords": "men's t-shirt"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"observation": "Page 1 [SEP] B07JMQ8Y2K [SEP] Hanes Men's Crew T-Shirt [SEP] $16.50", "clickables": ["back to search", "next >", "b07jmq8y2k", "b0bx4t7l2m"]}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: `click({"value": "b07jmq8y2k"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: page, kind: run.KindToolResult},
			msg{agent: "assistant", content: `click({"value": "navy"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: page, kind: run.KindToolResult},
			msg{agent: "assistant", content: `click({"value": "` + tt.pick + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: page, kind: run.KindToolResult},
			msg{agent: "assistant", content: `click({"value": "buy now"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"observation": "Thank you for shopping with us!", "clickables": []}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, stepsFor(UnsupportedArguments.Run(in), "of the choices"), tt.task+" "+tt.pick)
	}
}

// TestPickOverThePriceCap: a click on a product, or a booking of a
// flight, that the results listed at a price over the most the task
// would pay is where the run went wrong; one within it is not. Shapes: a
// WebShop agent with search and click tools, whose page lists prices
// beside its buttons, and a travel agent whose search lists flights as
// JSON records, both in OpenAI chat with tool calls.
func TestPickOverThePriceCap(t *testing.T) {
	shop := "i want a queen size memory foam pillow set of 2, and price lower than 40.00 dollars"
	page := `{"observation": "Page 1 [SEP] B07CYLR1Q5 [SEP] Coop Home Goods Eden Memory Foam Pillow, Set of 2 [SEP] $54.99 [SEP] B0C1KQ8ZLM [SEP] Utopia Bedding Memory Foam Pillows, Queen, 2 Pack [SEP] $29.99", "clickables": ["back to search", "b07cylr1q5", "b0c1kq8zlm"]}`
	trip := "Book me a flight from LIS to BER on 2025-05-09 for no more than $250."
	flights := `{"flights": [{"flight": "TP 538", "departs": "07:10", "price_usd": 312}, {"flight": "FR 1882", "departs": "09:45", "price_usd": 189}]}`
	for _, tt := range []struct {
		task, search, listing, pick string
		want                        []int
	}{
		{shop, `search({"keywords": "queen memory foam pillow set of 2"})`, page, `click({"value": "b07cylr1q5"})`, []int{3}},
		{shop, `search({"keywords": "queen memory foam pillow set of 2"})`, page, `click({"value": "b0c1kq8zlm"})`, nil},
		{trip, `search_flights({"origin": "LIS", "destination": "BER", "date": "2025-05-09"})`, flights, `book_flight({"flight": "TP 538", "date": "2025-05-09"})`, []int{3}},
		{trip, `search_flights({"origin": "LIS", "destination": "BER", "date": "2025-05-09"})`, flights, `book_flight({"flight": "FR 1882", "date": "2025-05-09"})`, nil},
	} {
		in := prepare(t, tt.task, "",
			msg{agent: "user", content: tt.task, kind: run.KindUser},
			msg{agent: "assistant", content: tt.search, kind: run.KindToolCall},
			msg{agent: "tool", content: tt.listing, kind: run.KindToolResult},
			msg{agent: "assistant", content: tt.pick, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, stepsFor(UnsupportedArguments.Run(in), "over the task's"), tt.pick)
	}
}

// TestDataFlowOriginAlteredInBrief: a web agent that acts on its own,
// with no call a log records ("I clicked …" and the page it saw), reads
// the value the instruction steered it to: where the orchestrator asks
// for another year's row than the task's, the instruction is where the
// answer went wrong; where it hands on the task's year and the agent
// reads another row, the agent is. Shape: Magentic-One's orchestrator
// (a ledger, then the instruction) and WebSurfer, as Who&When logs it.
func TestDataFlowOriginAlteredInBrief(t *testing.T) {
	q := "How many home runs did the player hit in the 2019 regular season? Give just the number."
	page := func(row string) string {
		return "I clicked 'Player Stats'.\n\nHere is a screenshot of [Player Stats | Baseball-Reference.com](https://www.baseball-reference.com/players/p/p01.shtml). The viewport shows 6% of the webpage, and is positioned 52% down from the top of the page.\nThe following metadata was extracted from the webpage:\n\n{\n    \"meta_tags\": {\n        \"description\": \"Player stats\"\n    }\n}\n\nAutomatic OCR of the page screenshot has detected the following text:\n\nStandard Batting\nYear Age G PA HR RBI\n2018 28 129 544 27 80\n" + row + "\n2021 31 161 665 48 121\n\nIn the 2021 row of the table, the HR column shows 48."
	}
	for _, tt := range []struct {
		name, year, row, gt string
		want                []int
	}{
		{"the instruction asks for another year", "2021", "2019 29 (did not play: injured list)", "0", []int{2}},
		{"the agent reads another year's row", "2019", "2019 29 (did not play: injured list)", "0", []int{5}},
		{"the instruction asks for another year than the one beside it", "2021", "2019 29 140 560 31 92", "31", []int{2}},
	} {
		ask := "Please open the player's Baseball-Reference page and report the HR value of the " + tt.year + " row of his standard batting table."
		ledger := map[string]any{
			"is_request_satisfied":    map[string]any{"reason": "We have not looked up the statistic yet.", "answer": false},
			"next_speaker":            map[string]any{"reason": "WebSurfer can browse.", "answer": "WebSurfer"},
			"instruction_or_question": map[string]any{"reason": "Read the table.", "answer": ask},
		}
		lb, err := json.MarshalIndent(ledger, "", "  ")
		require.NoError(t, err)
		history := []map[string]string{
			{"role": "human", "content": q},
			{"role": "Orchestrator (thought)", "content": "Initial plan:\n\nWe are working to address the following user request:\n\n" + q + "\n\nHere is the plan to follow as best as possible:\n\n- WebSurfer: read the player's standard batting table on Baseball-Reference.\n- Report the number."},
			{"role": "Orchestrator (thought)", "content": "Updated Ledger:\n" + string(lb)},
			{"role": "Orchestrator (-> WebSurfer)", "content": ask},
			{"role": "Orchestrator (thought)", "content": "Next speaker WebSurfer"},
			{"role": "WebSurfer", "content": page(tt.row)},
			{"role": "Orchestrator (-> Assistant)", "content": "Please write the final answer as a single number."},
			{"role": "Assistant", "content": "The HR value read from the table is 48. The final answer is:\n\n48"},
			{"role": "Orchestrator (termination condition)", "content": "No agent selected.\nFINAL ANSWER: 48"},
		}
		in := whoWhenInput(t, q, tt.gt, history)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// whoWhenInput reads a Who&When case of the question, the correct answer
// and the history's role and content, as the whowhen format loads it.
func whoWhenInput(t *testing.T, q, gt string, history []map[string]string) *Input {
	t.Helper()
	data, err := json.Marshal(map[string]any{"question": q, "ground_truth": gt, "history": history})
	require.NoError(t, err)
	r, err := run.Parse("case.json", data, run.Options{})
	require.NoError(t, err)
	f := extract.Run(r)
	g, err := graph.Build(r, f)
	require.NoError(t, err)
	return &Input{Run: r, Features: f, Graph: g}
}

// TestDataFlowOriginMisreadOperand: an answer worked out right from a
// figure a web agent misread, in its own words beside the page it saw
// ("opened in 1978" beside the page's "Opened 30 November 1987"), went
// wrong where the agent misread; where the agent read the page right and
// the computation slipped, the computation is where. Shape: Magentic-One
// as Who&When logs it.
func TestDataFlowOriginMisreadOperand(t *testing.T) {
	q := "How many years passed between the opening of the Arab World Institute in Paris and the opening of the Louvre Abu Dhabi?"
	for _, tt := range []struct {
		name, read, sum, answer string
		want                    []int
	}{
		{"the agent misreads the page", "1978", "2017 - 1978 = 39", "39", []int{3}},
		{"the sum slips", "1987", "2017 - 1987 = 39", "39", []int{7}},
		{"the answer rounds what was worked out from the misreading", "1978", "2017 - 1978 = 39 years; 39 x 12 = 468 months", "about 470", []int{3}},
	} {
		history := []map[string]string{
			{"role": "human", "content": q},
			{"role": "Orchestrator (thought)", "content": "Initial plan:\n\nWe are working to address the following user request:\n\n" + q + "\n\nHere is the plan to follow as best as possible:\n\n- WebSurfer: find both opening years.\n- Assistant: subtract them."},
			{"role": "Orchestrator (-> WebSurfer)", "content": "Please open the Wikipedia article on the Arab World Institute and find the year its building opened."},
			{"role": "WebSurfer", "content": "I clicked 'Arab World Institute - Wikipedia'.\n\nHere is a screenshot of [Arab World Institute - Wikipedia](https://en.wikipedia.org/wiki/Arab_World_Institute). The viewport shows 11% of the webpage, and is positioned at the top of the page.\nThe following metadata was extracted from the webpage:\n\n{\n    \"meta_tags\": {\n        \"referrer\": \"origin\"\n    }\n}\n\nAutomatic OCR of the page screenshot has detected the following text:\n\nArab World Institute\nEstablished 1980\nOpened 30 November 1987\nArchitect Jean Nouvel\n\nThe page says the building opened on 30 November " + tt.read + "."},
			{"role": "Orchestrator (-> WebSurfer)", "content": "Please find the year the Louvre Abu Dhabi opened."},
			{"role": "WebSurfer", "content": "I typed 'Louvre Abu Dhabi opened' into '0 characters out of 2000'.\n\nHere is a screenshot of [Louvre Abu Dhabi opened - Search](https://www.bing.com/search?q=Louvre+Abu+Dhabi+opened). The viewport shows 24% of the webpage, and is positioned at the top of the page.\n\nAutomatic OCR of the page screenshot has detected the following text:\n\nLouvre Abu Dhabi - Wikipedia\nThe museum opened on 8 November 2017."},
			{"role": "Orchestrator (-> Assistant)", "content": "The institute opened in " + tt.read + " and the Louvre Abu Dhabi in 2017. Please compute the number of years between them."},
			{"role": "Assistant", "content": tt.sum + "\n\nThe time between the two openings is " + tt.answer + "."},
			{"role": "Orchestrator (termination condition)", "content": "No agent selected.\nFINAL ANSWER: " + tt.answer},
		}
		in := whoWhenInput(t, q, "30", history)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// TestDataFlowOriginRelayedMisread: a supervisor that hands its analyst a
// figure with its digits out of the order the researcher reported it in
// (19,640,000 for 19,460,000) is where the answer went wrong, not the
// analyst's code that computed with it as handed; where the supervisor
// hands it on right and the code writes it otherwise, the code is.
// Shape: a supervisor's team in plain named messages.
func TestDataFlowOriginRelayedMisread(t *testing.T) {
	q := "What was Tacoma's library spending per resident in 2023, in dollars to two decimals?"
	for _, tt := range []struct {
		name, handed string
		want         []int
	}{
		{"the supervisor relays it transposed", "$19,640,000", []int{3}},
		{"the analyst codes it transposed", "$19,460,000", []int{4}},
	} {
		in := prepare(t, q, "",
			msg{agent: "human", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "researcher: find the Tacoma Public Library's total 2023 spending and Tacoma's 2023 population estimate, with sources."},
			msg{agent: "researcher", content: "Findings: 2023 library spending $19,460,000 (City of Tacoma Biennial Budget, Library Fund); 2023 population 221,776 (Census Vintage 2023)."},
			msg{agent: "supervisor", content: "analyst: divide the 2023 library spending of " + tt.handed + " by the 2023 population of 221,776 and give dollars per resident to two decimals."},
			msg{agent: "analyst", content: "```python\nspending = 19_640_000\npopulation = 221_776\nprint(round(spending / population, 2))\n```\nOutput: 88.56\n\nLibrary spending per resident: $88.56"},
			msg{agent: "supervisor", content: "FINAL ANSWER: $88.56"},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// TestDataFlowOriginRelayedMisreadOverSteps: the analyst that computes
// over steps of its own (its call, the call's output, its report) with a
// figure the planner handed on transposed (18.4 TWh for the 14.8 TWh the
// search found) carried the planner's slip; where the planner hands it on
// right and the analyst's call writes it transposed, the analyst is
// where (its report, which the data flow reaches first).
// Shape: an AutoGen selector chat whose function calls are logged as text.
func TestDataFlowOriginRelayedMisreadOverSteps(t *testing.T) {
	q := "What share of Norway's electricity generation in 2022 came from wind power, as a percentage to one decimal?"
	for _, tt := range []struct {
		name, handed string
		want         []int
	}{
		{"the planner relays it transposed", "18.4", []int{3}},
		{"the analyst's call writes it transposed", "14.8", []int{6}},
	} {
		in := prepare(t, q, "",
			msg{agent: "human", content: q, kind: run.KindUser},
			msg{agent: "web_search_agent", content: "[FunctionExecutionResult(content='Statistics Norway: electricity production in 2022 was 146.1 TWh. Wind power produced 14.8 TWh.', call_id='call_7')]"},
			msg{agent: "web_search_agent", content: "SSB reports 146.1 TWh in 2022, of which wind power produced 14.8 TWh."},
			msg{agent: "planner", content: "data_analyst: compute the wind share as " + tt.handed + " TWh of 146.1 TWh, as a percentage to one decimal."},
			msg{agent: "data_analyst", content: `[FunctionCall(name='python', arguments='{"code": "print(round(18.4 / 146.1 * 100, 1))"}')]`},
			msg{agent: "data_analyst", content: "[FunctionExecutionResult(content='12.6', call_id='call_9')]"},
			msg{agent: "data_analyst", content: "Wind share of 2022 generation: 12.6%."},
			msg{agent: "planner", content: "The wind share was 12.6%. TERMINATE"},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// TestUnsupportedArgumentsOfCode: a call given code to run (an
// execute_code tool of an agent that acts by calling app APIs in Python)
// is read by what the code hands the functions it calls, not by the code
// as a whole, which no step ever writes before: an API's or a field's
// name, a print's label and an address a listing gave are no values made
// up; an address or an answer no step gave is.
func TestUnsupportedArgumentsOfCode(t *testing.T) {
	const task = "Send $30 to my friend Kevin Harris on Venmo, then tell me the total I sent in 2022."
	for _, tt := range []struct {
		name, code string
		want       []int
	}{
		{"reads a doc", "print(apis.api_docs.show_api_doc(app_name='venmo', api_name='create_transaction'))", nil},
		{"labels its output", "for s in songs:\n    print(s['title'], 'plays', s['play_count'])", nil},
		{"an address the listing gave", "print(apis.venmo.create_transaction(receiver_email='k.harris@gmail.com', amount=30, access_token=access_token))", nil},
		{"an address no step gave", "print(apis.venmo.create_transaction(receiver_email='kharris77@gmail.com', amount=30, access_token=access_token))", []int{3}},
		{"the answer printed", "apis.supervisor.complete_task(answer=1247.35)", nil},
		{"an answer not printed", "apis.supervisor.complete_task(answer=1274.35)", []int{3}},
	} {
		args, err := json.Marshal(map[string]string{"code": tt.code})
		require.NoError(t, err)
		in := prepare(t, task, "",
			msg{agent: "user", content: task, kind: run.KindUser},
			msg{agent: "assistant", content: `execute_code({"code": "contacts = apis.phone.search_contacts(query='Kevin')\nprint(contacts)"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Kevin Harris k.harris@gmail.com\nKevin Hartley kevhartley@gmail.com\nsent in 2022: 1247.35", kind: run.KindToolResult},
			msg{agent: "assistant", content: "execute_code(" + string(args) + ")", kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.name)
	}
}

// TestCodeBlockMiscopiesAFigure: an expert's Python block that a terminal
// runs is a call, so a figure it hands a function that the task writes
// otherwise (2022 for 2021) is made up there (unsupported_arguments); and
// where a later block computed the answer from what that call printed,
// the data flow follows the printed figures back to the miscopied fetch.
// A block with the task's year, or one run by no one, is neither: the
// answer's value then began in the block that computed it, or with the
// figures the agent that was no executor stated.
func TestCodeBlockMiscopiesAFigure(t *testing.T) {
	const task = "By what percentage did TSLA's closing price change over 2021, from its first to its last trading day? Round to one decimal."
	for _, tt := range []struct {
		name, year, reply string
		unsupported, flow []int
	}{
		{"another year", "2022", "exitcode: 0 (execution succeeded)\nCode output: \n399.93\n123.18\n", []int{1}, []int{1}},
		{"the task's year", "2021", "exitcode: 0 (execution succeeded)\nCode output: \n399.93\n123.18\n", nil, []int{3}},
		{"no one runs it", "2022", "The first close is 399.93 and the last 123.18.", nil, []int{2}},
	} {
		in := prepare(t, task, "",
			msg{agent: "Finance_Expert", content: task},
			msg{agent: "Finance_Expert", content: "```python\ndata = yf.download(\"TSLA\", start=\"" + tt.year + "-01-01\", end=\"" + tt.year + "-12-31\")\nprint(data['Close'].iloc[0])\nprint(data['Close'].iloc[-1])\n```"},
			msg{agent: "Computer_terminal", content: tt.reply},
			msg{agent: "DataAnalysis_Expert", content: "```python\nfirst_close = 399.93\nlast_close = 123.18\nprint(round((last_close - first_close) / first_close * 100, 1))\n```"},
			msg{agent: "Computer_terminal", content: "exitcode: 0 (execution succeeded)\nCode output: \n-69.2\n"},
			msg{agent: "Verification_Expert", content: "The percentage change over the year is -69.2.\n\nTERMINATE"},
		)
		assert.Equal(t, tt.unsupported, steps(UnsupportedArguments.Run(in), true), tt.name)
		assert.Equal(t, tt.flow, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// TestCodeBlockMiscopiesAnIssueNumber: the dates a later block worked the
// answer out from were printed by a fetch whose issue number has two
// digits swapped: the data flow follows the dates back to it. With the
// task's number the block that computed the answer is where it began.
func TestCodeBlockMiscopiesAnIssueNumber(t *testing.T) {
	const task = "How many days was issue #48123 of the pandas-dev/pandas repository open before it was closed?"
	for _, tt := range []struct {
		name, issue string
		want        []int
	}{
		{"digits swapped", "48213", []int{1}},
		{"the task's issue", "48123", []int{3}},
	} {
		in := prepare(t, task, "",
			msg{agent: "user_proxy", content: task},
			msg{agent: "assistant", content: "```python\nimport requests\n\nissue = requests.get(\"https://api.github.com/repos/pandas-dev/pandas/issues/" + tt.issue + "\").json()\nprint(issue[\"created_at\"])\nprint(issue[\"closed_at\"])\n```"},
			msg{agent: "user_proxy", content: "exitcode: 0 (execution succeeded)\nCode output: \n2022-08-23T14:02:51Z\n2022-10-04T09:15:33Z\n"},
			msg{agent: "assistant", content: "```python\nfrom datetime import datetime\n\ncreated = datetime.fromisoformat(\"2022-08-23T14:02:51\")\nclosed = datetime.fromisoformat(\"2022-10-04T09:15:33\")\nprint((closed - created).days)\n```"},
			msg{agent: "user_proxy", content: "exitcode: 0 (execution succeeded)\nCode output: \n41\n"},
			msg{agent: "assistant", content: "The issue was open for 41 days before it was closed.\n\nTERMINATE"},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.name)
	}
}

// TestTimesHeld: a time a call writes on a 24-hour clock that the task
// writes in words or with am or pm ("7:30 in the evening", "half past
// seven pm") is the time the guest gave, not one made up; the same hour
// on the other side of noon is another time. Shape: a restaurant booking
// assistant as an OpenAI chat transcript with tool calls.
func TestTimesHeld(t *testing.T) {
	for _, tt := range []struct {
		ask, time string
		want      []int
	}{
		{"Book a table for two at Lune at 7:30 in the evening.", "19:30", nil},
		{"Book a table for two at Lune at half past seven pm.", "19:30", nil},
		{"Book a table for two at Lune at half past seven in the evening.", "7:30 PM", nil},
		{"Book a table for two at Lune at 7:30 in the evening.", "07:30", []int{1}},
		{"Book a table for two at Lune at 7:30 in the morning.", "19:30", []int{1}},
		{"Book a table for two at Lune at 7:30 pm.", "20:30", []int{1}},
		{"Book a table for two at Lune, some time after 7?", "19:00", nil},
		{"Book a table for two at Lune, some time after 7?", "20:00", []int{1}},
		{"Book a table for two at Lune for after 7 days.", "19:00", []int{1}},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `book_table({"restaurant": "Lune", "time": "` + tt.time + `", "party_size": 2})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"booking_id": "LU-3391", "status": "confirmed"}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.ask+" "+tt.time)
	}
}

// TestMonthsHeld: a month a call writes in figures ("2026-06",
// "06/2026") that the task writes in words ("June 2026"), or the other
// way round, is the month the task gave, not one made up; another month
// is made up. Shape: a research agent as an OpenAI chat transcript with
// tool calls.
func TestMonthsHeld(t *testing.T) {
	for _, tt := range []struct {
		ask, month string
		want       []int
	}{
		{"How many battery-electric buses does the transit authority run as of June 2026?", "2026-06", nil},
		{"How many battery-electric buses does the transit authority run as of June 2026?", "06/2026", nil},
		{"How many battery-electric buses does the transit authority run as of 06/2026?", "June 2026", nil},
		{"How many battery-electric buses does the transit authority run as of 2026-06?", "06/2026", nil},
		{"How many battery-electric buses does the transit authority run as of June 2026?", "2026-05", []int{1}},
		{"How many battery-electric buses does the transit authority run as of June 2026?", "06/2025", []int{1}},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "researcher", content: `fleet_lookup({"propulsion": "battery-electric", "as_of": "` + tt.month + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"fleet_size": 2317}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.ask+" "+tt.month)
	}
}

// TestOtherRecordOfSpelledID: a flight the user names with a space
// between its carrier and its number ("UA 2275") is the listing's
// "UA2275"; a booking of the other flight the listing gives beside it
// ("UA2257") acts on another record than the one named, and one of the
// named flight does not. Shape: a travel assistant as an OpenAI chat
// transcript with tool calls.
func TestOtherRecordOfSpelledID(t *testing.T) {
	for _, tt := range []struct {
		named, booked string
		want          []int
	}{
		{"UA 2275", "UA2257", []int{3}},
		{"UA-2275", "UA2257", []int{3}},
		{"UA 2275", "UA2275", nil},
		{"UA2275", "UA2275", nil},
	} {
		ask := "Please book one seat on " + tt.named + " from Denver to Chicago on 2025-04-09."
		in := prepare(t, ask, "",
			msg{agent: "user", content: ask, kind: run.KindUser},
			msg{agent: "assistant", content: `search_flights({"origin": "Denver", "destination": "Chicago", "date": "2025-04-09"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"flights": [{"flight": "UA2275", "departs": "08:10", "fare_usd": 219}, {"flight": "UA2257", "departs": "14:40", "fare_usd": 189}]}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: `book_flight({"flight": "` + tt.booked + `", "date": "2025-04-09", "passengers": 1})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"record_locator": "QX7PLM", "status": "ticketed"}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.named+" "+tt.booked)
	}
}

// TestCancelsAnotherOfTheUsersRecords: a user who names one of their
// bookings by its code ("HKEG34"), or an order by its number
// ("#W2378156"), and confirms, has named that one; a cancellation of
// another the user's record lists beside it acts on a record no one
// named, though a tool's output printed it. A cancellation of the one
// named, or of one the user named too, is not one. Shape: tau2-bench's
// airline and retail domains, OpenAI chat with tool calls.
func TestCancelsAnotherOfTheUsersRecords(t *testing.T) {
	for _, tt := range []struct {
		ask, key, listed, cancelled string
		want                        []int
	}{
		{"Please cancel reservation HKEG34, my user id is mia_li_3668.", "reservation_id", `["NO6JO3", "AIXC49", "HKEG34"]`, "AIXC49", []int{5}},
		{"Please cancel reservation HKEG34, my user id is mia_li_3668.", "reservation_id", `["NO6JO3", "AIXC49", "HKEG34"]`, "HKEG34", nil},
		{"Please cancel reservations HKEG34 and AIXC49, my user id is mia_li_3668.", "reservation_id", `["NO6JO3", "AIXC49", "HKEG34"]`, "AIXC49", nil},
		{"Please cancel order #W2378156, my user id is mia_li_3668.", "order_id", `["#W2378156", "#W5199551"]`, "#W5199551", []int{5}},
		{"Please cancel order #W2378156, my user id is mia_li_3668.", "order_id", `["#W2378156", "#W5199551"]`, "#W2378156", nil},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `get_user_details({"user_id": "mia_li_3668"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"user_id": "mia_li_3668", "items": ` + tt.listed + `}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: "I can cancel it for you. Shall I go ahead?"},
			msg{agent: "user", content: "Yes, please cancel it.", kind: run.KindUser},
			msg{agent: "assistant", content: `cancel({"` + tt.key + `": "` + tt.cancelled + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"` + tt.key + `": "` + tt.cancelled + `", "status": "cancelled"}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.ask+" "+tt.cancelled)
	}
}

// TestPhonesHeld: a number to dial a call writes without the punctuation
// the customer gave it ("4155550132" for "(415) 555-0132"), or with its
// country's code, is the customer's, not made up; a number one digit
// apart is not. Shape: a telecom support assistant as an OpenAI chat
// transcript with tool calls.
func TestPhonesHeld(t *testing.T) {
	for _, tt := range []struct {
		said, call string
		want       []int
	}{
		{"(415) 555-0132", "4155550132", nil},
		{"415.555.0132", "415-555-0132", nil},
		{"(415) 555-0132", "+14155550132", nil},
		{"(415) 555-0132", "4155550123", []int{1}},
		{"(415) 555-0132", "4155550", []int{1}},
		{"+44 20 7946 0958", "+442079460958", nil},
		{"020 7946 0958", "+44 20 7946 0958", nil},
		{"07700 900123", "+447700900123", nil},
		{"0151 2345 6789", "+4915123456789", nil},
		{"+91 98765 43210", "9876543210", nil},
		{"+44 20 7946 0958", "+442079460321", []int{1}},
		{"020 7946 0958", "+12079460958", []int{1}},
	} {
		ask := "My phone was stolen. The number is " + tt.said + ", please suspend that line."
		in := prepare(t, ask, "",
			msg{agent: "user", content: ask, kind: run.KindUser},
			msg{agent: "assistant", content: `get_customer_by_phone({"phone_number": "` + tt.call + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"customer_id": "C-77120", "name": "Rita Osei"}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.said+" "+tt.call)
	}
}

// TestRelativeDatesWithoutToday: where no step states a date, a call's
// date for a day the user named from today ("tomorrow") is the caller's
// own working-out, not made up; with no such day named, or with today's
// date stated and the call's far from it, it is. Shape: a search
// assistant as an OpenAI chat transcript with tool calls.
func TestRelativeDatesWithoutToday(t *testing.T) {
	for _, tt := range []struct {
		system, ask string
		want        []int
	}{
		{"You answer questions with tools.", "What time is sunset in Oslo tomorrow?", nil},
		{"You answer questions with tools.", "What time is sunset in Oslo?", []int{2}},
		{"You answer questions with tools. Today is 2025-03-01.", "What time is sunset in Oslo tomorrow?", []int{2}},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "system", content: tt.system, kind: run.KindSystem},
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `get_sun_times({"city": "Oslo", "date": "2025-05-03"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"city": "Oslo", "date": "2025-05-03", "sunset": "21:22"}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.ask+" "+tt.system)
	}
}

// TestUnconfirmedActionScopedPolicy: a policy that makes one action wait
// for the customer's yes in other words ("Suspending a line needs the
// customer's yes.") asks for confirmation of that action, not of others;
// a policy that confirms only an identity asks for none.
func TestUnconfirmedActionScopedPolicy(t *testing.T) {
	for _, tt := range []struct {
		name, policy, call string
		want               []int
	}{
		{"the action named", "Suspending a line needs the customer's yes.", "suspend_line", []int{4}},
		{"another action", "Suspending a line needs the customer's yes.", "add_roaming", nil},
		{"read back and get a yes", "Before suspending, read the change back to the customer and get a yes.", "suspend_line", []int{4}},
		{"an identity confirmed", "Confirm the customer's identity before any account action.", "suspend_line", nil},
		{"a confirmation the customer may send", "The customer may confirm changes by email.", "suspend_line", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "My daughter lost her phone, the line ending 0177.", "",
				msg{agent: "system", content: tt.policy, kind: run.KindSystem},
				msg{agent: "user", content: "My daughter lost her phone, the line ending 0177.", kind: run.KindUser},
				msg{agent: "assistant", content: `get_line({"line": "555-0177"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"line": "555-0177", "status": "active"}`, kind: run.KindToolResult},
				msg{agent: "assistant", content: tt.call + `({"line": "555-0177"})`, kind: run.KindToolCall},
			)
			assert.Equal(t, tt.want, steps(UnconfirmedAction.Run(in), true))
		})
	}
}

// TestUnconfirmedActionOnAnotherAmount: an agent proposes a sum ("a
// refund of $14.00"), the customer agrees, and the call moves another
// sum (the order's total, which the lookup printed): the call does not do
// what was agreed, whether or not a policy asks for confirmation. A call
// given the sum agreed, or the total of the sums proposed, did; so did
// one the other party never agreed to, which is the policy's to judge.
// Shape: an OpenAI Swarm refunds agent's messages.
func TestUnconfirmedActionOnAnotherAmount(t *testing.T) {
	for _, tt := range []struct {
		name, policy, offer, reply, amount string
		want                               []int
	}{
		{"another sum, no policy", "", "I can refund $14.00 for the chipped mug. Shall I go ahead?", "Yes, please.", "32.95", []int{6}},
		{"another sum under a policy", "Confirm every refund with the customer before issuing it.", "I can refund $14.00 for the chipped mug. Shall I go ahead?", "Yes, please.", "32.95", []int{6}},
		{"the sum agreed", "", "I can refund $14.00 for the chipped mug. Shall I go ahead?", "Yes, please.", "14.0", nil},
		{"the total of the sums proposed", "", "I can refund $14.00 for the mug and the $4.95 shipping. Shall I go ahead?", "Yes, please.", "18.95", nil},
		{"no agreement", "", "I can refund $14.00 for the chipped mug. Shall I go ahead?", "What about the shipping?", "32.95", nil},
		{"another sum, the offer's currency in words", "", "I can refund 14 dollars for the chipped mug. Shall I go ahead?", "Yes, please.", "32.95", []int{6}},
		{"another sum, the offer's in a code", "", "I can refund 14.00 USD for the chipped mug. Shall I go ahead?", "Yes, please.", "32.95", []int{6}},
		{"the sum agreed in cents", "", "I can refund $14.00 for the chipped mug. Shall I go ahead?", "Yes, please.", "1400", nil},
		{"another sum in cents", "", "I can refund $14.00 for the chipped mug. Shall I go ahead?", "Yes, please.", "3295", []int{6}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "One of the two mugs in order 5518 arrived chipped. Can I get a refund for that mug?", "",
				msg{agent: "system", content: "You are the refunds agent of a shop." + tt.policy, kind: run.KindSystem},
				msg{agent: "user", content: "One of the two mugs in order 5518 arrived chipped. Can I get a refund for that mug?", kind: run.KindUser},
				msg{agent: "Refunds Agent", content: `look_up_order({"order_id": "5518"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `{"order_id": "5518", "items": [{"sku": "MUG-BLU", "qty": 2, "unit_price": 14.0}], "shipping": 4.95, "total": 32.95}`, kind: run.KindToolResult},
				msg{agent: "Refunds Agent", content: tt.offer},
				msg{agent: "user", content: tt.reply, kind: run.KindUser},
				msg{agent: "Refunds Agent", content: `execute_refund({"order_id": "5518", "amount": ` + tt.amount + `})`, kind: run.KindToolCall},
			)
			fs := UnconfirmedAction.Run(in)
			assert.Equal(t, tt.want, steps(fs, true), "%v", fs)
		})
	}
}

// TestPhoneFromPageHeld: a number to dial a call saves as its country
// dials it ("020 7323 8000") that a search result printed after the
// country's code ("+44 (0)20 7323 8000") is the page's, not made up; a
// number the page does not print is. Shape: a search assistant as an
// OpenAI chat transcript with tool calls.
func TestPhoneFromPageHeld(t *testing.T) {
	for _, tt := range []struct {
		saved string
		want  []int
	}{
		{"020 7323 8000", nil},
		{"+442073238000", nil},
		{"020 7323 8008", []int{3}},
	} {
		ask := "Find the British Museum's phone number and save it to my contacts."
		in := prepare(t, ask, "",
			msg{agent: "user", content: ask, kind: run.KindUser},
			msg{agent: "assistant", content: `web_search({"query": "British Museum phone number"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "British Museum - Great Russell St, London WC1B 3DG. Telephone: +44 (0)20 7323 8000. Open daily 10:00-17:00.", kind: run.KindToolResult},
			msg{agent: "assistant", content: `save_contact({"name": "British Museum", "phone": "` + tt.saved + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"contact_id": "ct_8812"}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.saved)
	}
}

// TestUnconfirmedActionDeferredYes: under a policy that asks for the
// customer's yes, a yes the customer puts off until a supervisor signs
// off is not it, and the change made on it is unconfirmed; a plain yes
// is. Shape: a travel desk as an OpenAI chat transcript with tool calls.
func TestUnconfirmedActionDeferredYes(t *testing.T) {
	for _, tt := range []struct {
		reply string
		want  []int
	}{
		{"Yes, please move it.", nil},
		{"Yes, once my supervisor signs off on the fare difference.", []int{6}},
		{"Yes, after the manager approves.", []int{6}},
		{"Yes, please move it. Let me know once the change is approved.", nil},
	} {
		ask := "Please move my booking TRV-55081 to Wednesday's flight."
		in := prepare(t, ask, "",
			msg{agent: "system", content: "Before changing a booking, read back the change and get the traveller's explicit yes.", kind: run.KindSystem},
			msg{agent: "user", content: ask, kind: run.KindUser},
			msg{agent: "assistant", content: `get_booking({"booking_ref": "TRV-55081"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"booking_ref": "TRV-55081", "flight": "LH 903", "date": "2026-04-14"}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: "I'll move TRV-55081 to LH 903 on 2026-04-15; the fare difference is £86. Shall I go ahead?", kind: run.KindMessage},
			msg{agent: "user", content: tt.reply, kind: run.KindUser},
			msg{agent: "assistant", content: `change_flight({"booking_ref": "TRV-55081", "flight": "LH 903", "date": "2026-04-15"})`, kind: run.KindToolCall},
		)
		assert.Equal(t, tt.want, steps(UnconfirmedAction.Run(in), true), tt.reply)
	}
}

// TestCurrencyNamedHeld: a currency's code a call is given ("EUR",
// "USD") that the question or a page names by its sign or its name ("in
// US dollars", "twenty-five euros", "£34") is theirs, not made up; a
// code no step names any way is. Shape: a search assistant as an OpenAI
// chat transcript with tool calls.
func TestCurrencyNamedHeld(t *testing.T) {
	for _, tt := range []struct {
		ask, page, from, to string
		want                []int
	}{
		{"How much is entry to the Rijksmuseum in US dollars?", "Adults pay twenty-five euros.", "EUR", "USD", nil},
		{"How much is a Tower of London ticket in euros?", "An adult ticket costs £34.80 online.", "GBP", "EUR", nil},
		{"How much is entry to the Rijksmuseum in US dollars?", "Adults pay twenty-five euros.", "EUR", "JPY", []int{3}},
		{"How much is entry to the Rijksmuseum in US dollars?", "Adults pay twenty-five.", "CHF", "USD", []int{3}},
	} {
		in := prepare(t, tt.ask, "",
			msg{agent: "user", content: tt.ask, kind: run.KindUser},
			msg{agent: "assistant", content: `search({"q": "` + tt.ask + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: tt.page, kind: run.KindToolResult},
			msg{agent: "assistant", content: `convert_currency({"amount": 25, "from": "` + tt.from + `", "to": "` + tt.to + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"result": 27.13}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.from+" "+tt.to)
	}
}

// TestMoneyWrittenOtherwiseHeld: an amount a call is given that the
// customer or a page wrote in words ("a hundred and twenty dollars",
// "twenty-one pounds and fifty pence") or as much of Europe writes it
// ("1.200 €", "8,00 €") is theirs, not made up; another amount is. Shape:
// a support assistant as an OpenAI chat transcript with tool calls.
func TestMoneyWrittenOtherwiseHeld(t *testing.T) {
	for _, tt := range []struct {
		said, amount string
		want         []int
	}{
		{"I was promised a hundred and twenty dollars back.", "120", nil},
		{"The ticket was twenty-one pounds and fifty pence.", "21.5", nil},
		{"Please put fifty pounds on my account.", "50", nil},
		{"Bitte 1.200 € auf mein Sparkonto überweisen.", "1200", nil},
		{"Die Tageskarte kostet 8,00 €, bitte erstatten.", "8", nil},
		{"I was promised a hundred and twenty dollars back.", "210", []int{1}},
	} {
		in := prepare(t, tt.said, "",
			msg{agent: "user", content: tt.said + " Account AC-55102.", kind: run.KindUser},
			msg{agent: "assistant", content: `apply_credit({"account_id": "AC-55102", "amount": ` + tt.amount + `})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"status": "applied"}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.said+" "+tt.amount)
	}
}

// TestAnswerSlipsADecimalFigure: a writer that writes the researcher's
// 14.8 GW as 18.4 GW, in a unit extract does not read, put its own figure
// in the answer as the writer of 1,824 beds for 1,284 does: the decimal
// point is no digit of the slip. Copied right, the origins are the
// researchers' searches. Shape: a research supervisor with two
// researchers (web_search) and a writer, in OpenAI chat with tool calls
// and a name per agent.
func TestAnswerSlipsADecimalFigure(t *testing.T) {
	q := "Compare the offshore wind capacity of the UK and Germany at the end of 2024."
	for _, tt := range []struct {
		uk   string
		want []int
	}{
		{"18.4", []int{9}},
		{"14.8", []int{2, 5}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "supervisor", content: "researcher_1: UK offshore wind capacity, end of 2024. researcher_2: Germany's."},
			msg{agent: "researcher_1", content: `web_search({"query": "UK offshore wind capacity end of 2024"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "RenewableUK: at the end of 2024 the UK had 14.8 GW of offshore wind fully operational.", kind: run.KindToolResult},
			msg{agent: "researcher_1", content: "UK: 14.8 GW operational at the end of 2024."},
			msg{agent: "researcher_2", content: `web_search({"query": "Germany offshore wind capacity end of 2024"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "Deutsche WindGuard: by 31 December 2024, turbines with 9.2 GW fed the German grid.", kind: run.KindToolResult},
			msg{agent: "researcher_2", content: "Germany: 9.2 GW at the end of 2024."},
			msg{agent: "supervisor", content: "writer: compose the comparison from the notes."},
			msg{agent: "writer", content: "At the end of 2024 the UK had " + tt.uk + " GW of offshore wind against 9.2 GW in Germany."},
		)
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.uk)
	}
}

// TestFannedOutResearcherMisreadsItsPage: of two researchers a lead sent
// out on sub-questions, one reports its page's 34.6 km as 36.4 km; the
// writer carries both figures. The other researcher's 57.1 km, printed by
// its page and carried as printed, was read right: the misread is the
// answer's one origin. Read right, the origins are the two calls. Shape:
// a lead, two researchers (web_search, fetch_page) and a writer, in
// OpenAI chat with tool calls and a name per agent.
func TestFannedOutResearcherMisreadsItsPage(t *testing.T) {
	q := "How much longer is the Gotthard Base Tunnel than the Lötschberg Base Tunnel? Answer in kilometres."
	for _, tt := range []struct {
		length, diff string
		want         []int
	}{
		{"36.4", "20.7", []int{7}},
		{"34.6", "22.5", []int{2, 8, 5}},
	} {
		in := prepare(t, q, "",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "lead", content: "researcher_1: find the length of the Gotthard Base Tunnel in km.\nresearcher_2: find the length of the Lötschberg Base Tunnel in km."},
			msg{agent: "researcher_1", content: `web_search({"query": "Gotthard Base Tunnel length km"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "AlpTransit: The Gotthard Base Tunnel is 57.1 km long, the longest railway tunnel in the world.", kind: run.KindToolResult},
			msg{agent: "researcher_1", content: "The Gotthard Base Tunnel is 57.1 km long (AlpTransit Gotthard)."},
			msg{agent: "researcher_2", content: `fetch_page({"url": "https://www.bls.ch/en/loetschberg-basistunnel"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: "The Lötschberg Base Tunnel between Frutigen and Raron is 34.6 km long. It opened in December 2007.", kind: run.KindToolResult},
			msg{agent: "researcher_2", content: "The Lötschberg Base Tunnel is " + tt.length + " km long (BLS)."},
			msg{agent: "writer", content: "The Gotthard Base Tunnel (57.1 km) is " + tt.diff + " km longer than the Lötschberg Base Tunnel (" + tt.length + " km)."},
		)
		for _, cf := range in.Graph.AnswerFlow() {
			t.Logf("%s origin %d", cf.Claim, cf.Origin)
		}
		assert.Equal(t, tt.want, steps(DataFlowOrigin.Run(in), true), tt.length)
	}
}

// TestWriterMisquotesBesideTheSubject: with the correct answer 172.5, a
// writer that writes the researcher's 172.5 m as 175.2 m beside the
// tower's name puts the figure forward, not the name the planner and the
// task gave: the writer's is the first step to contradict the correct
// answer. Shape: a planner, a researcher, a writer and a reviewer of a
// deep-research team, in chat.
func TestWriterMisquotesBesideTheSubject(t *testing.T) {
	q := "How tall is the Sagrada Família's Tower of Jesus Christ, completed in 2026, in metres?"
	for _, tt := range []struct {
		height string
		want   []int
	}{
		{"175.2", []int{3}},
	} {
		in := prepare(t, q, "172.5",
			msg{agent: "user", content: q, kind: run.KindUser},
			msg{agent: "Planner", content: "Sub-questions:\n1. (Researcher) Height of the Tower of Jesus Christ at the Sagrada Família, from the basilica's own site.\n2. (Writer) One-sentence answer with the citation."},
			msg{agent: "Researcher", content: "Page: \"With its 172.5 metres, the Tower of Jesus Christ will make the Sagrada Família the tallest church in the world.\"\nNote: the Tower of Jesus Christ is 172.5 m tall [sagradafamilia.org]."},
			msg{agent: "Writer", content: "The Tower of Jesus Christ rises " + tt.height + " metres, making the Sagrada Família the world's tallest church (sagradafamilia.org)."},
			msg{agent: "Reviewer", content: "Checked against the researcher's note: figure and source are correct. Approved."},
		)
		assert.Equal(t, tt.want, steps(GroundTruthContradiction.Run(in), true), tt.height)
	}
}

// TestUnconfirmedActionGivenANumberedID: an agent proposes a stay at
// its price ("comes to $378"), the customer agrees, and the booking call
// names the hotel by a number ("hotel_id": 40417) and gives no sum, as
// the tool prices the stay itself: the id is no sum the call moves, and
// the call does what was agreed. A call that gives another sum does not.
// Shape: a travel agent's OpenAI chat transcript with tool calls.
func TestUnconfirmedActionGivenANumberedID(t *testing.T) {
	for _, tt := range []struct {
		name, args string
		want       []int
	}{
		{"an id by number, no sum", `{"hotelId": 40417, "nights": 2}`, nil},
		{"an id by number under _id, no sum", `{"hotel_id": 40417, "room_ID": 3312, "nights": 2}`, nil},
		{"an id by number and another sum", `{"hotel_id": 40417, "nights": 2, "total": 418.0}`, []int{5}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Book me two nights at the Harbour Inn from May 3.", "",
				msg{agent: "user", content: "Book me two nights at the Harbour Inn from May 3.", kind: run.KindUser},
				msg{agent: "assistant", content: `search_hotels({"name": "Harbour Inn"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `[{"hotel_id": 40417, "name": "Harbour Inn", "nightly": 189.0}]`, kind: run.KindToolResult},
				msg{agent: "assistant", content: "The Harbour Inn has a room at $189 a night, so two nights from May 3 come to $378. Shall I book it?"},
				msg{agent: "user", content: "Yes, please book it.", kind: run.KindUser},
				msg{agent: "assistant", content: `book_hotel(` + tt.args + `)`, kind: run.KindToolCall},
			)
			fs := UnconfirmedAction.Run(in)
			assert.Equal(t, tt.want, steps(fs, true), "%v", fs)
		})
	}
}

// TestVerdictThatGivesUp: a ledger that declares the request satisfied
// while judging in the same breath that the team made no progress (a page
// that never loaded, then an answer guessed) accepted no result: the
// decision to stop is its own. It judges no step a failure (feedback), and
// the step before it shares no blame (premature_satisfaction). A ledger
// that judges progress made and the request satisfied still shares the
// blame with the result it accepted.
func TestVerdictThatGivesUp(t *testing.T) {
	const failed = "I clicked 'Brindle Cove census page'. The page shows: 502 Bad Gateway."
	in := surferReports(t, "4312", failed, false)
	assert.Empty(t, steps(Feedback.Run(in), true), "a ledger that gives up judges no step a failure")
	fs := PrematureSatisfaction.Run(in)
	require.Len(t, fs, 1, "the step before a ledger that gave up shares no blame")
	assert.Equal(t, 4, fs[0].Step)
	assert.Len(t, PrematureSatisfaction.Run(surferReports(t, "4312", failed, true)), 2, "a ledger that judges progress made accepted the result before it")
}

// TestUnconfirmedActionOnAnotherPickedRecord: a customer picks one of
// the slots the assistant offered ("The 10 am one please"): a booking of
// another slot acts on another record than the one picked, policy or
// not. A pick with a yes after it, or one that answers a proposal of that
// one slot, agrees to it; a pick alone among the choices asked about
// ("Which would you like?") confirms nothing a policy asks confirmed.
// Shape: a scheduling assistant's chat transcript with tool calls.
func TestUnconfirmedActionOnAnotherPickedRecord(t *testing.T) {
	policy := "Read back the appointment and get the customer's yes before booking."
	slots := `[{"slot_id": "HAT170", "stylist": "Ines", "start": "2026-03-04T10:00"}, {"slot_id": "HAT214", "stylist": "Marta", "start": "2026-03-04T14:30"}]`
	which := "On Wednesday there is 10 am with Ines or 2:30 pm with Marta. Which would you like?"
	shall := "On Wednesday Ines has 10 am free. Shall I book you in with her?"
	for _, tt := range []struct {
		name, ask, reply, slot string
		want                   []int
		noPolicy               bool
	}{
		{"the slot picked, with a yes", which, "The 10 am one please, HAT170. Yes, book it.", "HAT170", nil, false},
		{"the slot picked, unconfirmed", which, "Ines at 10:00 please", "HAT170", []int{6}, false},
		{"the slot proposed, picked", shall, "Ines at 10:00 please", "HAT170", nil, false},
		{"another slot than picked, with a yes", which, "The 10 am one please, HAT170. Yes, book it.", "HAT214", []int{6}, false},
		{"another slot than picked", which, "Ines at 10:00 please", "HAT214", []int{6}, false},
		{"no pick", which, "Hmm, let me think.", "HAT170", []int{6}, false},
		{"another slot than picked, no policy", which, "Ines at 10:00 please", "HAT214", []int{6}, true},
		{"the slot picked, no policy", which, "Ines at 10:00 please", "HAT170", nil, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sys := policy
			if tt.noPolicy {
				sys = "You are a salon's booking assistant."
			}
			in := prepare(t, "Book me a haircut on Wednesday.", "",
				msg{agent: "system", content: sys, kind: run.KindSystem},
				msg{agent: "user", content: "Book me a haircut on Wednesday.", kind: run.KindUser},
				msg{agent: "assistant", content: `list_slots({"date": "2026-03-04"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: slots, kind: run.KindToolResult},
				msg{agent: "assistant", content: tt.ask},
				msg{agent: "user", content: tt.reply, kind: run.KindUser},
				msg{agent: "assistant", content: `book_slot({"slot_id": "` + tt.slot + `"})`, kind: run.KindToolCall},
			)
			assert.Equal(t, tt.want, steps(UnconfirmedAction.Run(in), true))
		})
	}
}

// TestUnconfirmedActionOnAnotherLetteredID: the proposal the customer
// agreed to names a record by an id of capital letters and digits
// ("HAT170", "FR-12"), which a listing prints beside another under one
// field: a call on the other acts on another record than the one agreed.
// Shape: an airline and a ferry line's assistants, OpenAI tool calls.
func TestUnconfirmedActionOnAnotherLetteredID(t *testing.T) {
	for _, tt := range []struct {
		name, listed, named, used string
		want                      []int
	}{
		{"another flight", "HAT107", "HAT170", "HAT107", []int{5}},
		{"the flight named", "HAT107", "HAT170", "HAT170", nil},
		{"another sailing", "FR-11", "FR-12", "FR-11", []int{5}},
		{"the sailing named", "FR-11", "FR-12", "FR-12", nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "Move me to the later departure on May 14.", "",
				msg{agent: "user", content: "Move me to the later departure on May 14.", kind: run.KindUser},
				msg{agent: "assistant", content: `search({"date": "2024-05-14"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `[{"number": "` + tt.listed + `", "seats": 4}, {"number": "` + tt.named + `", "seats": 9}]`, kind: run.KindToolResult},
				msg{agent: "assistant", content: "I'll move you to " + tt.named + " on May 14. Shall I go ahead?"},
				msg{agent: "user", content: "Yes.", kind: run.KindUser},
				msg{agent: "assistant", content: `change_departure({"number": "` + tt.used + `"})`, kind: run.KindToolCall},
			)
			fs := UnconfirmedAction.Run(in)
			assert.Equal(t, tt.want, steps(fs, true), "%v", fs)
		})
	}
}

// TestUnsupportedAnswerOfSizeKeyedField: a figure a tool's JSON gives
// under a key that names its unit ("data_gb": 5) is the size the agent
// then tells in that unit ("5 GB"); another size is not. Shape: a
// telecom support assistant's chat transcript with tool calls.
func TestUnsupportedAnswerOfSizeKeyedField(t *testing.T) {
	for _, tt := range []struct {
		told string
		want []int
	}{
		{"Your Unlimited Lite plan includes 5 GB of data a month.", nil},
		{"Your Unlimited Lite plan includes 8 GB of data a month.", []int{3}},
	} {
		in := prepare(t, "How much data does my plan include?", "",
			msg{agent: "user", content: "How much data does my plan include?", kind: run.KindUser},
			msg{agent: "assistant", content: `get_plan({"line": "L-2210"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"plan": "Unlimited Lite", "data_gb": 5, "timeout_ms": 500}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: tt.told},
		)
		assert.Equal(t, tt.want, steps(UnsupportedAnswer.Run(in), true), tt.told)
	}
}

// TestGroupedIDsHeld: an id the customer reads out in groups ("W 123
// 4567", "4417-2209-18") is the one a call writes whole ("W1234567"), not
// made up; the same groups with a digit other are not. Shape: a retail
// support assistant as an OpenAI chat transcript with tool calls.
func TestGroupedIDsHeld(t *testing.T) {
	for _, tt := range []struct {
		said, call string
		want       []int
	}{
		{"W 123 4567", "W1234567", nil},
		{"W 123 4567", "w1234567", nil},
		{"4417-2209-18", "4417220918", nil},
		{"W 123 4567", "W1234568", []int{1}},
		{"W 123 4567", "W123456", []int{1}},
	} {
		ask := "Where is my order? It's " + tt.said + "."
		in := prepare(t, ask, "",
			msg{agent: "user", content: ask, kind: run.KindUser},
			msg{agent: "assistant", content: `get_order_details({"order_id": "` + tt.call + `"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"status": "shipped"}`, kind: run.KindToolResult},
		)
		assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), tt.said+" "+tt.call)
	}
}

// TestUnsupportedAnswerOfReplacedValue: after a call changes an order's
// address and the tool's output gives the new one, an agent that tells
// the customer the old address tells the record as it was; one that
// tells the new address, or the old beside the new ("from … to …"), does
// not. Shape: a retail support assistant's chat transcript with tool
// calls.
func TestUnsupportedAnswerOfReplacedValue(t *testing.T) {
	for _, tt := range []struct {
		told string
		want []int
	}{
		{"Done: your order will now ship to 12 Oak Street, Leeds.", []int{5}},
		{"Done: your order will now ship to 9 Elm Road, York.", nil},
		{"Done: the address moved from 12 Oak Street, Leeds to 9 Elm Road, York.", nil},
	} {
		in := prepare(t, "Please send order #W2041 to 9 Elm Road, York instead.", "",
			msg{agent: "user", content: "Please send order #W2041 to 9 Elm Road, York instead.", kind: run.KindUser},
			msg{agent: "assistant", content: `get_order({"order_id": "#W2041"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"order_id": "#W2041", "address": "12 Oak Street, Leeds", "status": "pending"}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: `modify_pending_order_address({"order_id": "#W2041", "address": "9 Elm Road, York"})`, kind: run.KindToolCall},
			msg{agent: "tool", content: `{"order_id": "#W2041", "address": "9 Elm Road, York", "status": "pending"}`, kind: run.KindToolResult},
			msg{agent: "assistant", content: tt.told},
		)
		fs := UnsupportedAnswer.Run(in)
		assert.Equal(t, tt.want, steps(fs, true), "%s %v", tt.told, fs)
	}
}

// TestUnsupportedAnswerOfDoneOverFailedScreen: a desktop agent that
// reports the export done right after the output of its last action
// reads a write error hid the failure, though it names no value of the
// call (a click's coordinates); one that tells of the failure, or whose
// later action's output succeeded, hid nothing.
func TestUnsupportedAnswerOfDoneOverFailedScreen(t *testing.T) {
	q := "Export the open document report.odt as PDF to the Desktop."
	failed := "Error saving the document report: Write Error. The file could not be written."
	for _, tt := range []struct {
		name  string
		steps []msg
		want  []int
	}{
		{"done over the error", []msg{call(`click({"x": 150, "y": 431})`), out(failed), {agent: "assistant", content: "The PDF has been exported."}}, []int{3}},
		{"tells of the error", []msg{call(`click({"x": 150, "y": 431})`), out(failed), {agent: "assistant", content: "The export failed: the file could not be written."}}, nil},
		{"a later action succeeded", []msg{call(`click({"x": 150, "y": 431})`), out(failed), call(`click({"x": 600, "y": 331})`), out("Saved report.pdf to Desktop."), {agent: "assistant", content: "The PDF has been exported."}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "", append([]msg{{agent: "user", content: q, kind: run.KindUser}}, tt.steps...)...)
			assert.Equal(t, tt.want, stepsFor(UnsupportedAnswer.Run(in), "failed, and says nothing of the failure"))
		})
	}
}

// TestUnsupportedClaimOfScreenshotReadings: the values a computer-using
// agent reads off the screenshot its last action returned have their
// source there, in an image no text gives; read after a text that lacks
// them, they are made up.
func TestUnsupportedClaimOfScreenshotReadings(t *testing.T) {
	q := "Put the meeting with Dana in my calendar."
	for _, tt := range []struct {
		name, output string
		want         []int
	}{
		{"after a screenshot", "[image]", nil},
		{"after a text", "Calendar opened.", []int{3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "",
				msg{agent: "user", content: q, kind: run.KindUser},
				call(`computer({"action": "screenshot"})`),
				out(tt.output),
				msg{agent: "assistant", content: "The invite says the meeting starts at 14:30 on 2026-12-04 in room 4.12.", kind: run.KindToolCall},
				out("[image]"),
				msg{agent: "assistant", content: "I typed 14:30 on 2026-12-04 in room 4.12."},
			)
			assert.Equal(t, tt.want, steps(UnsupportedClaim.Run(in), true))
		})
	}
}

// TestVerdictThatStopsOnNothingFound: a ledger that declares the request
// satisfied while its own answer says the fact asked for is not stated
// accepted no result either, though it judges progress made: the decision
// to stop is its own, and the surfer's honest report shares no blame.
func TestVerdictThatStopsOnNothingFound(t *testing.T) {
	verdict := func(answer string) *Input {
		return prepare(t, "What was the 2020 population of Brindle Cove?", "4312",
			msg{agent: "human", content: "What was the 2020 population of Brindle Cove?", kind: run.KindUser},
			msg{agent: "Planner", content: "Initial plan:\n\nHere is the plan to follow as best as possible:\n- Ask Surfer to find the census figure.", kind: run.KindThought},
			msg{agent: "Planner", content: "Find the 2020 census population of Brindle Cove.", kind: run.KindInstruction, target: "Surfer"},
			msg{agent: "Surfer", content: "I clicked 'Brindle Cove census page'. The page lists the town's 2010 census tables."},
			msg{agent: "Planner", content: fmt.Sprintf(`Updated Ledger:
{"is_request_satisfied": {"reason": "The request has been fulfilled.", "answer": true},
 "is_in_loop": {"reason": "no", "answer": false},
 "is_progress_being_made": {"reason": "The census page was opened.", "answer": true},
 "next_speaker": {"reason": "done", "answer": "Assistant"},
 "instruction_or_question": {"reason": "answer", "answer": %q}}`, answer), kind: run.KindThought},
			msg{agent: "Planner", content: "FINAL ANSWER: 3900", kind: run.KindTermination},
		)
	}
	fs := PrematureSatisfaction.Run(verdict("The 2020 population is not explicitly stated on the page; answer 3900."))
	require.Len(t, fs, 1, "the surfer's report before a verdict that found nothing shares no blame")
	assert.Equal(t, 4, fs[0].Step)
	assert.Equal(t, 1.0, fs[0].Strength)
	assert.Len(t, PrematureSatisfaction.Run(verdict("The 2020 population is 3900.")), 2, "a verdict on a fact found accepted the result before it")
}

// TestFailedLoadBeforeAVerdictThatGivesUp: a worker that reports honestly
// that its page did not load did not decide the run when the coordinator
// then declares the request satisfied while judging no progress made (it
// answers with a guess): local_fault no longer blames the failed load. A
// failed load that no verdict gives up after is still the worker's fault.
func TestFailedLoadBeforeAVerdictThatGivesUp(t *testing.T) {
	const failed = "I clicked 'Brindle Cove census page'. Here is a screenshot of [Page not found](https://census.example/brindle). The page shows: 404 Page not found."
	for _, progress := range []bool{false, true} {
		fs := LocalFault.Run(surferReports(t, "4312", failed, progress))
		assert.Equal(t, progress, slices.Contains(steps(fs, true), 3), "progress judged %t: %v", progress, fs)
	}
}

// An airport's IATA code given for a city the task names ("LIS" for
// Lisbon, "LHR" for London) names the city's airport, as a flight tool
// asks it: no value the caller made up. The code of a city no step names
// is still made up.
func TestUnsupportedArgumentsAirportOfTheTasksCity(t *testing.T) {
	tests := []struct {
		name, origin, destination string
		want                      []int
	}{
		{"the codes of the task's cities", "LIS", "LHR", nil},
		{"the code of another city", "LIS", "OPO", []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			task := "Find me the cheapest flight from Lisbon to London on 14 March 2026."
			in := prepare(t, task, "",
				msg{agent: "user", content: task, kind: run.KindUser},
				msg{agent: "assistant", content: `search_flights({"origin": "` + tt.origin + `", "destination": "` + tt.destination + `", "date": "2026-03-14"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: `[{"flight": "TP 1350", "price": 89}, {"flight": "BA 501", "price": 112}]`, kind: run.KindToolResult},
				msg{agent: "assistant", content: "The cheapest is TP 1350 at $89."},
			)
			assert.Equal(t, tt.want, steps(UnsupportedArguments.Run(in), true), "unsupported_arguments")
		})
	}
}

// pasted is a developer's message that pastes a test run ending in
// summary, its failures listed before it when it has any.
func pasted(summary string) msg {
	failures := ""
	if strings.Contains(summary, "failed") {
		failures = "FAILED tests/test_cli.py::test_dry_run_copies_nothing - AssertionError: assert 3 == 0\nFAILED tests/test_cli.py::test_dry_run_lists_files - AssertionError: 'would copy' not in ''\n"
	}
	return msg{agent: "developer", content: "Added `--dry-run` to `backup/cli.py` and tests in `tests/test_cli.py`.\n\nTest run:\n```\n$ pytest -q\n................\n" + failures + summary + "\n```"}
}

// TestUnsupportedAnswerOfPassesOverFailedChecks: an agent that tells the
// other party the checks passed right after a check's output reported
// failures (a tool's, or a test run another agent pasted into its
// message) tells a result the output contradicts, whether or not it ran
// the check, and whether or not it makes a call as it says so (a coding
// agent's "all tests pass" beside its submit); one that tells of the failures, or speaks after a later run
// that passed, or whose passing is a condition, does not.
func TestUnsupportedAnswerOfPassesOverFailedChecks(t *testing.T) {
	q := "Check whether build 2.14.0-rc3 is ready to ship, and approve it only if the test suite is green."
	failed := `{"build": "2.14.0-rc3", "passed": 412, "failed": 3, "skipped": 5}`
	report := msg{agent: "qa", content: "The full suite ran on 2.14.0-rc3: 412 passed, 3 failed, 5 skipped."}
	for _, tt := range []struct {
		name  string
		steps []msg
		want  []int
	}{
		{"another agent calls it green", []msg{call(`run_tests({"build": "2.14.0-rc3"})`), out(failed), report, {agent: "release", content: "Thanks. Since the suite is green on 2.14.0-rc3, I'm approving it for release."}}, []int{4}},
		{"its caller says all pass", []msg{call(`run_tests({"build": "2.14.0-rc3"})`), out(failed), {agent: "assistant", content: "All tests pass on 2.14.0-rc3."}}, []int{3}},
		{"its caller says all pass as it makes its next call", []msg{call(`run_tests({"build": "2.14.0-rc3"})`), out(failed), call("All tests pass on 2.14.0-rc3, so I'll submit.\n\nsubmit({})")}, []int{3}},
		{"its caller tells of the failures as it calls again", []msg{call(`run_tests({"build": "2.14.0-rc3"})`), out(failed), call("3 tests failed; rerunning them.\n\nrun_tests({\"build\": \"2.14.0-rc3\"})")}, nil},
		{"tells of the failures", []msg{call(`run_tests({"build": "2.14.0-rc3"})`), out(failed), report, {agent: "release", content: "The suite is not green: 3 tests failed, so I'm holding the release."}}, nil},
		{"a later run passed", []msg{call(`run_tests({"build": "2.14.0-rc3"})`), out(failed), call(`run_tests({"build": "2.14.0-rc4"})`), out(`{"build": "2.14.0-rc4", "passed": 415, "failed": 0}`), {agent: "release", content: "The suite is green on 2.14.0-rc4."}}, nil},
		{"a condition", []msg{call(`run_tests({"build": "2.14.0-rc3"})`), out(failed), {agent: "release", content: "I'll approve it once the suite is green."}}, nil},
		// A team whose agents pass their outputs on as messages: the
		// report another agent pasted is the output before it.
		{"another agent pasted the failing report", []msg{pasted("2 failed, 14 passed in 0.84s"), {agent: "qa", content: "The change is as asked and all 16 tests pass. Ready to merge."}}, []int{2}},
		{"the pasted report passed", []msg{pasted("16 passed in 0.84s"), {agent: "qa", content: "The change is as asked and all 16 tests pass. Ready to merge."}}, nil},
		{"a later pasted report passed", []msg{pasted("2 failed, 14 passed in 0.84s"), {agent: "developer", content: "Fixed the dry run; the suite again:\n```\n$ pytest -q\n................\n16 passed in 0.91s\n```"}, {agent: "qa", content: "All 16 tests pass. Ready to merge."}}, nil},
		{"its own pasted report", []msg{{agent: "qa", content: pasted("2 failed, 14 passed in 0.84s").content}, {agent: "qa", content: "All 16 tests pass. Ready to merge."}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "", append([]msg{{agent: "user", content: q, kind: run.KindUser}}, tt.steps...)...)
			assert.Equal(t, tt.want, stepsFor(UnsupportedAnswer.Run(in), "the checks passed"))
		})
	}
}

// TestUnsupportedAnswerOfAFailedChange: an agent whose edit the editor
// refused, and that then tells of the edit's change as made, tells what
// the output before it contradicts; one that made the change by a later
// call, or tells of the failure, or names only one of the edit's new
// words, does not.
func TestUnsupportedAnswerOfAFailedChange(t *testing.T) {
	q := "slugify drops accented letters; fix it in textkit/slug.py so they are transliterated."
	view := out("def slugify(text):\n    text = text.lower()\n    return text")
	edit := call(`str_replace({"path": "textkit/slug.py", "old_str": "text = text.lower()", "new_str": "text = unicodedata.normalize(\"NFKD\", text).encode(\"ascii\", \"ignore\")"})`)
	refused := out("Error: No replacement was performed, old_str did not appear verbatim in textkit/slug.py.")
	for _, tt := range []struct {
		name  string
		steps []msg
		want  []int
	}{
		{"told as made", []msg{edit, refused, {agent: "assistant", content: "Done: slugify now normalizes the text with unicodedata.normalize('NFKD') first."}}, []int{5}},
		{"made by a later call", []msg{edit, refused, edit, out("The file textkit/slug.py has been edited: text = unicodedata.normalize(\"NFKD\", text)"), {agent: "assistant", content: "Done: slugify now normalizes the text with unicodedata.normalize('NFKD') first."}}, nil},
		{"tells of the failure", []msg{edit, refused, {agent: "assistant", content: "The edit failed, so slugify does not normalize with NFKD yet."}}, nil},
		{"one new word", []msg{edit, refused, {agent: "assistant", content: "Done: slugify now calls normalize on its text."}}, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, q, "", append([]msg{{agent: "user", content: q, kind: run.KindUser}, call(`view({"path": "textkit/slug.py"})`), view}, tt.steps...)...)
			assert.Equal(t, tt.want, stepsFor(UnsupportedAnswer.Run(in), "would have made as made"))
		})
	}
}
