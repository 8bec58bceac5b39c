package rules

import (
	"testing"

	"github.com/offattr/offattr/run"
	"github.com/stretchr/testify/assert"
)

// TestConvertedFigureSupported: an assistant that tells a tool's reading
// converted right into the unit asked for ("72 °F" for 22 °C, "5 miles"
// for 8 km) tells what the tool returned; one that converts wrong tells
// a figure of its own. Shape: a weather and a route lookup, OpenAI tool
// calls.
func TestConvertedFigureSupported(t *testing.T) {
	for _, tt := range []struct {
		name, result, answer string
		want                 []int
	}{
		{"celsius told in fahrenheit", `{"city": "Lyon", "temperature": "22 °C"}`, "It is 72 °F in Lyon right now.", nil},
		{"fahrenheit told wrong", `{"city": "Lyon", "temperature": "22 °C"}`, "It is 75 °F in Lyon right now.", []int{3}},
		{"kilometres told in miles", `{"city": "Lyon", "distance": "8 km"}`, "The station is about 5 miles from Lyon.", nil},
		{"miles told wrong", `{"city": "Lyon", "distance": "8 km"}`, "The station is about 8 miles from Lyon.", []int{3}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "What is it like in Lyon?", "",
				msg{agent: "user", content: "What is it like in Lyon?", kind: run.KindUser},
				msg{agent: "assistant", content: `lookup({"city": "Lyon"})`, kind: run.KindToolCall},
				msg{agent: "tool", content: tt.result, kind: run.KindToolResult},
				msg{agent: "assistant", content: tt.answer},
			)
			assert.Equal(t, tt.want, steps(UnsupportedAnswer.Run(in), true), "unsupported_answer")
		})
	}
}

// TestConvertedFigureNoClaim: a reporter that writes an analyst's reading
// in another unit, converted right, introduces no value; one that
// converts wrong does. Shape: a two-agent team's messages.
func TestConvertedFigureNoClaim(t *testing.T) {
	for _, tt := range []struct {
		name, report string
		want         []int
	}{
		{"converted right", "Report: the peak stands 19,341 feet high, the survey says.", nil},
		{"converted wrong", "Report: the peak stands 17,341 feet high, the survey says.", []int{2}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := prepare(t, "How high is the peak?", "",
				msg{agent: "human", content: "How high is the peak?"},
				msg{agent: "Analyst", content: "The survey gives the peak as 5,895 metres."},
				msg{agent: "Reporter", content: tt.report},
				msg{agent: "Editor", content: "Published: the peak is " + tt.report[len("Report: the peak stands "):]},
			)
			assert.Equal(t, tt.want, steps(UnsupportedClaim.Run(in), true))
		})
	}
}
