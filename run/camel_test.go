package run

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCAMELChat reads CAMEL's saved role-playing chats: the messages under
// message_1, message_2, … in the order of their numbers, each an agent's
// turn under its role name, the task as specified, and the label.
func TestCAMELChat(t *testing.T) {
	msg := func(name, kind, role, text string) string {
		return `{"role_name": "` + name + `", "role_type": "` + kind + `", "meta_dict": null, "role": "` + role + `", "content": "` + text + `"}`
	}
	user := func(text string) string { return msg("Owner", "USER", "user", text) }
	asst := func(text string) string { return msg("Accountant", "ASSISTANT", "assistant", text) }
	data := `{"role_1": "Accountant_RoleType.ASSISTANT", "role_2": "Owner_RoleType.USER", "id": "001_002",
		"original_task": "Cost a lease.", "specified_task": "The Accountant will help the Owner cost a 3-year lease at $1,450 a month.",
		"message_1": ` + user(`Instruction: Count the payments.\nInput: 3 years.`) + `,
		"message_10": ` + asst(`Solution: Task done.`) + `,
		"message_2": ` + asst(`Solution: 36 payments. Next request.`) + `,
		"message_3": ` + user(`Instruction: Total them.\nInput: $1,450 each.`) + `,
		"message_4": ` + asst(`Solution: 36 x $1,450 = $52,700. Next request.`) + `,
		"message_5": ` + user(`Instruction: Add the fee.\nInput: $2,000.`) + `,
		"message_6": ` + asst(`Solution: $54,700. Next request.`) + `,
		"message_7": ` + user(`Instruction: Summarise.\nInput: None`) + `,
		"message_8": ` + asst(`Solution: It costs $54,700. Next request.`) + `,
		"message_9": ` + user(`<CAMEL_TASK_DONE>`) + `,
		"termination_reason": "<CAMEL_TASK_DONE>", "num_messages": 10,
		"mistake_agent": "Accountant", "mistake_step": 3}`
	c, err := ParseCase("camel.json", []byte(data), Options{})
	require.NoError(t, err)
	r := c.Run
	assert.Equal(t, FormatTranscript, r.Format)
	assert.Equal(t, "The Accountant will help the Owner cost a 3-year lease at $1,450 a month.", r.Question)
	require.Len(t, r.Steps, 10)
	assert.Equal(t, []string{"Owner", "Accountant"}, r.Agents())
	assert.Equal(t, "Solution: 36 x $1,450 = $52,700. Next request.", r.Steps[3].Content)
	assert.Equal(t, "Solution: Task done.", r.Steps[9].Content, "message_10 comes after message_9")
	for i, s := range r.Steps {
		assert.Equal(t, i, s.Index)
		assert.Equal(t, KindMessage, s.Kind, "step %d: both roles are agents", i)
	}
	assert.Equal(t, &Label{Agent: "Accountant", Step: 3}, c.Label)

	t.Run("without a task of its own, the first message gives it", func(t *testing.T) {
		r, err := Parse("camel.json", []byte(`{"role_1": "Mathematician_RoleType.ASSISTANT", "topic": "Algebra",
			"message_1": {"role_name": "Student", "role_type": "USER", "role": "user", "content": "Solve 2x + 3 = 11."},
			"message_2": {"role_name": "Mathematician", "role_type": "ASSISTANT", "role": "assistant", "content": "x = 4."}}`), Options{})
		require.NoError(t, err)
		assert.Equal(t, "Solve 2x + 3 = 11.", r.Question)
		assert.Equal(t, []Kind{KindUser, KindMessage}, []Kind{r.Steps[0].Kind, r.Steps[1].Kind})
	})
	t.Run("a dataset's messages that are their texts alone: the problem, then the solution", func(t *testing.T) {
		r, err := Parse("camel.json", []byte(`{"role_1": "Physicist_RoleType.ASSISTANT", "topic;": "Optics", "sub_topic": "Lenses",
			"message_1": "A lens has a focal length of 20 cm. What is its power in dioptres?",
			"message_2": "P = 1 / f = 1 / 0.2 m = 5 dioptres."}`), Options{})
		require.NoError(t, err)
		assert.Equal(t, "A lens has a focal length of 20 cm. What is its power in dioptres?", r.Question)
		require.Len(t, r.Steps, 2)
		assert.Equal(t, []Kind{KindUser, KindMessage}, []Kind{r.Steps[0].Kind, r.Steps[1].Kind})
		assert.Equal(t, "Physicist", r.Steps[1].Agent)
	})
	t.Run("a message of another shape is an error, not a panic", func(t *testing.T) {
		_, err := Parse("camel.json", []byte(`{"role_1": "A_RoleType.ASSISTANT", "message_1": ["not", "a", "message"]}`), Options{})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "message_1")
	})
	t.Run("fields named like messages but not numbered are no chat", func(t *testing.T) {
		_, err := Parse("x.json", []byte(`{"message_x": {"content": "hi"}, "message_01": {"content": "hi"}}`), Options{})
		require.ErrorIs(t, err, ErrUnknownFormat)
	})
}
