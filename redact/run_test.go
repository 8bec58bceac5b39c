package redact

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

func TestRunReturnsRedactedCopy(t *testing.T) {
	in := &run.Run{
		Source:      "runs/17.json",
		Question:    "Email bob@example.com the report for 2024.",
		GroundTruth: "42",
		Steps: []run.Step{
			{Index: 0, Agent: "Orchestrator", Kind: run.KindInstruction,
				Content: "Use the DB; the admin password is Sup3rS3cret.",
				Extra:   &run.Extra{Target: "Coder"},
			},
			{Index: 1, Agent: "Coder", Kind: run.KindToolCall, Content: "connecting",
				Extra: &run.Extra{ToolCalls: []run.ToolCall{{ID: "call_1", Name: "sql", Arguments: `{"dsn":"postgres://admin:Sup3rS3cret@10.0.4.2/db"}`}}},
			},
			{Index: 2, Agent: "Coder", Kind: run.KindMessage, Content: "Sent to bob@example.com from 10.0.4.2, step 1 done."},
		},
	}
	r := newRedactor(t)
	out := r.Run(in)
	require.NotNil(t, out)

	assert.Equal(t, "Email [EMAIL_1] the report for 2024.", out.Question)
	assert.Equal(t, "42", out.GroundTruth)
	// The password is learnt from step 1's URL and masked in step 0 too.
	assert.Equal(t, "Use the DB; the admin password is [PASSWORD_1].", out.Steps[0].Content)
	assert.Equal(t, `{"dsn":"postgres://admin:[PASSWORD_1]@[IP_1]/db"}`, out.Steps[1].ToolCalls()[0].Arguments)
	assert.Equal(t, "sql", out.Steps[1].ToolCalls()[0].Name)
	assert.Equal(t, "call_1", out.Steps[1].ToolCalls()[0].ID)
	assert.Equal(t, "Sent to [EMAIL_1] from [IP_1], step 1 done.", out.Steps[2].Content)
	assert.Equal(t, "leaked [PASSWORD_1]", r.String("leaked Sup3rS3cret"), "later text gets the run's placeholders")
	assert.Equal(t, "Coder", out.Steps[2].Agent)
	assert.Equal(t, "Coder", out.Steps[0].Target())
	assert.Equal(t, "runs/17.json", out.Source)

	// The input is untouched.
	assert.Equal(t, "Use the DB; the admin password is Sup3rS3cret.", in.Steps[0].Content)
	assert.Contains(t, in.Steps[1].ToolCalls()[0].Arguments, "Sup3rS3cret")

	assert.Nil(t, r.Run(nil))
}

// Every text of a labelled run is redacted with the same placeholders: an
// agent named by its e-mail address is one placeholder as speaker, as
// target, in the label and in the text that mentions it, whatever the case.
func TestCaseRedactsNamesWithTheTextsPlaceholders(t *testing.T) {
	in := run.Case{
		Run: &run.Run{
			Question:    "Ask Alice@Corp.example.com for the card 4111 1111 1111 1111.",
			GroundTruth: "card 4111 1111 1111 1111, owner alice@corp.example.com",
			Steps: []run.Step{
				{Index: 0, Agent: "planner", Role: "user", Kind: run.KindInstruction, Content: "alice@corp.example.com, fetch the card.",
					Extra: &run.Extra{Target: "alice@corp.example.com"},
				},
				{Index: 1, Agent: "alice@corp.example.com", Role: "assistant", Kind: run.KindToolCall,
					Extra: &run.Extra{ToolCalls: []run.ToolCall{{Name: "notify/bob@corp.example.com", Arguments: `{\"password\": \"Tr0ub4dor&3\"}`}}},
				},
				{Index: 2, Agent: "desk (415) 555-2671", Role: "ops@corp.example.com", Kind: run.KindMessage,
					Content: "Tr0ub4dor&3 worked",
					Extra:   &run.Extra{SpanID: "00f067aa0ba902b7"},
				},
			},
		},
		Label: &run.Label{Agent: "ALICE@corp.example.com", Step: 1, Reason: "alice@corp.example.com leaked the card"},
	}
	r := newRedactor(t)
	c := r.Case(in)
	out := c.Run

	alice := "[EMAIL_1]"
	assert.Equal(t, "Ask "+alice+" for the card [CARD_1].", out.Question)
	assert.Equal(t, "card [CARD_1], owner "+alice, out.GroundTruth)
	assert.Equal(t, alice, out.Steps[0].Target())
	assert.Equal(t, alice+", fetch the card.", out.Steps[0].Content)
	assert.Equal(t, alice, out.Steps[1].Agent)
	assert.Equal(t, alice, c.Label.Agent)
	assert.Equal(t, alice+" leaked the card", c.Label.Reason)
	assert.Equal(t, 1, c.Label.Step)
	assert.Equal(t, "notify/[EMAIL_2]", out.Steps[1].ToolCalls()[0].Name)
	assert.Equal(t, `{\"password\": \"[PASSWORD_1]\"}`, out.Steps[1].ToolCalls()[0].Arguments)
	assert.Equal(t, "[PASSWORD_1] worked", out.Steps[2].Content, "a password learnt in step 1 is masked bare")
	assert.Equal(t, "desk [PHONE_1]", out.Steps[2].Agent)
	assert.Equal(t, "[EMAIL_3]", out.Steps[2].Role)
	assert.Equal(t, "00f067aa0ba902b7", out.Steps[2].SpanID())
	assert.Equal(t, "planner", out.Steps[0].Agent)
	assert.Equal(t, "user", out.Steps[0].Role)
	assert.Equal(t, "alice@corp.example.com", in.Run.Steps[1].Agent, "the input is untouched")
	assert.Equal(t, "ALICE@corp.example.com", in.Label.Agent, "the input's label is untouched")

	// After the run, any other output is masked with the run's placeholders.
	assert.Equal(t, "agent "+alice+" at step 1 ([CARD_1])", r.String("agent alice@corp.example.com at step 1 (4111111111111111)"))
	assert.Equal(t, "[CARD_2]", r.String("5500-0000-0000-0004"), "new values are numbered on")

	// Redacting the redacted case again changes nothing; so does Run alone.
	assert.Equal(t, c, newRedactor(t).Case(c))
	assert.Equal(t, out, newRedactor(t).Run(out))

	assert.Equal(t, run.Case{}, r.Case(run.Case{}))
	assert.Nil(t, newRedactor(t).Case(run.Case{Run: in.Run}).Label)
}

