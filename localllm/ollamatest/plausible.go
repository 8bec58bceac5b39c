package ollamatest

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/ollama/ollama/api"
)

// PlausibleReply answers as a weak but not random model would, so that
// measurements of offattr's traffic see the rounds, suspects and votes a
// real model causes: it rates each step the request lets it name by the
// signs of trouble in that step's text in the prompt (errors, failures,
// apologies). A reader (a schema with "suspects") names the most troubled
// steps of its window, none if no step shows trouble; an analyst rates
// every candidate's criteria by its trouble and votes for the most
// troubled one. Other requests get SchemaReply.
func PlausibleReply(req *api.ChatRequest, n int) Reply {
	var s jsonschema.Schema
	if err := json.Unmarshal(req.Format, &s); err != nil || len(req.Messages) == 0 {
		return SchemaReply(req, n)
	}
	texts := stepTexts(req.Messages[len(req.Messages)-1].Content)
	if sus, ok := s.Properties["suspects"]; ok && sus.Items != nil {
		return readerReply(sus, texts)
	}
	steps := analystSteps(&s)
	if steps == nil {
		return SchemaReply(req, n)
	}
	return analystReply(steps, texts)
}

// analystSteps are the candidates an analyst's schema rates (its "step_N"
// properties), sorted; nil when the schema is not an analyst's.
func analystSteps(s *jsonschema.Schema) []int {
	var steps []int
	for k := range s.Properties {
		if i, ok := strings.CutPrefix(k, "step_"); ok {
			if v, err := strconv.Atoi(i); err == nil {
				steps = append(steps, v)
			}
		}
	}
	if len(steps) == 0 || s.Properties["vote"] == nil {
		return nil
	}
	slices.Sort(steps)
	return steps
}

// troubleWords are what PlausibleReply counts in a step.
var troubleWords = regexp.MustCompile(`(?i)\b(error|errors|failed|fails|failure|incorrect|wrong|not found|exception|unable|cannot|can't|sorry|invalid|mistake|traceback|timed out)\b`)

// stepLabel matches the step labels offattr's prompts use, the sweep's
// ("[step 3 | Agent | kind | ...") and the hierarchy's ("[L1 full | step 3 |").
var stepLabel = regexp.MustCompile(`(?m)^\[(?:L\d [a-z ]+ \| )?step (\d+) \|`)

// stepTexts maps each labelled step of a prompt to the text after its
// label, up to the next one.
func stepTexts(prompt string) map[int]string {
	out := map[int]string{}
	locs := stepLabel.FindAllStringSubmatchIndex(prompt, -1)
	for i, loc := range locs {
		end := len(prompt)
		if i+1 < len(locs) {
			end = locs[i+1][0]
		}
		step, _ := strconv.Atoi(prompt[loc[2]:loc[3]])
		out[step] += prompt[loc[0]:end]
	}
	return out
}

func trouble(text string) int { return len(troubleWords.FindAllString(text, -1)) }

func readerReply(sus *jsonschema.Schema, texts map[int]string) Reply {
	type scored struct{ step, score int }
	var cands []scored
	for _, v := range sus.Items.Properties["step"].Enum {
		step := int(v.(float64))
		if t := trouble(texts[step]); t > 0 {
			cands = append(cands, scored{step, t})
		}
	}
	slices.SortStableFunc(cands, func(a, b scored) int { return b.score - a.score })
	if sus.MaxItems != nil && len(cands) > *sus.MaxItems {
		cands = cands[:*sus.MaxItems]
	}
	var b strings.Builder
	b.WriteString(`{"suspects":[`)
	for i, c := range cands {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"reason":"the step reports %d signs of trouble","step":%d,"confidence":%.2f}`, c.score, c.step, min(0.9, 0.3+0.15*float64(c.score)))
	}
	b.WriteString(`]}`)
	return Reply{Content: b.String()}
}

func analystReply(steps []int, texts map[int]string) Reply {
	var b strings.Builder
	b.WriteByte('{')
	vote, best := steps[0], -1
	for _, s := range steps {
		t := trouble(texts[s])
		c := min(0.9, 0.3+0.1*float64(t))
		fmt.Fprintf(&b, `"step_%d":{"fault":%.2f,"first":%.2f,"decisive":%.2f},`, s, c, c, c)
		if t > best {
			vote, best = s, t
		}
	}
	fmt.Fprintf(&b, `"vote":{"reason":"the step reports %d signs of trouble","step":%d,"confidence":%.2f}}`, best, vote, min(0.9, 0.4+0.1*float64(best)))
	return Reply{Content: b.String()}
}
