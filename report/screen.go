package report

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/offattr/offattr/triage"
)

// Row is one record of a screen as the screen page lists it.
type Row struct {
	File       string
	Agent      string
	Step       int
	Confidence float64
	Triage     triage.Class
	Reason     string
	// Rules are the rules whose findings blamed the step.
	Rules []string
	// Error is set for an input that could not be analysed; the other
	// fields are then empty.
	Error string
	// Page is the relative URL of the run's own page, or "" for none. It
	// is made by the caller from a path and a hash, never from log text.
	Page string
}

// Failed reports whether the input could not be analysed.
func (r Row) Failed() bool { return r.Error != "" }

// ScreenOptions say what a screen page shows beyond its rows.
type ScreenOptions struct {
	// Source names the screen's records file; shown, never linked.
	Source   string
	Redacted bool
}

// failedBand is the band the page gives an input that could not be read:
// failures are filtered and counted beside the triage classes.
const failedBand = "failed"

// chartBars is how many agents and rules the summary charts name.
const chartBars = 10

// WriteScreen writes the page of a whole screen: a summary with charts,
// then one table row per record, in the records' order.
func WriteScreen(w io.Writer, rows []Row, opts ScreenOptions) error {
	return execute(w, "screen", buildScreen(rows, opts))
}

type screenPage struct {
	page
	Source   string
	Redacted bool
	Total    int
	Failed   int
	Pages    bool
	Bands    []count
	Agents   []count
	Rules    []count
	Charts   []chart
	Rows     []rowView
}

type count struct {
	Name  string
	Count int
}

// rowView is a table row, every field already text: the row is the page's
// bulk, so the template only places it.
type rowView struct {
	File, Agent, Step, Conf, Triage, Rules, Reason, Page string
}

func buildScreen(rows []Row, opts ScreenOptions) *screenPage {
	p := &screenPage{Source: clean(opts.Source), Redacted: opts.Redacted, Total: len(rows)}
	bands := map[string]int{}
	agents, ruleCount := map[string]int{}, map[string]int{}
	names := map[string]string{} // agent identity → the name first seen
	var conf [10]int
	p.Rows = make([]rowView, len(rows))
	for i, r := range rows {
		rv := rowView{File: clean(r.File), Page: r.Page}
		if r.Page != "" {
			p.Pages = true
		}
		if r.Failed() {
			p.Failed++
			bands[failedBand]++
			rv.Triage, rv.Reason = failedBand, clean(r.Error)
			p.Rows[i] = rv
			continue
		}
		rv.Agent = clean(r.Agent)
		rv.Step = strconv.Itoa(r.Step)
		rv.Conf = decimal(r.Confidence)
		rv.Triage = clean(string(r.Triage))
		rv.Reason = clean(r.Reason)
		rv.Rules = clean(strings.Join(r.Rules, ", "))
		p.Rows[i] = rv
		bands[rv.Triage]++
		k := agentKey(r.Agent)
		if _, ok := names[k]; !ok {
			names[k] = rv.Agent
		}
		agents[k]++
		for _, ru := range r.Rules {
			ruleCount[clean(ru)]++
		}
		conf[min(max(int(r.Confidence*10), 0), 9)]++
	}
	for _, c := range triage.Classes {
		p.Bands = append(p.Bands, count{string(c), bands[string(c)]})
		delete(bands, string(c))
	}
	failed := bands[failedBand]
	delete(bands, failedBand)
	p.Bands = append(p.Bands, byCount(bands)...) // classes a newer screen may write
	p.Bands = append(p.Bands, count{failedBand, failed})

	for _, c := range byCount(agents) {
		p.Agents = append(p.Agents, count{names[c.Name], c.Count})
	}
	p.Rules = byCount(ruleCount)

	colours := newAgentSet()
	for _, c := range p.Agents[:min(len(p.Agents), chartBars)] {
		colours.add(c.Name)
	}
	p.Charts = []chart{
		barChart("Triage", p.Bands, func(c count) string { return "bar-" + c.Name }),
		barChart("Most blamed agents", p.Agents[:min(len(p.Agents), chartBars)], func(c count) string { return colours.class(c.Name) }),
		barChart("Rules that blamed the step", p.Rules[:min(len(p.Rules), chartBars)], func(count) string { return "bar-conf" }),
		barChart("Confidence", confBins(conf), func(count) string { return "bar-conf" }),
	}
	p.page = newPage("offattr screen: "+p.Source, colours.css())
	return p
}

// byCount orders counts by size, then name, so that the page is the same
// for the same records.
func byCount(m map[string]int) []count {
	out := make([]count, 0, len(m))
	for k, v := range m {
		out = append(out, count{k, v})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Count != out[j].Count {
			return out[i].Count > out[j].Count
		}
		return out[i].Name < out[j].Name
	})
	return out
}

func confBins(bins [10]int) []count {
	out := make([]count, len(bins))
	for i, n := range bins {
		out[i] = count{fmt.Sprintf("%.1f–%.1f", float64(i)/10, float64(i+1)/10), n}
	}
	return out
}

// chart is a horizontal bar chart laid out for an inline SVG.
type chart struct {
	Title         string
	Width, Height int
	LabelX, BarX  int
	Bars          []bar
}

type bar struct {
	Label, Full string
	Count       int
	Class       string
	Y, W        int
	TextY, NX   int
}

// Bar chart geometry: a label column, then bars scaled to the largest.
const (
	chartLabelW = 138
	chartBarW   = 170
	chartRowH   = 20
	chartBarH   = 14
)

func barChart(title string, counts []count, class func(count) string) chart {
	c := chart{Title: title, Width: chartLabelW + chartBarW + 56, Height: max(len(counts), 1) * chartRowH,
		LabelX: chartLabelW - 6, BarX: chartLabelW}
	most := 0
	for _, n := range counts {
		most = max(most, n.Count)
	}
	for i, n := range counts {
		w := 0
		if most > 0 {
			w = n.Count * chartBarW / most
		}
		if n.Count > 0 {
			w = max(w, 1)
		}
		y := i * chartRowH
		c.Bars = append(c.Bars, bar{Label: excerpt(n.Name, 18), Full: n.Name, Count: n.Count, Class: class(n),
			Y: y + (chartRowH-chartBarH)/2, W: w, TextY: y + chartRowH - 6, NX: chartLabelW + w + 5})
	}
	return c
}