// Names are redacted with the texts' placeholders: the run's file name,
// its trace id, a span's id and the event a step was read from, as well as
// agent names. The file comes first, so its address is [EMAIL_1] wherever
// it appears.
func TestRunRedactsNames(t *testing.T) {
	in := &run.Run{
		Source:  "runs/frank.green@woodgrove.com.json#carol@woodgrove.com",
		TraceID: "carol@woodgrove.com",
		Steps: []run.Step{
			{Index: 0, Agent: "frank.green@woodgrove.com", Kind: run.KindMessage, Content: "hello",
				Extra: &run.Extra{TraceID: "carol@woodgrove.com", SpanID: "sk-proj-aBcDeFgHiJkLmNoPqRsTuVwX1234", From: "event dave@woodgrove.com"},
			},
		},
	}
	out := newRedactor(t).Run(in)
	assert.Equal(t, "runs/[EMAIL_1].json#[EMAIL_2]", out.Source)
	assert.Equal(t, "[EMAIL_2]", out.TraceID)
	assert.Equal(t, "[EMAIL_1]", out.Steps[0].Agent)
	assert.Equal(t, "[EMAIL_2]", out.Steps[0].TraceID())
	assert.Equal(t, "[API_KEY_1]", out.Steps[0].SpanID())
	assert.Equal(t, "event [EMAIL_3]", out.Steps[0].From())
	assert.Equal(t, "runs/frank.green@woodgrove.com.json#carol@woodgrove.com", in.Source, "the input is untouched")
}

func TestErrorKeepsTheChain(t *testing.T) {
	r := newRedactor(t)
	_ = r.Run(&run.Run{Steps: []run.Step{{Agent: "bob@example.com", Content: "hi"}}})

	cause := fmt.Errorf("analyze step 3 of bob@example.com: %w", context.Canceled)
	err := r.Error(cause)
	assert.Equal(t, "analyze step 3 of [EMAIL_1]: context canceled", err.Error())
	assert.ErrorIs(t, err, context.Canceled)
	var target *testError
	assert.ErrorAs(t, r.Error(fmt.Errorf("wrap: %w", &testError{"a@b.co"})), &target)
	assert.NoError(t, r.Error(nil))
}

type testError struct{ msg string }

func (e *testError) Error() string { return e.msg }

// With redaction off commands hold a nil *Patterns; the Redactor made from
// it leaves everything as it is, so they need no second code path.
func TestNilRedactorMasksNothing(t *testing.T) {
	var p *Patterns
	r := p.NewRedactor()
	require.Nil(t, r)
	in := &run.Run{Question: "mail bob@example.com"}
	assert.Same(t, in, r.Run(in))
	c := run.Case{Run: in, Label: &run.Label{Agent: "bob@example.com"}}
	assert.Equal(t, c, r.Case(c))
	assert.Equal(t, "bob@example.com", r.String("bob@example.com"))
	err := errors.New("bob@example.com")
	assert.Same(t, err, r.Error(err))
	assert.Empty(t, r.Masked())
}

// TestRunRedactsToolSchemas: the values a tool's schema offers are read
// as the task's are, so they are masked as the task is, in a copy.
func TestRunRedactsToolSchemas(t *testing.T) {
	in := &run.Run{
		Question: "Email the report.",
		Tools:    []run.Tool{{Name: "send_email", Offers: []string{"bob@example.com", "plain"}}},
		Steps:    []run.Step{{Index: 0, Agent: "user", Kind: run.KindUser, Content: "Email the report."}},
	}
	out := newRedactor(t).Run(in)
	assert.Equal(t, []run.Tool{{Name: "send_email", Offers: []string{"[EMAIL_1]", "plain"}}}, out.Tools)
	assert.Equal(t, "bob@example.com", in.Tools[0].Offers[0], "the input is untouched")
}
