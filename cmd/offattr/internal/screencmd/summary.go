package screencmd

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/internal/escape"
	"github.com/offattr/offattr/rules"
	"github.com/offattr/offattr/triage"
)

// summary tallies what was recorded, for the closing lines on stderr.
type summary struct {
	recorded, failed int
	byTriage         map[triage.Class]int
	byAgent          map[string]int
	usage            rules.Usage
	// Counted by the input reader, which may still be blocked on stdin
	// when an interrupted screen writes its summary.
	skippedResume atomic.Int64 // already in the output (--resume)
	otherShards   atomic.Int64 // belong to another --shard
	unfinished    int          // dispatched but not recorded (interrupted)
	leftOut       int          // labels files among the inputs: no runs
}

func newSummary() *summary {
	return &summary{byTriage: map[triage.Class]int{}, byAgent: map[string]int{}}
}

func (s *summary) add(r screenfile.Record) {
	s.recorded++
	if r.Failed() {
		s.failed++
		return
	}
	s.byTriage[r.Triage]++
	s.byAgent[r.Agent]++
	s.usage = s.usage.Add(r.Usage)
}

// topAgents is how many agents the summary names before "others".
const topAgents = 8

func (s *summary) write(w io.Writer, elapsed time.Duration, workers int) {
	rate := 0.0
	if elapsed > 0 {
		rate = float64(s.recorded) / elapsed.Seconds()
	}
	fmt.Fprintf(w, "screened %d runs in %s (%.1f runs/s, %d workers); %d failed\n",
		s.recorded, elapsed.Round(time.Millisecond), rate, workers, s.failed)
	var skipped []string
	if n := s.skippedResume.Load(); n > 0 {
		skipped = append(skipped, fmt.Sprintf("%d already recorded", n))
	}
	if n := s.otherShards.Load(); n > 0 {
		skipped = append(skipped, fmt.Sprintf("%d in other shards", n))
	}
	if s.unfinished > 0 {
		skipped = append(skipped, fmt.Sprintf("%d not finished", s.unfinished))
	}
	if s.leftOut > 0 {
		skipped = append(skipped, fmt.Sprintf("%d labels files", s.leftOut))
	}
	if len(skipped) > 0 {
		fmt.Fprintf(w, "skipped: %s\n", strings.Join(skipped, ", "))
	}
	if s.recorded == s.failed {
		return
	}
	parts := make([]string, len(triage.Classes))
	for i, c := range triage.Classes {
		parts[i] = fmt.Sprintf("%s %d", c, s.byTriage[c])
	}
	fmt.Fprintf(w, "triage: %s\n", strings.Join(parts, ", "))

	agents := make([]string, 0, len(s.byAgent))
	for a := range s.byAgent {
		agents = append(agents, a)
	}
	sort.Slice(agents, func(i, j int) bool {
		if s.byAgent[agents[i]] != s.byAgent[agents[j]] {
			return s.byAgent[agents[i]] > s.byAgent[agents[j]]
		}
		return agents[i] < agents[j]
	})
	parts = parts[:0]
	others := 0
	for i, a := range agents {
		if i < topAgents {
			parts = append(parts, fmt.Sprintf("%s %d", escape.Line(a), s.byAgent[a]))
		} else {
			others += s.byAgent[a]
		}
	}
	if others > 0 {
		parts = append(parts, fmt.Sprintf("others %d", others))
	}
	fmt.Fprintf(w, "agents: %s\n", strings.Join(parts, ", "))
	if s.usage.LLMCalls > 0 {
		fmt.Fprintf(w, "model: %d calls, %d prompt tokens, %d completion tokens\n",
			s.usage.LLMCalls, s.usage.PromptTokens, s.usage.CompletionTokens)
	}
}
