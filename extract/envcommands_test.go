package extract

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestHarnessVerbs: the verbs of the commands a harness shows, from a
// list of templates with placeholders (those before the list's first
// placeholder are the prose that leads into it) and from a prompt's
// example lines after "> "; prose, or a list without placeholders,
// shows none.
func TestHarnessVerbs(t *testing.T) {
	for _, tt := range []struct {
		name, text string
		want       []string
	}{
		{"ALFWorld's templates", "Interact with a household to solve a task. Each turn, output one action (go to X, take X from Y, put X in/on Y, open X, clean X with Y, use X, examine X) or think: ....", []string{"clean", "examine", "go", "open", "put", "take", "think", "use"}},
		{"ScienceWorld's, after e.g.", "Each turn, output one action, e.g. look around, look at OBJ, pick up OBJ, focus on OBJ, wait1, go to LOCATION.", []string{"focus", "go", "look", "pick", "wait1"}},
		{"TextWorld's, ending in commands without objects", "Reply with one command only (for example: examine X, take X from Y, cook X with stove, prepare meal, eat meal, inventory).", []string{"cook", "eat", "examine", "inventory", "prepare", "take"}},
		{"a ReAct prompt's examples", "Here is an example.\n> think: To solve the task, I need a candle.\nOK.\n> go to cabinet 1\nOn the cabinet 1, you see a candle 1.\n> take candle 1 from cabinet 1", []string{"go", "take"}},
		{"prose", "Please summarise the report, check the figures, and send it to the manager.", nil},
		{"one placeholder", "Use the API, read the docs, then write the code.", nil},
	} {
		var got []string
		for v := range harnessVerbs(tt.text) {
			got = append(got, v)
		}
		slices.Sort(got)
		assert.Equal(t, tt.want, got, tt.name)
	}
}

// TestEnvCommand: a step that is one line, a harness's verb and its
// objects, or any command after a game prompt's "> ", is a command; a
// sentence, a thought, or a line of a longer text is not.
func TestEnvCommand(t *testing.T) {
	verbs := map[string]bool{"go": true, "take": true, "think": true}
	for _, tt := range []struct {
		text, want string
	}{
		{"go to countertop 1", "go to countertop 1"},
		{"  take mug 1 from countertop 1\n", "take mug 1 from countertop 1"},
		{"> open mailbox", "open mailbox"},
		{"think: The mug is on the countertop.", ""},
		{"Go to the countertop and take the mug.", ""},
		{"go to countertop 1\ntake mug 1 from countertop 1", ""},
		{"open the report and read it", ""},
	} {
		got, ok := envCommand(tt.text, verbs)
		assert.Equal(t, tt.want, got, tt.text)
		assert.Equal(t, tt.want != "", ok, tt.text)
	}
}

// household is an ALFWorld agent as an OpenAI chat transcript: its
// plain commands, the environment answering each in the user's turn.
func household(task string, turns ...string) *run.Run {
	pairs := []string{"system", "Interact with a household to solve a task. Each turn, output one action (go to X, take X from Y, put X in/on Y, open X, heat X with Y, cool X with Y, examine X) or think: ....",
		"user", "You are in the middle of a room. Looking quickly around you, you see a cabinet 1, a fridge 1, a microwave 1, and a countertop 1.\nYour task is to: " + task}
	for _, t := range turns {
		pairs = append(pairs, "assistant", t)
		pairs = append(pairs, "user", "")
	}
	r := chat(pairs...)
	r.Steps[0].Kind = run.KindSystem
	r.Question = r.Steps[1].Content
	return r
}

