package run

// The tools a request offered its model, as the request's own schema
// declares them beside its messages.

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Tool is a tool a run's model was offered: its name, and the values its
// parameters' schema offers (an enum's choices, a default, a constant, its
// examples). A call given one of those values was given it by the schema,
// as by the task. The schema's descriptions are neither: they say what a
// parameter means, and an example written in one ("e.g. USD") is no value
// offered.
type Tool struct {
	Name   string   `json:"name"`
	Offers []string `json:"offers,omitempty"`
}

// requestTools is where a saved chat request keeps its tool definitions
// beside its messages: "tools" (OpenAI's, Ollama's and vLLM's
// {"type": "function", "function": {...}}, Anthropic's {"name",
// "input_schema"}, Gemini's {"functionDeclarations": [...]}), the older
// "functions", and Bedrock's "toolConfig" {"tools": [{"toolSpec": ...}]}.
type requestTools struct {
	Tools      json.RawMessage `json:"tools"`
	Functions  json.RawMessage `json:"functions"`
	ToolConfig json.RawMessage `json:"toolConfig"` // read when asked: a field of this name may hold anything
}

// schemaDepth bounds how deep a schema is read: a log is untrusted, and no
// tool's parameters nest deeper.
const schemaDepth = 32

// toolsOf reads the tool definitions a request's object holds. What is not
// a tool definition is passed over: a request's "tools" may hold tools of
// a kind that takes no schema (a provider's built-in search).
func (t requestTools) toolsOf() []Tool {
	var config struct {
		Tools json.RawMessage `json:"tools"`
	}
	if len(t.ToolConfig) > 0 {
		_ = json.Unmarshal(t.ToolConfig, &config) // a toolConfig of another shape declares no tools
	}
	var out []Tool
	for _, raw := range []json.RawMessage{t.Tools, t.Functions, config.Tools} {
		var defs []json.RawMessage
		if len(raw) == 0 || json.Unmarshal(raw, &defs) != nil {
			continue
		}
		for _, d := range defs {
			out = append(out, toolDefinition(d)...)
		}
	}
	return out
}

// toolDefinitions reads a JSON array of tool definitions in any of the
// shapes requestTools names (a span's gen_ai.tool.definitions), or one
// definition; nil when data is neither.
func toolDefinitions(data string) []Tool {
	var defs []json.RawMessage
	if json.Unmarshal([]byte(data), &defs) != nil {
		return toolDefinition(json.RawMessage(data))
	}
	var out []Tool
	for _, d := range defs {
		out = append(out, toolDefinition(d)...)
	}
	return out
}

// toolDefinition reads one entry of a request's tools: a tool, or
// Gemini's group of function declarations.
func toolDefinition(d json.RawMessage) []Tool {
	var def struct {
		Name         string          `json:"name"`
		Parameters   json.RawMessage `json:"parameters"`
		InputSchema  json.RawMessage `json:"input_schema"`
		InputSchema2 json.RawMessage `json:"inputSchema"`
		Function     *struct {
			Name       string          `json:"name"`
			Parameters json.RawMessage `json:"parameters"`
		} `json:"function"`
		ToolSpec *struct {
			Name        string `json:"name"`
			InputSchema struct {
				JSON json.RawMessage `json:"json"`
			} `json:"inputSchema"`
		} `json:"toolSpec"`
		Declarations  []json.RawMessage `json:"functionDeclarations"`
		Declarations2 []json.RawMessage `json:"function_declarations"`
	}
	if json.Unmarshal(d, &def) != nil {
		return nil
	}
	var out []Tool
	for _, g := range append(def.Declarations, def.Declarations2...) {
		out = append(out, toolDefinition(g)...)
	}
	name, schema := def.Name, firstRaw(def.Parameters, def.InputSchema, def.InputSchema2)
	switch {
	case def.Function != nil:
		name, schema = def.Function.Name, def.Function.Parameters
	case def.ToolSpec != nil:
		name, schema = def.ToolSpec.Name, def.ToolSpec.InputSchema.JSON
	}
	if name == "" {
		return out
	}
	var tree any
	if len(schema) > 0 {
		_ = json.Unmarshal(schema, &tree) // a schema that is no JSON offers nothing
	}
	offers := schemaOffers(tree, nil, 0)
	slices.Sort(offers) // a schema's keys are read in no order
	return append(out, Tool{Name: name, Offers: slices.Compact(offers)})
}

// firstRaw returns the first of raws that is set.
func firstRaw(raws ...json.RawMessage) json.RawMessage {
	for _, r := range raws {
		if len(r) > 0 && string(r) != "null" {
			return r
		}
	}
	return nil
}

// schemaOffers appends to out the values a JSON schema offers, at every
// depth: those of "enum" and "examples", and "default" and "const". The
// names of "properties" are parameters, not values; descriptions and
// titles are passed over.
func schemaOffers(schema any, out []string, depth int) []string {
	obj, ok := schema.(map[string]any)
	if !ok || depth > schemaDepth {
		if l, ok := schema.([]any); ok && depth <= schemaDepth {
			for _, e := range l {
				out = schemaOffers(e, out, depth+1)
			}
		}
		return out
	}
	for k, v := range obj {
		switch k {
		case "enum", "examples", "default", "const":
			out = scalars(v, out, depth)
		case "description", "title", "type", "required", "format", "pattern", "$ref":
		case "properties", "$defs", "definitions", "patternProperties":
			if m, ok := v.(map[string]any); ok {
				for _, p := range m {
					out = schemaOffers(p, out, depth+1)
				}
			}
		default:
			out = schemaOffers(v, out, depth+1)
		}
	}
	return out
}

// scalars appends the scalar values v holds (itself, or the elements of a
// list) as text; the caller sorts and compacts them, so that a long list
// costs no search of what came before.
func scalars(v any, out []string, depth int) []string {
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	switch x := v.(type) {
	case string:
		add(x)
	case float64:
		add(strconv.FormatFloat(x, 'f', -1, 64))
	case bool:
		add(strconv.FormatBool(x))
	case []any:
		if depth <= schemaDepth {
			for _, e := range x {
				out = scalars(e, out, depth+1)
			}
			return out
		}
	}
	return out
}
