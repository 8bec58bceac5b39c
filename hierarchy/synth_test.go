package hierarchy

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/offattr/offattr/extract"
	"github.com/offattr/offattr/run"
)

// synthRun makes a run of n steps and its features from seed, without
// extraction: Build reads only the steps' agents and texts and the features'
// kinds, addressees, context types and reductions, so those are drawn
// directly, with the awkward cases fitting must survive (empty texts, texts
// of several kilobytes, line breaks and runs of spaces in reductions,
// multi-byte characters). The same n and seed give the same run.
func synthRun(n int, seed uint64) (*run.Run, *extract.RunFeatures) {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	r := &run.Run{Source: fmt.Sprintf("synthetic-%d-%d", n, seed), Question: "What is the total?"}
	f := &extract.RunFeatures{}
	for i := range n {
		agent := synthAgents[rng.IntN(len(synthAgents))]
		r.Steps = append(r.Steps, run.Step{Index: i, Agent: agent, Content: synthText(rng, synthContentWords(rng))})
		fs := extract.Features{
			Index:       int32(i),
			Kind:        synthKinds[rng.IntN(len(synthKinds))],
			ContextType: synthContextTypes[rng.IntN(len(synthContextTypes))],
			Reductions: &extract.Reductions{
				KeyDecision: synthText(rng, rng.IntN(51)),
				Summary:     synthText(rng, rng.IntN(21)),
				Milestone:   synthText(rng, rng.IntN(16)),
			},
			Details: &extract.Details{Rare: &extract.Rare{}},
		}
		if fs.Kind == extract.KindInstruction {
			fs.Target = synthAgents[rng.IntN(len(synthAgents))]
		}
		f.Steps = append(f.Steps, fs)
	}
	return r, f
}

var (
	synthAgents       = []string{"Orchestrator", "WebSurfer", "Coder", "ComputerTerminal", "assistant", "user", "Vérificateur"}
	synthKinds        = []extract.StepKind{extract.KindPlan, extract.KindLedger, extract.KindInstruction, extract.KindToolResult, extract.KindAnswer, extract.KindMessage}
	synthContextTypes = []extract.ContextType{extract.ContextHandoff, extract.ContextDecisionQuality, extract.ContextErrorPropagation, extract.ContextGeneral}
	synthWords        = strings.Fields(`the plan search page price total result error failed retry
		value 42 1250.00 table row column file code exit ok done next step check
		verify answer FINAL café naïve €12 日本`)
	synthSeparators = []string{" ", " ", " ", " ", " ", " ", "  ", "\n", "\t", "\n\n"}
)

// synthContentWords draws a message length: mostly tens of words, some
// empty, some of thousands (pages a tool returned).
func synthContentWords(rng *rand.Rand) int {
	switch rng.IntN(10) {
	case 0:
		return 0
	case 1:
		return 500 + rng.IntN(1500)
	}
	return 1 + rng.IntN(120)
}

// synthText joins k random words with random separators.
func synthText(rng *rand.Rand, k int) string {
	var b strings.Builder
	for i := range k {
		if i > 0 {
			b.WriteString(synthSeparators[rng.IntN(len(synthSeparators))])
		}
		b.WriteString(synthWords[rng.IntN(len(synthWords))])
	}
	return b.String()
}
