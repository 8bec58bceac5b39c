package run

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"
)

// STORM's agents, as its modules name them: the writer who asks from a
// perspective, the expert who searches and answers, and the modules that
// write the outline and the article from the conversations.
const (
	stormWriter  = "WikiWriter"
	stormExpert  = "TopicExpert"
	stormOutline = "OutlineGenerator"
	stormArticle = "ArticleGenerator"
	stormPolish  = "ArticlePolisher"
	stormSearch  = "search"
)

// stormTurn is one turn of a STORM conversation as DialogueTurn.log()
// saves it.
type stormTurn struct {
	UserUtterance  string            `json:"user_utterance"`
	AgentUtterance string            `json:"agent_utterance"`
	SearchQueries  []string          `json:"search_queries"`
	SearchResults  []json.RawMessage `json:"search_results"`
}

// stormPerspective is one simulated conversation: the persona the
// writer asks from and its turns.
type stormPerspective struct {
	Perspective *string     `json:"perspective"`
	DlgTurns    []stormTurn `json:"dlg_turns"`
}

// stormOutput is STORM's conversation log alone (conversation_log.json,
// a list of perspectives), or beside the topic, the outline and the
// article the run wrote from it (its storm_gen_outline.txt,
// storm_gen_article.txt and storm_gen_article_polished.txt).
type stormOutput struct {
	Topic           string             `json:"topic"`
	ConversationLog []stormPerspective `json:"conversation_log"`
	Outline         string             `json:"outline"`
	Article         string             `json:"article"`
	PolishedArticle string             `json:"polished_article"`
}

// stormRun reads the saved output of a STORM run (knowledge-storm's
// STORMWikiRunner) as its agents' messages: the topic is the user's;
// each turn the writer's question, the expert's search (its queries the
// call, its results, each title, url and snippets, the call's result)
// and the expert's answer; then the outline, the article and the
// polished article, each the message of the module that wrote it. ok is
// false when data is no STORM output: a conversation with no
// perspective or no turn.
func stormRun(data []byte) ([]dumpMessage, bool) {
	trimmed := bytes.TrimSpace(data)
	if !bytes.Contains(trimmed, []byte(`"dlg_turns"`)) {
		return nil, false
	}
	var o stormOutput
	if len(trimmed) > 0 && trimmed[0] == '[' {
		if json.Unmarshal(trimmed, &o.ConversationLog) != nil {
			return nil, false
		}
	} else if json.Unmarshal(trimmed, &o) != nil {
		return nil, false
	}
	var out []dumpMessage
	say := func(name, text string) {
		if strings.TrimSpace(text) != "" {
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name, Text: text}})
		}
	}
	if t := strings.TrimSpace(o.Topic); t != "" {
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: t}})
	}
	calls, turns := 0, 0
	for _, p := range o.ConversationLog {
		if p.Perspective == nil || p.DlgTurns == nil {
			return nil, false
		}
		for _, t := range p.DlgTurns {
			turns++
			say(stormWriter, t.UserUtterance)
			if len(t.SearchQueries) > 0 || len(t.SearchResults) > 0 {
				calls++
				id := "storm-search-" + strconv.Itoa(calls)
				args, _ := json.Marshal(map[string][]string{"queries": t.SearchQueries})
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: stormExpert, Calls: []ToolCall{{ID: id, Name: stormSearch, Arguments: string(args)}}}})
				out = append(out, dumpMessage{chatMessage: chatMessage{Role: "tool", CallID: id, Text: stormResults(t.SearchResults)}})
			}
			say(stormExpert, t.AgentUtterance)
		}
	}
	if turns == 0 {
		return nil, false
	}
	say(stormOutline, o.Outline)
	say(stormArticle, o.Article)
	say(stormPolish, o.PolishedArticle)
	return out, true
}

// stormResults is a turn's search results as text, each its title, url,
// description and snippets a line, a blank line between results.
func stormResults(results []json.RawMessage) string {
	var blocks []string
	for _, raw := range results {
		var r struct {
			Title       string `json:"title"`
			URL         string `json:"url"`
			Description string `json:"description"`
			Snippets    any    `json:"snippets"` // a list of passages; some writers save one
		}
		if json.Unmarshal(raw, &r) != nil {
			blocks = append(blocks, string(raw))
			continue
		}
		lines := []string{r.Title, r.URL, r.Description}
		switch sn := r.Snippets.(type) {
		case []any:
			for _, x := range sn {
				lines = append(lines, textOf(x))
			}
		default:
			lines = append(lines, textOf(sn))
		}
		lines = nonEmpty(lines)
		blocks = append(blocks, strings.Join(lines, "\n"))
	}
	return strings.Join(blocks, "\n\n")
}