// TestEnvCommandsAreCalls: a household agent's plain commands are its
// calls, and the environment's next turn is their result, answering the
// step before it; a thought ("think: …", answered "OK.") is no call.
// AgentBench's "ACTION: …" is a command too, and in a Who&When case the
// environment's message, an agent's of its own, answers it.
func TestEnvCommandsAreCalls(t *testing.T) {
	r := household("heat some egg and put it in cabinet.", "think: First I need an egg.", "go to fridge 1", "take egg 1 from fridge 1")
	r.Steps[3].Content, r.Steps[5].Content, r.Steps[7].Content = "OK.", "The fridge 1 is open. In it, you see a egg 1, and a lettuce 1.", "You pick up the egg 1 from the fridge 1."
	rf := Run(r)
	assert.Empty(t, rf.Steps[2].Calls, "a thought")
	assert.False(t, rf.Steps[3].Has(KindToolResult), "the thought's OK")
	for _, i := range []int{4, 6} {
		require.Len(t, rf.Steps[i].Calls, 1, "step %d", i)
		assert.True(t, rf.Steps[i].Has(KindToolCall), "step %d kinds %v", i, rf.Steps[i].Kinds)
		assert.Empty(t, rf.Steps[i].Code, "a command is no code")
		assert.True(t, rf.Steps[i+1].Has(KindToolResult), "step %d kinds %v", i+1, rf.Steps[i+1].Kinds)
		assert.Equal(t, int32(i), rf.Steps[i+1].Caller)
	}
	assert.Equal(t, "take egg 1 from fridge 1", rf.Steps[6].Calls[0].Args)

	ww := steps(
		"ALFWorld_Env", "Your task is to: put a hot apple in fridge.",
		"Household_Agent", "I will look on the countertop.\nACTION: go to countertop 1",
		"ALFWorld_Env", "On the countertop 1, you see a apple 1, and a knife 1.",
		"Household_Agent", "The apple is here. TERMINATE",
	)
	ww.Question = "Your task is to: put a hot apple in fridge."
	rf = Run(ww)
	require.Len(t, rf.Steps[1].Calls, 1)
	assert.Equal(t, "go to countertop 1", rf.Steps[1].Calls[0].Args)
	assert.True(t, rf.Steps[2].Has(KindToolResult), "kinds %v", rf.Steps[2].Kinds)
	assert.False(t, rf.Steps[3].Has(KindToolResult), "kinds %v", rf.Steps[3].Kinds)
}

// TestEnvRefusal: the environment's answer that it did not carry a
// command out ("Nothing happens.", a parser's "I don't understand that")
// is a failed result; the same words in an agent's own step, or further
// into an answer, are not.
func TestEnvRefusal(t *testing.T) {
	for _, tt := range []struct {
		answer string
		failed bool
	}{
		{"Nothing happens.", true},
		{"I don't understand that.", true},
		{"You can't see any such thing.", true},
		{"No known action matches that input.", true},
		{"That doesn't seem to fit the lock.", true},
		{"You heat the egg 1 using the microwave 1.", false},
		{"On the countertop 1, you see nothing happens to be here.", false},
	} {
		r := household("heat some egg and put it in cabinet.", "heat egg 1 with microwave 1")
		r.Steps[3].Content = tt.answer
		rf := Run(r)
		_, failed := signalIn(rf.Steps[3].Errors, "error")
		assert.Equal(t, tt.failed, failed, tt.answer)
	}
	r := household("heat some egg and put it in cabinet.", "Nothing happens. I will try again.")
	assert.Empty(t, Run(r).Steps[2].Errors, "an agent's words")
}

func signalIn(ss []Signal, kind string) (Signal, bool) {
	for _, s := range ss {
		if s.Kind == kind {
			return s, true
		}
	}
	return Signal{}, false
}

// TestSeen: the things a text environment's answer lists as seen, by
// name without their numbers; an answer that lists fewer than two, or
// sees nothing, offers none.
func TestSeen(t *testing.T) {
	for _, tt := range []struct {
		content string
		want    []string
	}{
		{"You open the fridge 1. The fridge 1 is open. In it, you see a cup 1, a mug 2, and a plate 1.", []string{"cup", "mug", "plate"}},
		{"On the counter you can see a red apple, a cookbook and a knife.", []string{"red apple", "cookbook", "knife"}},
		{"On the countertop 1, you see a spatula 1.", nil},
		{"In it, you see nothing.", nil},
		{"The fridge 1 is closed.", nil},
	} {
		assert.Equal(t, tt.want, offered(tt.content), tt.content)
	}
}

