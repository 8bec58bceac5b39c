package run

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// AgentKey is the identity of an agent name: the one comparison every stage
// uses (loading, extraction, rules, scoring). Case and separators do not
// matter, digits do: "WebSurfer" = "web_surfer" = "Web-Surfer", but
// "Agent1" ≠ "Agent2". Labels written by people spell the same agent in
// different cases and with different separators; they never drop digits.
func AgentKey(name string) string {
	// Most names are ASCII, and many already keys: every stage asks for
	// the key of every word that may be a name.
	same := true
	for i := range len(name) {
		switch c := name[i]; {
		case c >= utf8.RuneSelf:
			return agentKey(name)
		case !('a' <= c && c <= 'z' || '0' <= c && c <= '9'):
			same = false
		}
	}
	if same {
		return name
	}
	return string(AppendAgentKey(make([]byte, 0, len(name)), name))
}

// AppendAgentKey appends AgentKey(name) to dst: a caller that only looks
// the key up can build it in a buffer of its own, where an ASCII name
// costs no allocation.
func AppendAgentKey(dst []byte, name string) []byte {
	for i := range len(name) {
		if name[i] >= utf8.RuneSelf {
			return append(dst, agentKey(name)...)
		}
	}
	for i := range len(name) {
		switch c := name[i]; {
		case 'A' <= c && c <= 'Z':
			dst = append(dst, c+'a'-'A')
		case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
			dst = append(dst, c)
		}
	}
	return dst
}

// agentKey is AgentKey for any name.
func agentKey(name string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// SameAgent reports whether two names denote the same agent. A name with no
// letter or digit denotes no agent, so it matches nothing.
func SameAgent(a, b string) bool {
	k := AgentKey(a)
	return k != "" && k == AgentKey(b)
}

// NamesAgent reports whether a label's agent names the agent a run calls
// agent: the same agent (SameAgent), or, where one of the two writes a
// profile in brackets after a name as MetaGPT does ("Alex(Engineer)"), the
// other is that name or that profile ("Alex", "Engineer"). A label may
// name a team's member either way.
func NamesAgent(label, agent string) bool {
	if SameAgent(label, agent) {
		return true
	}
	for _, p := range [][2]string{{label, agent}, {agent, label}} {
		if name, profile, ok := profiled(p[0]); ok && (SameAgent(name, p[1]) || SameAgent(profile, p[1])) {
			return true
		}
	}
	return false
}

// profiled splits a name that writes a profile in brackets after it
// ("Alex(Engineer)", "Alex (Engineer)") into the two.
func profiled(s string) (name, profile string, ok bool) {
	s = strings.TrimSpace(s)
	open := strings.LastIndexByte(s, '(')
	if open <= 0 || !strings.HasSuffix(s, ")") {
		return "", "", false
	}
	name, profile = strings.TrimSpace(s[:open]), strings.TrimSpace(s[open+1:len(s)-1])
	return name, profile, name != "" && profile != ""
}
