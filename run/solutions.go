package run

// Records of process supervision: one model's solution to a problem, in
// steps, with the first wrong step named as such datasets name it.
// ProcessBench's {"id", "generator", "problem", "steps": [...], "label"}
// (label: the first wrong step, from 0, or -1 for none; "question" for
// "problem" in a record written in its shape), PRM800K's
// labelled solutions ({"question": {"problem", "ground_truth_answer",
// "pre_generated_steps"}, "label": {"steps": [{"completions": [{"text",
// "rating"}], "chosen_completion", "human_completion"}]}}, each step rated
// 1, 0 or -1), and Math-Shepherd's ({"input", "label"}: the problem, then
// "Step 1: … ки" for each step, its label the same text with "+" or "-"
// in place of each "ки"). A file holds one record, or a list or JSON
// lines of them, each a run named by its id or its line.
//
// The problem is the user's step 0; each solution step is the solver's
// step after it, so the label's step k is step k+1.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// solver is the agent of a record's solution steps.
const solver = "assistant"

// shepherdTag ends each step of a Math-Shepherd input; its label puts the
// step's mark, "+" or "-", in its place.
const shepherdTag = "ки"

// solutionRecord is a record of any of the three datasets; which one it
// is shows in the fields it has.
type solutionRecord struct {
	ID        json.RawMessage `json:"id"`
	Problem   string          `json:"problem"`
	Steps     []string        `json:"steps"`
	Label     json.RawMessage `json:"label"`
	Question  json.RawMessage `json:"question"`
	Input     string          `json:"input"`
	Generator string          `json:"generator"`
}

// prmQuestion is a PRM800K record's question: the problem, its answer,
// and, for the solutions a model wrote whole before they were rated, the
// steps it wrote.
type prmQuestion struct {
	Problem           string   `json:"problem"`
	GroundTruthAnswer string   `json:"ground_truth_answer"`
	PreGeneratedSteps []string `json:"pre_generated_steps"`
}

// prmCompletion is one rated step a PRM800K labeller saw.
type prmCompletion struct {
	Text   string `json:"text"`
	Rating *int   `json:"rating"`
}

// prmLabel is a PRM800K record's rating of the solution, step by step.
type prmLabel struct {
	Steps []struct {
		Completions      []prmCompletion `json:"completions"`
		HumanCompletion  *prmCompletion  `json:"human_completion"`
		ChosenCompletion *int            `json:"chosen_completion"`
	} `json:"steps"`
}

// solutionRecords reads data as records of process supervision; ok is
// false when its first record is none.
func solutionRecords(data []byte, format Format) (cases []*Case, ok bool, err error) {
	if format != FormatAuto && format != "" || !mayBeSolutions(data) {
		return nil, false, nil
	}
	var first solutionRecord
	if !firstRecord(data, &first) || first.kind() == "" {
		return nil, false, nil
	}
	values, err := recordValues(data)
	if err != nil {
		return nil, true, err
	}
	for i, v := range values {
		var rec solutionRecord
		if err := json.Unmarshal(v, &rec); err != nil {
			return nil, true, fmt.Errorf("record %d: %w", i+1, jsonError(v, err))
		}
		c, err := rec.read()
		if err != nil {
			return nil, true, fmt.Errorf("record %d: %w", i+1, err)
		}
		if len(values) > 1 {
			c.Run.TraceID = firstNonEmpty(scalarString(rec.ID), "record-"+strconv.Itoa(i+1))
		}
		cases = append(cases, c)
	}
	return cases, true, nil
}

// mayBeSolutions is a cheap look for the fields that mark a record, so
// that no other file is decoded again.
func mayBeSolutions(data []byte) bool {
	return bytes.Contains(data, []byte(`"steps"`)) && (bytes.Contains(data, []byte(`"problem"`)) || bytes.Contains(data, []byte(`"question"`))) ||
		bytes.Contains(data, []byte(`"input"`)) && bytes.Contains(data, []byte(shepherdTag))
}

// firstRecord decodes the first record of data, a list's first item or
// the first value, into rec; the rest of a large file is not read.
func firstRecord(data []byte, rec *solutionRecord) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if data[0] == '[' {
		if _, err := dec.Token(); err != nil || !dec.More() {
			return false
		}
	}
	return dec.Decode(rec) == nil
}

// recordValues splits data into its records: a list's items, or the
// values of JSON lines (one value is one record).
func recordValues(data []byte) ([]json.RawMessage, error) {
	if data[0] == '[' {
		var list []json.RawMessage
		err := json.Unmarshal(data, &list)
		return list, err
	}
	return decodeStream(data)
}

// kind names the dataset whose record r is, "" for none.
func (r *solutionRecord) kind() string {
	switch {
	case r.problem() != "" && len(r.Steps) > 0:
		return "processbench"
	case len(bytes.TrimSpace(r.Question)) > 0 && bytes.TrimSpace(r.Question)[0] == '{' && bytes.Contains(r.Label, []byte(`"steps"`)):
		return "prm800k"
	case strings.Contains(r.Input, shepherdTag):
		return "math-shepherd"
	}
	return ""
}

// problem is a ProcessBench record's problem, or its question where a
// record in its shape names it so.
func (r *solutionRecord) problem() string {
	if r.Problem != "" {
		return r.Problem
	}
	if q := bytes.TrimSpace(r.Question); len(q) > 0 && q[0] == '"' {
		return scalarString(q)
	}
	return ""
}

