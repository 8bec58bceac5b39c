package run

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// A trace file labelled by hand, as the other wrapped runs are: the
// label's keys (mistake_agent, mistake_step, mistake_reason) beside the
// file's own top-level members (around an MLflow trace's "info" and
// "data"), or beside one other member holding the list of spans, or, in a
// file of JSON lines, a record of its own holding only the label. The
// label is taken out and the rest is read as the trace file it is, its
// bytes where they were (the label's are blanked), so that an error
// still points into the user's file. The step is the index offattr
// numbers, as for a transcript's label.

// traceLabelWrapper returns data without its label and the label, or ok
// false when data holds none so.
func traceLabelWrapper(data []byte) (rest []byte, label *fileObject, ok bool) {
	i := skipJSONSpace(data, 0)
	if i >= len(data) {
		return nil, nil, false
	}
	if data[i] == '{' {
		if rest, label, ok := objectLabel(data, i); ok {
			return rest, label, true
		}
	}
	return labelLine(data)
}

// labelMember is one top-level member of an object: where its key
// starts, where its value starts and ends, and whether it is a label's.
type labelMember struct {
	keyStart, valStart, valEnd int
	label                      bool
	list                       bool
}

// objectLabel reads the object at i as a label beside a trace's members.
func objectLabel(data []byte, i int) ([]byte, *fileObject, bool) {
	dec := json.NewDecoder(bytes.NewReader(data[i:]))
	dec.UseNumber()
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, false
	}
	var members []labelMember
	labels := map[string]json.RawMessage{}
	for dec.More() {
		prev := i + int(dec.InputOffset())
		t, err := dec.Token()
		key, isKey := t.(string)
		if err != nil || !isKey {
			return nil, nil, false
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, false
		}
		end := i + int(dec.InputOffset())
		m := labelMember{keyStart: skipJSONSpaceComma(data, prev), valEnd: end, label: labelKeys[key]}
		m.valStart = end - len(v)
		m.list = len(v) > 0 && v[0] == '['
		if m.label {
			labels[key] = v
		}
		members = append(members, m)
	}
	if _, has := labels["mistake_step"]; !has || len(members) == len(labels) {
		return nil, nil, false
	}
	raw, _ := json.Marshal(labels)
	var label fileObject
	if json.Unmarshal(raw, &label) != nil {
		return nil, nil, false
	}
	rest := bytes.Clone(data)
	var kept []labelMember
	for _, m := range members {
		if !m.label {
			kept = append(kept, m)
			continue
		}
		blankMember(rest, m)
	}
	if len(kept) == 1 && kept[0].list {
		// The label and a list: the list is the file, read as it would be.
		blank(rest, 0, kept[0].valStart)
		blank(rest, kept[0].valEnd, len(rest))
	}
	return rest, &label, true
}

// blankMember blanks m in the object data holds, with one comma beside
// it: the one after it, or, for the last member, the one before.
func blankMember(data []byte, m labelMember) {
	blank(data, m.keyStart, m.valEnd)
	if j := skipJSONSpace(data, m.valEnd); j < len(data) && data[j] == ',' {
		data[j] = ' '
		return
	}
	for j := m.keyStart - 1; j >= 0; j-- {
		switch data[j] {
		case ' ', '\t', '\n', '\r':
			continue
		case ',':
			data[j] = ' '
		}
		return
	}
}

// blank turns data[from:to] into spaces, keeping its line ends.
func blank(data []byte, from, to int) {
	for j := from; j < to; j++ {
		if data[j] != '\n' && data[j] != '\r' {
			data[j] = ' '
		}
	}
}

// labelLine finds, among JSON lines, the one record that holds only a
// label.
func labelLine(data []byte) ([]byte, *fileObject, bool) {
	var found *fileObject
	from, to := -1, -1
	start := 0
	for start < len(data) {
		end := bytes.IndexByte(data[start:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += start
		}
		line := bytes.TrimSpace(data[start:end])
		if len(line) > 0 && line[0] == '{' && bytes.Contains(line, []byte(`"mistake_step"`)) {
			var rec map[string]any
			if json.Unmarshal(line, &rec) == nil && isLabelRecord(rec) {
				if found != nil {
					return nil, nil, false // two labels: no one run's
				}
				found = &fileObject{}
				if json.Unmarshal(line, found) != nil {
					return nil, nil, false
				}
				from, to = start, end
			}
		}
		start = end + 1
	}
	if found == nil || bytes.Count(data, []byte("\n")) < 1 {
		return nil, nil, false
	}
	rest := bytes.Clone(data)
	blank(rest, from, to)
	return rest, found, true
}

func skipJSONSpace(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r') {
		i++
	}
	return i
}

func skipJSONSpaceComma(data []byte, i int) int {
	for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r' || data[i] == ',') {
		i++
	}
	return i
}

// errLabelBesideTraces: a wrapper's label beside a file of several traces
// names no one of them.
var errLabelBesideTraces = errors.New("a label beside several traces")

// labelTraceCases gives the one case of a labelled trace file the label
// beside it.
func labelTraceCases(cases []*Case, label *fileObject) ([]*Case, error) {
	if len(cases) != 1 {
		return nil, fmt.Errorf("%w (%d): label each trace's decisive span with offattr.mistake, or give --labels", errLabelBesideTraces, len(cases))
	}
	if cases[0].Label != nil {
		return cases, nil // a span marked in the file says more
	}
	c, err := label.labelled(cases[0].Run)
	if err != nil {
		return nil, err
	}
	return []*Case{c}, nil
}
