package report

import (
	"fmt"
	"html/template"
	"strings"

	"github.com/offattr/offattr/run"
)

// palette holds the first agents' colours: ten hues far apart that stay
// readable as borders and swatches on a light page and in greyscale print
// (they differ in lightness too). Later agents get hues by the golden angle.
var palette = []string{
	"#3b6ea5", "#d9731a", "#3d9a50", "#b5405a", "#7c5cb0",
	"#2a9a9a", "#a0782a", "#c0509a", "#5a6a7a", "#8a9a20",
}

// colour returns agent i's colour: a CSS colour made of numbers only.
func colour(i int) string {
	if i < len(palette) {
		return palette[i]
	}
	return fmt.Sprintf("hsl(%d 55%% 42%%)", (i*137)%360)
}

// agentSet numbers the agents of a run in order of first appearance, one
// number per identity (run.AgentKey), so each gets one colour wherever it
// is named.
type agentSet struct {
	index map[string]int
	names []string
}

func newAgentSet() *agentSet { return &agentSet{index: map[string]int{}} }

// key is the agent's identity; a name with no letter or digit (which
// run.AgentKey maps to "") stands for itself.
func agentKey(name string) string {
	if k := run.AgentKey(name); k != "" {
		return k
	}
	return "\x00" + name
}

// add registers name and returns its number.
func (s *agentSet) add(name string) int {
	k := agentKey(name)
	if i, ok := s.index[k]; ok {
		return i
	}
	s.index[k] = len(s.names)
	s.names = append(s.names, name)
	return len(s.names) - 1
}

// class is the CSS class that colours name: "ag3". Unknown names (an agent
// the steps never show, such as a model's vote for a step out of range)
// get the neutral "ag".
func (s *agentSet) class(name string) string {
	if i, ok := s.index[agentKey(name)]; ok {
		return fmt.Sprintf("ag%d", i)
	}
	return "ag"
}

// css returns the rules that give each agent class its colour, as a custom
// property the stylesheet reads (border, swatch, graph node). It is built
// from numbers alone, so it is trusted CSS.
func (s *agentSet) css() template.CSS {
	var b strings.Builder
	for i := range s.names {
		fmt.Fprintf(&b, ".ag%d{--c:%s}", i, colour(i))
	}
	return template.CSS(b.String())
}
