package run

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// TradingAgents' agents, as its graph names their nodes: the analysts
// who write the reports, the researchers who debate them and the manager
// who judges the debate, the trader, the risk analysts who debate the
// trader's plan and the judge who decides.
const (
	taMarket       = "Market Analyst"
	taSocial       = "Social Analyst"
	taNews         = "News Analyst"
	taFundamentals = "Fundamentals Analyst"
	taManager      = "Research Manager"
	taTrader       = "Trader"
	taRiskJudge    = "Risk Judge"
)

// taSide is one side of a debate: the key of its own history in the
// debate's state and the agent who speaks it.
type taSide struct{ key, agent string }

// The debates' sides in the order TradingAgents' graph gives them the
// word; the risk analysts under their earlier names (risky, safe) and
// their later ones (aggressive, conservative).
var (
	taInvestmentSides = []taSide{{"bull_history", "Bull Researcher"}, {"bear_history", "Bear Researcher"}}
	taRiskSides       = []taSide{
		{"risky_history", "Risky Analyst"}, {"aggressive_history", "Aggressive Analyst"},
		{"safe_history", "Safe Analyst"}, {"conservative_history", "Conservative Analyst"},
		{"neutral_history", "Neutral Analyst"},
	}
)

// taState is one trade date's state as TradingAgents logs it
// (full_states_log_DATE.json, under the date).
type taState struct {
	Company       string         `json:"company_of_interest"`
	TradeDate     string         `json:"trade_date"`
	Market        string         `json:"market_report"`
	Sentiment     string         `json:"sentiment_report"`
	News          string         `json:"news_report"`
	Fundamentals  string         `json:"fundamentals_report"`
	Investment    map[string]any `json:"investment_debate_state"`
	TraderPlan    string         `json:"trader_investment_decision"`
	TraderPlanAlt string         `json:"trader_investment_plan"`
	Risk          map[string]any `json:"risk_debate_state"`
	Plan          string         `json:"investment_plan"`
	Final         string         `json:"final_trade_decision"`
}

// tradingAgentsCase reads TradingAgents' logged state of a trade
// decision as its agents' messages: each analyst's report, each turn of
// the researchers' debate and the manager's judgment (the investment
// plan, when it says more), the trader's plan, each turn of the risk
// analysts' debate and the judge's decision (the final decision, when it
// says more). The file is the state alone or, as TradingAgents writes
// it, the state under its trade date; of several dates the latest is
// read. The company and the date are the task. ok is false when data is
// no such state.
func tradingAgentsCase(data []byte, o *fileObject) (c *Case, ok bool, err error) {
	trimmed := bytes.TrimSpace(data)
	if !bytes.Contains(trimmed, []byte(`"investment_debate_state"`)) && !bytes.Contains(trimmed, []byte(`"final_trade_decision"`)) {
		return nil, false, nil
	}
	st, ok := taStateOf(trimmed)
	if !ok {
		return nil, false, nil
	}
	var ms []dumpMessage
	say := func(agent, text string) {
		if text = strings.TrimSpace(text); text != "" {
			ms = append(ms, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: agent, Text: text}})
		}
	}
	say(taMarket, st.Market)
	say(taSocial, st.Sentiment)
	say(taNews, st.News)
	say(taFundamentals, st.Fundamentals)
	// A debate's turns, its judge's decision, and what the state keeps
	// of the decision apart (the plan, the final decision) where it says
	// more.
	debate := func(state map[string]any, sides []taSide, judge, kept string) {
		for _, t := range taDebate(state, sides) {
			say(t.agent, t.text)
		}
		decided := taString(state, "judge_decision")
		say(judge, decided)
		if !sameText(kept, decided) {
			say(judge, kept)
		}
	}
	debate(st.Investment, taInvestmentSides, taManager, st.Plan)
	say(taTrader, firstNonEmpty(st.TraderPlan, st.TraderPlanAlt))
	debate(st.Risk, taRiskSides, taRiskJudge, st.Final)
	if len(ms) == 0 {
		return nil, false, nil
	}
	r := dumpRun(ms)
	var task []string
	if s := strings.TrimSpace(st.Company); s != "" {
		task = append(task, "company_of_interest: "+s)
	}
	if s := strings.TrimSpace(st.TradeDate); s != "" {
		task = append(task, "trade_date: "+s)
	}
	r.Question = strings.Join(task, "\n")
	if o == nil {
		return &Case{Run: r}, true, nil
	}
	r.GroundTruth = firstNonEmpty(scalarString(o.GroundTruth), scalarString(o.ExpectedAnswer))
	c, err = o.labelled(r)
	return c, true, err
}