// TestPassOverSeen: an agent that takes a mug from a fridge that holds
// the cup the task names passes the cup over; its later commands on the
// cup that the environment did not carry out ("Nothing happens.") pick
// nothing. Taking the cup, or a later cup taken, is no pass.
func TestPassOverSeen(t *testing.T) {
	fridge := "You open the fridge 1. The fridge 1 is open. In it, you see a cup 1, a mug 2, and a plate 1."
	for _, tt := range []struct {
		name, take, retake, answer string
		want                       *Choice
	}{
		{"the mug, then the cup refused", "take mug 2 from fridge 1", "heat cup 1 with microwave 1", "Nothing happens.", &Choice{Offer: 3, Picked: []string{"mug"}, Passed: []string{"cup"}}},
		{"the mug, then the cup taken", "take mug 2 from fridge 1", "take cup 1 from fridge 1", "You pick up the cup 1 from the fridge 1.", nil},
		{"the cup", "take cup 1 from fridge 1", "heat cup 1 with microwave 1", "You heat the cup 1 using the microwave 1.", nil},
	} {
		r := household("heat some cup and put it in cabinet.", "open fridge 1", tt.take, tt.retake)
		r.Steps[3].Content, r.Steps[5].Content, r.Steps[7].Content = fridge, "You pick it up.", tt.answer
		rf := Run(r)
		assert.Equal(t, tt.want, rf.Steps[4].PassedOver, tt.name)
	}
}

// TestPassOverLookAlike: of the things seen, one whose name ends as the
// name of the thing the task asks for, though it is another (a
// peppershaker for the saltshaker), picked where the task's thing is
// not seen, passes the task's over; a thing of another name (a spatula)
// does not. The things a prompt's examples name ("> take cloth 1 from
// cabinet 1") are not the task's.
func TestPassOverLookAlike(t *testing.T) {
	counter := "On the countertop 1, you see a peppershaker 1, and a spatula 1."
	for _, tt := range []struct {
		name, take string
		want       *Choice
	}{
		{"the look-alike", "take peppershaker 1 from countertop 1", &Choice{Offer: 3, Picked: []string{"peppershaker"}, Passed: []string{"saltshaker"}}},
		{"another thing", "take spatula 1 from countertop 1", nil},
	} {
		r := household("put a saltshaker in drawer.", "go to countertop 1", tt.take)
		r.Steps[3].Content, r.Steps[5].Content = counter, "You pick it up."
		assert.Equal(t, tt.want, Run(r).Steps[4].PassedOver, tt.name)
	}

	r := household("put a saltshaker in drawer.", "go to countertop 1", "take spatula 1 from countertop 1")
	r.Question = "Here is an example.\n> go to cabinet 1\nOn the cabinet 1, you see a spatula 2.\n> take spatula 2 from cabinet 1\nYou pick up the spatula 2 from the cabinet 1.\n\nHere is the task.\n" + r.Question
	r.Steps[1].Content = r.Question
	r.Steps[3].Content, r.Steps[5].Content = "On the countertop 1, you see a saltshaker 1, and a spatula 1.", "You pick it up."
	assert.Equal(t, &Choice{Offer: 3, Picked: []string{"spatula"}, Passed: []string{"saltshaker"}}, Run(r).Steps[4].PassedOver, "an example's spatula")
}

// TestActionDocsAreNoTask: the actions a harness documents beside the
// task (BrowserGym's signatures and examples) are no part of it: their
// example values are no claims of the task; a task with a call or two
// in its words keeps them.
func TestActionDocsAreNoTask(t *testing.T) {
	task := "# Goal\nHow many reviews does the product 'Antonia Racer Tank' have?\n\n# Action Space\n\nsend_msg_to_user(text: str)\n    Examples:\n        send_msg_to_user('Based on the results of my search, the city was built in 1751.')\nfill(bid: str, value: str)\n    Examples:\n        fill('237', 'example value')\nclick(bid: str)\n"
	r := chat("user", task, "assistant", "<action>\nfill('a160', 'Antonia')\n</action>")
	r.Question = task
	var texts []string
	for _, c := range Run(r).Question {
		texts = append(texts, c.Text)
	}
	assert.Contains(t, texts, "'Antonia Racer Tank'")
	assert.NotContains(t, texts, "1751")
	assert.NotContains(t, texts, "237")
	assert.Equal(t, "Make f(3) return 4.\nprint(f(3))\n", withoutActionDocs("Make f(3) return 4.\nprint(f(3))\n"))
}
