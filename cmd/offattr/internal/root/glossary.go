package root

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/rules"
)

// term is one entry of the glossary. docs/glossary.md is the same list as
// Markdown (TestDocsGlossary keeps them equal).
type term struct{ name, text string }

var glossary = []term{
	{"decisive fault", "The " + rules.DecisiveFault + ": a fault, critical to the failure, and the first such (Who&When; RAFFLES). offattr's answer is its agent and its step, numbered from 0."},
	{"candidate", "A step the rules consider as the decisive fault, ranked; the answer is the first. Each lists the rules that spoke for it."},
	{"confidence", "How likely the answer's step is right, in [0, 1]: the step model's probability of it, calibrated on out-of-fold answers together with how many steps there were to choose from and how many rules implicate it. It is the one confidence offattr prints: analyze, screen, eval --calibration and triage all use it."},
	{"score", "A candidate's probability of being the decisive fault under the fitted step model. Candidates some rule implicates come first, then the rest, each ranked by it with the earliest critical one first; the answer's confidence is calibrated from its score."},
	{"mode", "What produced the answer: \"rules\" (deterministic rules alone), or \"rules+llm\" (a local model reviewed the rules' candidates)."},
	{"triage band", "What to do with an answer: clear (right often enough to act on without a second look), review (plausible: a person should look), escalate (low confidence, no decisive candidate, or the model disagreed: send it to a stronger model with export). The bands are thresholds on the confidence, and for clear also on the step model's spread (its entropy over the steps), fitted with the weights on systems held out of the fit (clear may be empty); screen's --clear-above, --escalate-below and --margin override them."},
	{"trial", "A plan or re-plan and the steps that carry it out (DoVer). A new plan starts a new trial; faults are searched trial by trial."},
	{"loop group", "Steps of one trial that repeat a near-identical instruction or action, with the steps that instruct them: a plan-execute cycle going round (CHIEF). The planner is blamed when it repeats itself after errors, the executor when it fails a changed strategy."},
	{"L1-L4", "ECHO's hierarchical context of a step, by distance: L1 the step and its neighbours (within 1) in full, L2 key decisions (2-3 steps away), L3 short summaries (4-6 away), L4 milestones (the rest). It is what a local model is shown (offattr context)."},
	{"OTAR", "A step read as Observation (what the agent saw), Thought (what it reasoned), Action (what it did) and Result (what came of it); extract fills these in from labelled parts or the step's structure. They describe a step for people: the rules read only a tool result's Action, which says whether the result answers for itself."},
	{"redaction", "Secrets and personal data replaced by numbered placeholders such as [EMAIL_1], the same value the same placeholder within a run, before anything is analysed or written (--redact)."},
}

func newCmdGlossary() *cobra.Command {
	var b strings.Builder
	b.WriteString("The words offattr's commands and outputs use.\n")
	for _, t := range glossary {
		b.WriteString("\n" + t.name + "\n")
		b.WriteString(wrap(t.text, 76, "    "))
	}
	b.WriteString("\nThe rules an answer names (offattr rules also says what facts each reads):\n")
	for _, a := range rules.Registry {
		b.WriteString("\n" + a.Name + "\n")
		b.WriteString(wrap(a.Doc, 76, "    "))
	}
	return &cobra.Command{
		Use:   "glossary",
		Short: "What L1-L4, OTAR, trial, loop group, triage band, confidence and each rule mean",
		Long:  b.String(),
		Args:  cobra.NoArgs,
		// Runnable, so that "offattr glossary" works as well as "offattr
		// help glossary", and cobra suggests it for a mistyped name.
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
}

// glossaryMarkdown is the glossary as docs/glossary.md lists it.
func glossaryMarkdown() string {
	var b strings.Builder
	for _, t := range glossary {
		b.WriteString("- **" + t.name + "**: " + t.text + "\n")
	}
	return b.String()
}

// wrap breaks text into lines of at most width bytes, each indented.
func wrap(text string, width int, indent string) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && len(line)+1+len(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	b.WriteString(line + "\n")
	return b.String()
}
