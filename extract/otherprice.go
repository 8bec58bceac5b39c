package extract

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/offattr/offattr/run"
)

// OtherPrice is an agent's call that gives, as the amount of money it
// moves (a refund's, a charge's), another figure of a tool's listing
// than the price the listing gives the one item the task names: the
// price of another item of the same order, or its total.
type OtherPrice struct {
	// Listing is the step whose output lists the items.
	Listing int `json:"listing"`
	// Item is the task's item as the listing names it, and Price the
	// price the listing gives it, as written.
	Item  string `json:"item"`
	Price string `json:"price"`
	// Given is the amount the call gives, as written.
	Given string `json:"given"`
}

// pricedItem is one item of a tool's JSON listing with a price: the
// words of its text values, in lower case, and its price.
type pricedItem struct {
	name  string
	words []string
	price float64
	as    string
}

// readOtherPrices sets OtherPrice on the first agent's call, after a
// tool's output that lists two items or more with their prices, one of
// which alone the task names, that gives an amount of money other than
// that item's price and equal to another money figure of the listing.
// Only the first call that gives an amount after the listing is read:
// a later one may put the first right or carry it on.
func readOtherPrices(r *run.Run, rf *RunFeatures) {
	task := plainWords(afterExamples(r.Question))
	if len(task) == 0 {
		return
	}
	asked := map[string]bool{}
	for _, w := range task {
		asked[w] = true
	}
	// The agents' calls that give an amount, each read once: a listing's
	// first is the first of them after it.
	type givenAt struct {
		step  int
		given string
		n     float64
	}
	var givens []givenAt
	for i := range r.Steps {
		if given, n, ok := givenAmount(r.Steps[i].ToolCalls()); ok && agentChoosing(r, rf, i) {
			givens = append(givens, givenAt{i, given, n})
		}
	}
	next := 0
	for j := range r.Steps {
		for next < len(givens) && givens[next].step <= j {
			next++
		}
		if next == len(givens) {
			return
		}
		if !rf.Steps[j].Has(KindToolResult) {
			continue
		}
		v, _, ok := toolJSON(r.Steps[j].Content)
		if !ok {
			continue
		}
		items, figures := pricedItems(v)
		named, ok := namedItem(items, asked)
		if !ok {
			continue
		}
		if g := givens[next]; g.n != named.price && slices.Contains(figures, g.n) {
			rf.Steps[g.step] = rf.Steps[g.step].Clone()
			rf.Steps[g.step].Details.Rare.OtherPrice = &OtherPrice{Listing: j, Item: named.name, Price: named.as, Given: g.given}
			return
		}
	}
}

// namedItem returns the one item of items whose words the task writes
// most (at least half of its words, and more than any other item's),
// and whether there is one.
func namedItem(items []pricedItem, asked map[string]bool) (pricedItem, bool) {
	best, second, at := 0, 0, -1
	for k, it := range items {
		n := 0
		for _, w := range it.words {
			if asked[w] {
				n++
			}
		}
		switch {
		case n > best:
			best, second, at = n, best, k
		case n > second:
			second = n
		}
	}
	if at < 0 || best == second || 2*best < len(items[at].words) {
		return pricedItem{}, false
	}
	return items[at], true
}

// pricedItems returns the items of a tool's JSON output that are objects
// of a list of two or more with a price field (namesPrice) and a name,
// and every figure the output gives under a field that names money (a
// price, a total, an amount).
func pricedItems(v any) ([]pricedItem, []float64) {
	var items []pricedItem
	var figures []float64
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for _, k := range sortedKeys(x) {
				if n, ok := x[k].(json.Number); ok && namesMoney(k) {
					if f, err := strconv.ParseFloat(n.String(), 64); err == nil {
						figures = append(figures, f)
					}
				}
				walk(x[k])
			}
		case []any:
			var list []pricedItem
			for _, e := range x {
				if m, ok := e.(map[string]any); ok {
					if it, ok := pricedItemOf(m); ok {
						list = append(list, it)
					}
				}
				walk(e)
			}
			if len(list) >= 2 {
				items = append(items, list...)
			}
		}
	}
	walk(v)
	return items, figures
}

// pricedItemOf reads one object of a listing as an item: the words of its
// text values that are no ids, the first of them its name, and the
// figure of its first field that names a price.
func pricedItemOf(m map[string]any) (pricedItem, bool) {
	var it pricedItem
	priced := false
	for _, k := range sortedKeys(m) {
		switch x := m[k].(type) {
		case json.Number:
			if f, err := strconv.ParseFloat(x.String(), 64); err == nil && !priced && namesPrice(k) {
				it.price, it.as, priced = f, x.String(), true
			}
		case string:
			if IsID(x) || idKey(k) || !hasLetters(x) {
				continue
			}
			if it.name == "" || k == "name" {
				it.name = x
			}
			for _, w := range plainWords(x) {
				if len(w) > 2 && !slices.Contains(it.words, w) {
					it.words = append(it.words, w)
				}
			}
		}
	}
	return it, priced && len(it.words) > 0
}

// moneyKeyWords are the words of a field's name that name an amount of
// money, beside a price's.
var moneyKeyWords = toSet("amount amounts total subtotal refund charge fee fees sum")

// countKeyWords are the words that, last in a field's name, make it a
// count of things (total_items, itemCount) whatever the words before.
var countKeyWords = toSet("count counts items num number quantity qty")

// namesMoney reports whether a field's name names an amount of money: a
// price's name, or one of its words (refund_amount, grandTotal) is one of
// moneyKeyWords and its last word, the thing it names, does not count
// things (total_items is a count, items_total an amount); a word that
// only holds one (feedback, consumer) is another thing.
func namesMoney(key string) bool {
	if namesPrice(key) {
		return true
	}
	words := nameWords(key)
	return len(words) > 0 && !countKeyWords[words[len(words)-1]] &&
		slices.ContainsFunc(words, func(w string) bool { return moneyKeyWords[w] })
}

// givenAmount returns the first amount of money the calls give (an
// argument whose name names money, a number or a number written as a
// string with a currency's sign), as written and as a number.
func givenAmount(calls []run.ToolCall) (string, float64, bool) {
	for _, c := range calls {
		var m map[string]any
		dec := json.NewDecoder(strings.NewReader(c.Arguments))
		dec.UseNumber()
		if dec.Decode(&m) != nil {
			continue
		}
		for _, k := range sortedKeys(m) {
			if !namesMoney(k) {
				continue
			}
			var s string
			switch x := m[k].(type) {
			case json.Number:
				s = x.String()
			case string:
				s = x
			default:
				continue
			}
			if f, err := strconv.ParseFloat(strings.ReplaceAll(strings.Trim(s, "$€£ "), ",", ""), 64); err == nil && f > 0 {
				return s, f, true
			}
		}
	}
	return "", 0, false
}
