package ollamatest

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"
	"sync"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/ollama/ollama/api"
)

// Judge is a stand-in model of known accuracy, for measuring how offattr
// weighs a model: it is told the labelled step of the run being judged
// (Expect), and on every request that lets it name steps it names that
// step with chance P when the step is among those shown, and otherwise
// another shown step chosen evenly, with the same confidence either way,
// so its confidence tells nothing. A reader (a schema with "suspects")
// names one step; an analyst votes for one and rates it Confidence on
// every criterion, the others 1 − Confidence. Its draws are a hash of Seed,
// the label and the request, so the same requests get the same answers in
// any order. Runs are judged one at a time: Expect applies to every
// request until the next Expect. Other requests get SchemaReply.
type Judge struct {
	P          float64
	Seed       uint64
	Confidence float64 // 0 means 0.8
	// Shared makes the analysts of a panel one voice: their draws leave
	// out the system prompt, where their roles differ, so they all name
	// the same step, right or wrong, as analysts that share one model's
	// biases may.
	Shared bool

	mu    sync.Mutex
	label int
	known bool
}

// NewJudge returns a judge right with chance p.
func NewJudge(p float64, seed uint64) *Judge { return &Judge{P: p, Seed: seed} }

// Expect sets the labelled step of the run judged next.
func (j *Judge) Expect(step int) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.label, j.known = step, true
}

// Forget clears the label: every named step is then a wrong one.
func (j *Judge) Forget() {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.known = false
}

// Reply is the judge's answer to req; use it as Server.Respond.
func (j *Judge) Reply(req *api.ChatRequest, n int) Reply {
	var s jsonschema.Schema
	if err := json.Unmarshal(req.Format, &s); err != nil || len(req.Messages) == 0 {
		return SchemaReply(req, n)
	}
	conf := j.Confidence
	if conf == 0 {
		conf = 0.8
	}
	if sus, ok := s.Properties["suspects"]; ok && sus.Items != nil && sus.Items.Properties["step"] != nil {
		var steps []int
		for _, v := range sus.Items.Properties["step"].Enum {
			if f, ok := v.(float64); ok {
				steps = append(steps, int(f))
			}
		}
		if len(steps) == 0 {
			return Reply{Content: `{"suspects":[]}`}
		}
		named := j.name(req, steps)
		return Reply{Content: fmt.Sprintf(`{"suspects":[{"reason":"the step looks wrong","step":%d,"confidence":%.2f}]}`, named, conf)}
	}
	steps := analystSteps(&s)
	if steps == nil {
		return SchemaReply(req, n)
	}
	named := j.name(req, steps)
	var b strings.Builder
	b.WriteByte('{')
	for _, st := range steps {
		c := 1 - conf
		if st == named {
			c = conf
		}
		fmt.Fprintf(&b, `"step_%d":{"fault":%.2f,"first":%.2f,"decisive":%.2f},`, st, c, c, c)
	}
	fmt.Fprintf(&b, `"vote":{"reason":"the step looks wrong","step":%d,"confidence":%.2f}}`, named, conf)
	return Reply{Content: b.String()}
}

// name chooses the step to name among steps (sorted): the label with
// chance P when shown, else another one evenly.
func (j *Judge) name(req *api.ChatRequest, steps []int) int {
	j.mu.Lock()
	label, known := j.label, j.known
	j.mu.Unlock()
	shown := known && slices.Contains(steps, label)
	if shown && j.draw(req, label, 0) < j.P {
		return label
	}
	others := steps
	if shown {
		others = slices.DeleteFunc(slices.Clone(steps), func(s int) bool { return s == label })
	}
	if len(others) == 0 {
		return label // the label was the only step shown
	}
	k := int(j.draw(req, label, 1) * float64(len(others)))
	return others[min(k, len(others)-1)]
}

// draw is a number in [0, 1) fixed by the seed, the label, the request and
// which draw it is.
func (j *Judge) draw(req *api.ChatRequest, label, which int) float64 {
	h := fnv.New64a()
	var buf [8]byte
	for _, v := range []uint64{j.Seed, uint64(label), uint64(which)} {
		binary.LittleEndian.PutUint64(buf[:], v)
		h.Write(buf[:])
	}
	for _, m := range req.Messages {
		if j.Shared && m.Role == "system" {
			continue
		}
		h.Write([]byte(m.Role))
		h.Write([]byte{0})
		h.Write([]byte(m.Content))
		h.Write([]byte{0})
	}
	h.Write(req.Format)
	// fnv's low bits mix poorly for short inputs; finish with splitmix64.
	x := h.Sum64()
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return float64(x>>11) / (1 << 53)
}
