package run

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestChatArenaHistory reads ChatArena's saved histories: each player's
// message under its name, the environment's as the user's.
func TestChatArenaHistory(t *testing.T) {
	tests := []struct {
		name, data string
		want       []string // agent|kind|text
		wantErr    string
	}{
		{
			name: "players and the environment's prompt",
			data: `[{"agent_name": "System", "content": "Debate: should cities ban cars? 2 rounds.", "turn": 0, "timestamp": 1764470000000000000, "visible_to": "all", "msg_type": "text", "logged": false},
				{"agent_name": "Pro", "content": "Car bans cut emissions by 40%.", "turn": 1, "timestamp": 1764470004100000000, "visible_to": "all", "msg_type": "text", "logged": false},
				{"agent_name": "Con", "content": "Deliveries still need vans.", "turn": 2, "timestamp": 1764470008300000000, "visible_to": ["Pro", "Judge"], "msg_type": "text", "logged": false}]`,
			want: []string{"user|user|Debate: should cities ban cars? 2 rounds.", "Pro|message|Car bans cut emissions by 40%.", "Con|message|Deliveries still need vans."},
		},
		{
			name: "a label beside the history",
			data: `{"mistake_agent": "Planner", "mistake_step": 1, "log": [
				{"agent_name": "Moderator", "content": "18 people; Room A seats 12.", "turn": 0, "timestamp": 1, "visible_to": "all", "msg_type": "text", "logged": false},
				{"agent_name": "Planner", "content": "Room A fits everyone.", "turn": 1, "timestamp": 2, "visible_to": "all", "msg_type": "text", "logged": false}]}`,
			want: []string{"Moderator|message|18 people; Room A seats 12.", "Planner|message|Room A fits everyone."},
		},
		{
			name:    "records with a player's name but no turn are no history",
			data:    `[{"agent_name": "Pro", "content": "Yes."}]`,
			wantErr: `neither "name" nor "role"`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := ParseCase("history.json", []byte(tt.data), Options{})
			if tt.wantErr != "" {
				require.ErrorContains(t, err, tt.wantErr)
				return
			}
			require.NoError(t, err)
			var got []string
			for _, s := range c.Run.Steps {
				got = append(got, fmt.Sprintf("%s|%s|%s", s.Agent, s.Kind, s.Content))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// FuzzParseChatArena reads fuzzed ChatArena histories, from the tests'
// shapes.
func FuzzParseChatArena(f *testing.F) {
	for _, s := range []string{
		`[{"agent_name": "System", "content": "Q", "turn": 0, "timestamp": 1, "visible_to": "all", "msg_type": "text", "logged": false}, {"agent_name": "Pro", "content": "A", "turn": 1, "timestamp": 2, "visible_to": ["Con"], "msg_type": "text", "logged": false}]`,
		`{"mistake_agent": "Pro", "mistake_step": 1, "log": [{"agent_name": "Mod", "content": "Q", "turn": 0, "timestamp": 1, "visible_to": "all"}, {"agent_name": "Pro", "content": "A", "turn": 1, "timestamp": 2, "visible_to": "all"}]}`,
		`[{"agent_name": "", "content": "Q", "turn": 0, "visible_to": "all"}]`,
	} {
		f.Add([]byte(s))
	}
	fuzzFormat(f, FormatAuto)
}
