package run

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taSample is one trade date's state as TradingAgents logs it: the
// reports, a debate of two rounds whose turns each history begins with
// the speaker's name, the manager's judgment repeated as the plan, the
// trader's plan, the risk debate under the later names of its sides and
// the judge's decision repeated as the final one.
func taSample() map[string]any {
	return map[string]any{
		"company_of_interest": "ACME", "trade_date": "2025-03-03",
		"market_report":       "Close 41.2, 50 SMA 39.8.",
		"sentiment_report":    "",
		"news_report":         "ACME won a contract.",
		"fundamentals_report": "P/E (TTM): 18.4",
		"investment_debate_state": map[string]any{
			"bull_history":   "\nBull Analyst: P/E 18.4 is cheap.\nBull Analyst: Still cheap:\nsee the contract.",
			"bear_history":   "\nBear Analyst: Margins fall.\nBear Analyst: The trend is weak.",
			"history":        "\nBull Analyst: P/E 18.4 is cheap.\nBear Analyst: Margins fall.\nBull Analyst: Still cheap:\nsee the contract.\nBear Analyst: The trend is weak.",
			"judge_decision": "Buy, stop at 37.",
		},
		"trader_investment_decision": "FINAL TRANSACTION PROPOSAL: **BUY**",
		"risk_debate_state": map[string]any{
			"aggressive_history":   "\nAggressive Analyst: Size up.",
			"conservative_history": "\nConservative Analyst: Keep the stop.",
			"neutral_history":      "\nNeutral Analyst: Either works.",
			"history":              "\nAggressive Analyst: Size up.\nConservative Analyst: Keep the stop.\nNeutral Analyst: Either works.",
			"judge_decision":       "Approved: BUY.",
		},
		"investment_plan":      "Buy, stop at 37.",
		"final_trade_decision": "Approved: BUY.",
	}
}

// TestTradingAgentsState: TradingAgents' logged state reads as its
// agents' messages, each report and each debate turn a step under its
// agent in the order the history gives, the plan and the final decision
// once where they repeat the judgments; the company and the date are the
// task, and a label beside the date is the run's. Without the whole
// history the sides speak in turn, and of several dates the latest is
// read.
func TestTradingAgentsState(t *testing.T) {
	wantAgents := []string{"Market Analyst", "News Analyst", "Fundamentals Analyst",
		"Bull Researcher", "Bear Researcher", "Bull Researcher", "Bear Researcher", "Research Manager",
		"Trader", "Aggressive Analyst", "Conservative Analyst", "Neutral Analyst", "Risk Judge"}
	noHistory := taSample()
	delete(noHistory["investment_debate_state"].(map[string]any), "history")
	older := taSample()
	older["market_report"] = "an older day"
	for name, tc := range map[string]struct {
		file   map[string]any
		fourth string
	}{
		"under its date":  {file: map[string]any{"2025-03-03": taSample(), "mistake_agent": "Bull Researcher", "mistake_step": 3}},
		"alone":           {file: taSample()},
		"without history": {file: map[string]any{"2025-03-03": noHistory}},
		"several dates":   {file: map[string]any{"2025-02-28": older, "2025-03-03": taSample()}},
	} {
		t.Run(name, func(t *testing.T) {
			data, err := json.Marshal(tc.file)
			require.NoError(t, err)
			c, err := ParseCase("full_states_log_2025-03-03.json", data, Options{})
			require.NoError(t, err)
			var agents, texts []string
			for _, s := range c.Run.Steps {
				agents = append(agents, s.Agent)
				texts = append(texts, s.Content)
			}
			assert.Equal(t, wantAgents, agents)
			assert.Equal(t, "Close 41.2, 50 SMA 39.8.", texts[0])
			assert.Equal(t, "P/E 18.4 is cheap.", texts[3])
			assert.Equal(t, "Still cheap:\nsee the contract.", texts[5])
			assert.Equal(t, "company_of_interest: ACME\ntrade_date: 2025-03-03", c.Run.Question)
			if _, labelled := tc.file["mistake_agent"]; labelled {
				require.NotNil(t, c.Label)
				assert.Equal(t, "Bull Researcher", c.Label.Agent)
				assert.Equal(t, 3, c.Label.Step)
			} else {
				assert.Nil(t, c.Label)
			}
		})
	}
}

// TestTradingAgentsStatePlanApart: a plan or a final decision that says
// more than the judgment it follows is a step of its own.
func TestTradingAgentsStatePlanApart(t *testing.T) {
	st := taSample()
	st["investment_plan"] = "Buy half now, stop at 37."
	data, err := json.Marshal(st)
	require.NoError(t, err)
	r, err := Parse("state.json", data, Options{})
	require.NoError(t, err)
	var managers []string
	for _, s := range r.Steps {
		if s.Agent == "Research Manager" {
			managers = append(managers, s.Content)
		}
	}
	assert.Equal(t, []string{"Buy, stop at 37.", "Buy half now, stop at 37."}, managers)
}

// FuzzParseTradingAgents reads fuzzed TradingAgents states, from the
// tests' shapes: a state alone, under its date beside a label, several
// dates, a debate whose histories repeat a speaker's name many times or
// hold turns the whole history does not.
func FuzzParseTradingAgents(f *testing.F) {
	st := taSample()
	noHistory := taSample()
	delete(noHistory["investment_debate_state"].(map[string]any), "history")
	many := taSample()
	many["investment_debate_state"].(map[string]any)["bull_history"] = strings.Repeat("\nBull Analyst: x", 500)
	apart := taSample()
	apart["investment_debate_state"].(map[string]any)["history"] = "\nBear Analyst: Margins fall."
	for _, file := range []any{
		st,
		map[string]any{"2025-03-03": st, "mistake_agent": "Bull Researcher", "mistake_step": 3},
		map[string]any{"2025-02-28": noHistory, "2025-03-03": many},
		apart,
		map[string]any{"company_of_interest": 3, "trade_date": []any{}, "investment_debate_state": "x", "risk_debate_state": map[string]any{"history": 1}},
		map[string]any{"2025-03-03": map[string]any{"company_of_interest": "A", "market_report": "", "investment_debate_state": map[string]any{"bull_history": "Bull Analyst: ", "history": "Bull Analyst: "}}},
	} {
		data, err := json.Marshal(file)
		require.NoError(f, err)
		f.Add(data)
	}
	fuzzFormat(f, FormatAuto)
}
