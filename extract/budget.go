package extract

import (
	"strconv"
	"strings"

	"github.com/offattr/offattr/run"
)

// OverBudget is an agent's step that states the total of what it chose
// as more than the budget the task gives: a plan that goes over it.
type OverBudget struct {
	// Total and Budget are as the step and the task write them ("$1,428",
	// "$1,400").
	Total  string `json:"total"`
	Budget string `json:"budget"`
}

// readOverBudget sets OverBudget on the first agent's step that writes,
// in a clause that says "total", a total (the clause's last amount of
// money after the word, but for the budget itself) over the budget the
// task gives ("a budget of $1,400", "the
// budget is $1,400", "$1,400 budget").
func readOverBudget(r *run.Run, rf *RunFeatures) {
	written, budget := taskBudget(afterExamples(r.Question))
	if budget <= 0 {
		return
	}
	for i, s := range r.Steps {
		if !agentChoosing(r, rf, i) {
			continue
		}
		text := strings.ToLower(s.Content)
		for k := range occurrences(text, "total") {
			if choiceByte(text, k-1) || choiceByte(text, k+len("total")) {
				continue
			}
			clause := clauseAround(text, k, k+len("total"))
			var ams []amount
			for _, a := range amounts(clause[strings.Index(clause, "total"):]) {
				if a.value != budget { // the budget it is set beside
					ams = append(ams, a)
				}
			}
			if len(ams) == 0 {
				continue
			}
			last := ams[len(ams)-1]
			if last.value > budget {
				rf.Steps[i] = rf.Steps[i].Clone()
				rf.Steps[i].Details.Rare.OverBudget = &OverBudget{Total: last.written, Budget: written}
				return
			}
		}
	}
}

// amount is an amount of money as written ("$1,428"), its value, and
// where the text writes it.
type amount struct {
	written    string
	value      float64
	start, end int
}

// amounts returns the amounts of money a text writes with a currency's
// sign before them ("$1,428", "€96.50"), in order.
func amounts(text string) []amount {
	var out []amount
	for k := 0; k < len(text); k++ {
		sign := ""
		for _, c := range []string{"$", "€", "£"} {
			if strings.HasPrefix(text[k:], c) {
				sign = c
			}
		}
		if sign == "" {
			continue
		}
		j := k + len(sign)
		for j < len(text) && (text[j] >= '0' && text[j] <= '9' || (text[j] == ',' || text[j] == '.') && j+1 < len(text) && text[j+1] >= '0' && text[j+1] <= '9') {
			j++
		}
		if j == k+len(sign) {
			continue
		}
		if v, err := strconv.ParseFloat(strings.ReplaceAll(text[k+len(sign):j], ",", ""), 64); err == nil {
			out = append(out, amount{text[k:j], v, k, j})
		}
		k = j - 1
	}
	return out
}

// taskBudget returns the budget a task gives (taskBounds), as written
// ("$1,400") and its value; 0 when it gives none.
func taskBudget(task string) (string, float64) {
	for _, b := range taskBounds(task) {
		if ams := amounts(task[b.at.Start:b.at.End]); b.budget && len(ams) > 0 {
			return ams[0].written, ams[0].value
		}
	}
	return "", 0
}
