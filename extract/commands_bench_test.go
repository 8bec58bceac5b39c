package extract

import "testing"

// BenchmarkCommandCalls reads calls given command lines as coding agents
// write them (SWE-agent's bash and editor, Claude Code's Bash, Codex CLI's
// shell): what reading a call's command costs.
func BenchmarkCommandCalls(b *testing.B) {
	args := []string{
		`{"command": "sed -i 's/a/b/' src/app.py"}`,
		`{"command": "cd /repo && python -m pytest -q tests/test_parser.py 2>&1 | tail -20"}`,
		`{"command": "cat > reproduce.py <<'EOF'\nfrom cfg.values import parse_bool\nprint(parse_bool('on'))\nEOF"}`,
		`{"command": "grep -rn \"def parse\" src | head -50", "description": "Find the parser"}`,
		`{"command": "str_replace", "path": "/repo/shop/orders.py", "old_str": "items = order.get(\"items\", [])", "new_str": "items = order.get(\"items\") or []"}`,
		`{"command": ["bash", "-lc", "git diff | head -50"]}`,
		`{"command": "python3 -c \"from shop.orders import total; print(total({'coupon': None}))\""}`,
		`{"command": "find . -name '*.pyc' -delete && pip install -e . > /dev/null"}`,
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range args {
			newCall("bash", a, -1)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(args)), "ns/call")
}
