package run

// ChatArena's saved histories: Arena.save_history writes the
// environment's messages as a JSON list of its Message records,
// {"agent_name", "content", "turn", "timestamp", "visible_to",
// "msg_type", "logged"}.

import (
	"bytes"
	"encoding/json"
	"strings"
)

// chatArenaSystem is the name ChatArena's environments give the messages
// they post themselves (the game's rules, its moderator's prompts, the
// board): the players' task, not a player's turn.
const chatArenaSystem = "System"

// chatArenaMessage is one record of a ChatArena history.
type chatArenaMessage struct {
	AgentName *string `json:"agent_name"`
	Content   content `json:"content"`
	Turn      present `json:"turn"`
	VisibleTo present `json:"visible_to"`
}

// chatArenaHistory reads data, a JSON list, as a ChatArena history: each
// player's message is its turn, under the player's name; the messages the
// environment posts are the user's. ok is false when some element is no
// such record: no object, or one without a player's name, its turn or
// who sees it.
func chatArenaHistory(data []byte) ([]dumpMessage, bool) {
	trimmed := bytes.TrimSpace(data)
	if len(trimmed) == 0 || trimmed[0] != '[' || !bytes.Contains(trimmed, []byte(`"agent_name"`)) {
		return nil, false
	}
	var list []chatArenaMessage
	if json.Unmarshal(trimmed, &list) != nil || len(list) == 0 {
		return nil, false
	}
	out := make([]dumpMessage, 0, len(list))
	for _, m := range list {
		if m.AgentName == nil || !bool(m.Turn) || !bool(m.VisibleTo) || m.Content.err != nil {
			return nil, false
		}
		name := strings.TrimSpace(*m.AgentName)
		if name == "" {
			return nil, false
		}
		if name == chatArenaSystem {
			out = append(out, dumpMessage{chatMessage: chatMessage{Role: "user", Text: m.Content.text}})
			continue
		}
		out = append(out, dumpMessage{chatMessage: chatMessage{Role: "assistant", Name: name, Text: m.Content.text}})
	}
	return out, true
}