// taStateOf finds the state in a logged file: the object itself when it
// holds a state's fields, else the value of its latest key that does.
func taStateOf(data []byte) (taState, bool) {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return taState{}, false
	}
	if taHolds(top) {
		var st taState
		return st, json.Unmarshal(data, &st) == nil
	}
	keys := make([]string, 0, len(top))
	for k, v := range top {
		var inner map[string]json.RawMessage
		if json.Unmarshal(v, &inner) == nil && taHolds(inner) {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return taState{}, false
	}
	slices.Sort(keys)
	var st taState
	return st, json.Unmarshal(top[keys[len(keys)-1]], &st) == nil
}

// taHolds says whether an object has a logged state's fields: a debate's
// state and the final decision.
func taHolds(m map[string]json.RawMessage) bool {
	_, debate := m["investment_debate_state"]
	_, final := m["final_trade_decision"]
	return debate && final
}

// taTurn is one turn of a debate.
type taTurn struct{ agent, text string }

// taDebate reads a debate's turns: each side's history is its turns,
// each begun on a new line by the speaker's name and a colon ("Bull
// Analyst: …"), the name its first turn gives; the whole history orders
// them (where it holds them all), else the sides speak in turn.
func taDebate(state map[string]any, sides []taSide) []taTurn {
	var per [][]taTurn
	for _, s := range sides {
		if turns := taTurns(taString(state, s.key), s.agent); len(turns) > 0 {
			per = append(per, turns)
		}
	}
	if ordered, ok := taOrdered(taString(state, "history"), per); ok {
		return ordered
	}
	var out []taTurn
	for i := 0; ; i++ {
		more := false
		for _, turns := range per {
			if i < len(turns) {
				out = append(out, turns[i])
				more = true
			}
		}
		if !more {
			return out
		}
	}
}

// taTurns splits one side's history into its turns, dropping the
// speaker's name each begins with.
func taTurns(history, agent string) []taTurn {
	history = strings.TrimLeft(history, "\n")
	if strings.TrimSpace(history) == "" {
		return nil
	}
	colon := strings.Index(history, ": ")
	nl := strings.IndexByte(history, '\n')
	if colon <= 0 || nl >= 0 && nl < colon {
		return []taTurn{{agent, strings.TrimSpace(history)}}
	}
	speaker := history[:colon+2]
	var out []taTurn
	for _, part := range strings.Split("\n"+history, "\n"+speaker) {
		if text := strings.TrimSpace(part); text != "" {
			out = append(out, taTurn{agent, text})
		}
	}
	return out
}

// taOrdered orders the sides' turns as the whole history holds them; ok
// is false when it does not hold each of them, in each side's order.
func taOrdered(history string, per [][]taTurn) ([]taTurn, bool) {
	if strings.TrimSpace(history) == "" {
		return nil, false
	}
	type placed struct {
		at int
		t  taTurn
	}
	var all []placed
	for _, turns := range per {
		from := 0
		for _, t := range turns {
			i := strings.Index(history[from:], t.text)
			if i < 0 {
				return nil, false
			}
			all = append(all, placed{from + i, t})
			from += i + len(t.text)
		}
	}
	slices.SortStableFunc(all, func(a, b placed) int { return a.at - b.at })
	out := make([]taTurn, len(all))
	for i, p := range all {
		out[i] = p.t
	}
	return out, true
}

// taString is a debate state's text under key.
func taString(state map[string]any, key string) string {
	s, _ := state[key].(string)
	return s
}

// sameText says whether two texts say the same, but for surrounding
// space.
func sameText(a, b string) bool {
	return strings.TrimSpace(a) == strings.TrimSpace(b)
}