// read makes the run of r and its label, nil when no step is wrong.
func (r *solutionRecord) read() (*Case, error) {
	switch r.kind() {
	case "processbench":
		return r.processBench()
	case "prm800k":
		return r.prm800k()
	case "math-shepherd":
		return r.mathShepherd()
	}
	return nil, errors.New("a record among process-supervision records that is none")
}

// solutionCase is the run of a problem and its steps, labelled at the
// step wrong (-1: none).
func solutionCase(problem, answer string, steps []string, wrong int) (*Case, error) {
	r := &Run{Format: FormatTranscript, Question: strings.TrimSpace(problem), GroundTruth: strings.TrimSpace(answer)}
	r.Steps = make([]Step, 0, len(steps)+1)
	r.Steps = append(r.Steps, Step{Agent: "user", Role: "user", Kind: KindUser, Content: r.Question})
	for _, s := range steps {
		r.Steps = append(r.Steps, Step{Agent: solver, Role: solver, Kind: KindMessage, Content: strings.TrimSpace(s)})
	}
	switch {
	case wrong < -1 || wrong >= len(steps):
		return nil, fmt.Errorf("label %d names no step of %d", wrong, len(steps))
	case wrong == -1:
		return &Case{Run: r}, nil
	}
	return &Case{Run: r, Label: &Label{Agent: solver, Step: wrong + 1}}, nil
}

func (r *solutionRecord) processBench() (*Case, error) {
	wrong := -1
	if raw := scalarString(r.Label); raw != "" {
		n, err := strconv.Atoi(raw)
		if err != nil {
			return nil, fmt.Errorf("label %s is not a step's number", raw)
		}
		wrong = n
	}
	return solutionCase(r.problem(), "", r.Steps, wrong)
}

// prm800k follows the solution the labeller rated: each step's chosen
// completion, or, where none was chosen, the one rated wrong (the
// labelling ends there). The first step rated -1 is the label; a
// solution the model wrote whole goes on past it to its answer.
func (r *solutionRecord) prm800k() (*Case, error) {
	var q prmQuestion
	if err := json.Unmarshal(r.Question, &q); err != nil {
		return nil, fmt.Errorf("question: %w", jsonError(r.Question, err))
	}
	var l prmLabel
	if err := json.Unmarshal(r.Label, &l); err != nil {
		return nil, fmt.Errorf("label: %w", jsonError(r.Label, err))
	}
	var steps []string
	wrong := -1
	for i, s := range l.Steps {
		c, ok := prmStep(s.Completions, s.ChosenCompletion)
		if !ok {
			if s.HumanCompletion == nil {
				return nil, fmt.Errorf("label step %d has no completion", i)
			}
			c = *s.HumanCompletion
		}
		steps = append(steps, c.Text)
		if c.Rating != nil && *c.Rating < 0 {
			wrong = i
			break
		}
	}
	if wrong >= 0 && len(q.PreGeneratedSteps) > len(steps) && samePrefix(steps, q.PreGeneratedSteps) {
		steps = q.PreGeneratedSteps
	}
	return solutionCase(q.Problem, q.GroundTruthAnswer, steps, wrong)
}

// prmStep is the completion a PRM800K step went on with: the chosen one,
// else the first rated wrong, else the only one; ok is false when there
// is none of these.
func prmStep(cs []prmCompletion, chosen *int) (prmCompletion, bool) {
	if chosen != nil && *chosen >= 0 && *chosen < len(cs) {
		return cs[*chosen], true
	}
	for _, c := range cs {
		if c.Rating != nil && *c.Rating < 0 {
			return c, true
		}
	}
	if len(cs) == 1 {
		return cs[0], true
	}
	return prmCompletion{}, false
}

// samePrefix says whether steps are the first of all, but for space.
func samePrefix(steps, all []string) bool {
	for i, s := range steps {
		if strings.TrimSpace(s) != strings.TrimSpace(all[i]) {
			return false
		}
	}
	return true
}

// mathShepherd splits the input at its tags: the text before "Step 1:"
// is the problem, each tagged part a step, and the label's mark in the
// place of a step's tag says whether it is right.
func (r *solutionRecord) mathShepherd() (*Case, error) {
	var label string
	if raw := bytes.TrimSpace(r.Label); len(raw) > 0 && raw[0] == '"' {
		if err := json.Unmarshal(raw, &label); err != nil {
			return nil, fmt.Errorf("label: %w", jsonError(raw, err))
		}
	}
	parts := strings.Split(r.Input, shepherdTag)
	problem, firstStep := "", parts[0]
	if i := strings.Index(firstStep, "Step 1:"); i >= 0 {
		problem, firstStep = firstStep[:i], firstStep[i:]
	}
	steps := append([]string{firstStep}, parts[1:len(parts)-1]...)
	if last := parts[len(parts)-1]; strings.TrimSpace(last) != "" && len(parts) > 1 {
		steps = append(steps, last) // a last step written without its tag
	}
	wrong := -1
	if label != "" {
		at := 0 // where the tag of each step stands in the label
		for i, p := range parts[:len(parts)-1] {
			at += len(p)
			if at >= len(label) {
				return nil, errors.New("the label is shorter than the input")
			}
			if mark := label[at]; mark == '-' {
				wrong = i
				break
			} else if mark != '+' {
				return nil, fmt.Errorf("the label marks step %d %q, not + or -", i+1, mark)
			}
			at++
		}
	}
	return solutionCase(problem, "", steps, wrong)
}
