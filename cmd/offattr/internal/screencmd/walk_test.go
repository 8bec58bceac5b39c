package screencmd

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/screenfile"
	"github.com/offattr/offattr/run"
)

func TestWalkFollowsSymlinksOnce(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	require.NoError(t, os.MkdirAll(filepath.Join(real, "sub"), 0o755))
	for _, f := range []string{"1.json", "sub/2.json"} {
		require.NoError(t, os.WriteFile(filepath.Join(real, f), []byte(runJSON("A", 0.9, "")), 0o644))
	}
	top := filepath.Join(root, "top")
	require.NoError(t, os.MkdirAll(top, 0o755))
	links := map[string]string{
		filepath.Join(top, "linked"):       real,                           // a linked directory is walked
		filepath.Join(real, "sub", "loop"): filepath.Join("..", ".."),      // a cycle back up: walked once
		filepath.Join(top, "again"):        real,                           // the same directory twice: once
		filepath.Join(top, "3.json"):       filepath.Join(real, "1.json"),  // a linked file is its own input
		filepath.Join(top, "gone.json"):    filepath.Join(root, "missing"), // dangling: recorded, not dropped
	}
	for link, target := range links {
		require.NoError(t, os.Symlink(target, link))
	}
	var names []string
	var failed []string
	for _, in := range expandPath(top) {
		rel, err := filepath.Rel(top, in.name)
		require.NoError(t, err)
		if in.err != nil {
			failed = append(failed, rel)
			continue
		}
		names = append(names, rel)
	}
	assert.Equal(t, []string{"3.json", "again/1.json", "again/sub/2.json"}, names,
		"top/again and top/linked are one directory, walked once (the first in name order); the loop back to root adds nothing new")
	assert.Equal(t, []string{"gone.json"}, failed)
}

func TestLongStreamLineIsRecordedNotRead(t *testing.T) {
	in := runJSON("A", 0.9, "") + "\n" + runJSON("B", 0.9, strings.Repeat("x", 5000)) + "\n" + runJSON("C", 0.9, "") + "\n"
	var got []input
	require.NoError(t, streamInputs(bufio.NewReaderSize(strings.NewReader(in), 16), 1000, func(i input) bool {
		got = append(got, i)
		return true
	}))
	require.Len(t, got, 3)
	assert.Equal(t, "-:2", got[1].name)
	require.ErrorIs(t, got[1].err, run.ErrTooLarge)
	assert.ErrorContains(t, got[1].err, "--max-input")
	assert.Nil(t, got[1].data, "its bytes are not kept")
	assert.Contains(t, string(got[2].data), `"C"`)
}

// TestWalkLeavesClaudeSessionDirs: a Claude Code project directory holds
// each session's log and, beside it, a directory of its sub-agents' logs,
// which reading the session's log reads: they are not inputs of their own.
func TestWalkLeavesClaudeSessionDirs(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "s1", "subagents"), 0o755))
	require.NoError(t, os.MkdirAll(filepath.Join(root, "other", "subagents"), 0o755))
	for _, f := range []string{"s1.jsonl", "s1/subagents/agent-a1.jsonl", "s1/subagents/agent-a1.meta.json", "other/subagents/x.jsonl"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, f), []byte("{}"), 0o644))
	}
	var names []string
	for _, in := range expandPath(root) {
		rel, err := filepath.Rel(root, in.name)
		require.NoError(t, err)
		names = append(names, rel)
	}
	assert.Equal(t, []string{"other/subagents/x.jsonl", "s1.jsonl"}, names, "a directory with no log beside it is walked")
}

// TestWalkReadsTracesNamedByTheirID: Genkit keeps each trace in a file
// named by its id alone; such a file is an input, a text file beside it
// without an extension is not.
func TestWalkReadsTracesNamedByTheirID(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		"0af7651916cd43dd8448eb211c80319c": `{"traceId": "0af7651916cd43dd8448eb211c80319c", "spans": {}}`,
		"README":                           "Traces written by the Genkit developer UI.",
	} {
		require.NoError(t, os.WriteFile(filepath.Join(root, name), []byte(content), 0o644))
	}
	var names []string
	for _, in := range expandPath(root) {
		names = append(names, filepath.Base(in.name))
	}
	assert.Equal(t, []string{"0af7651916cd43dd8448eb211c80319c"}, names)
}

// TestWalkReadsACodexSubagentWithItsParent: a Codex sub-agent's rollout
// beside its parent's is read with the parent's, not again on its own;
// without the parent's beside it, it is a run of its own.
func TestWalkReadsACodexSubagentWithItsParent(t *testing.T) {
	const (
		parent = "rollout-2026-11-27T18-37-40-01a21e4c-82cd-75c2-bdb4-1c69e0b197d3.jsonl"
		child  = "rollout-2026-11-27T18-37-40-01a21e4c-8358-7140-8478-b2d8e9f7a486.jsonl"
	)
	root := t.TempDir()
	day := filepath.Join(root, "2026", "11", "27")
	require.NoError(t, os.MkdirAll(day, 0o755))
	for _, f := range []string{parent, child} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", "..", "testdata", "traces", "codex-subagent", f))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(day, f), data, 0o644))
	}
	names := func() (out []string) {
		for _, in := range expandPath(root) {
			out = append(out, filepath.Base(in.name))
		}
		return out
	}
	assert.Equal(t, []string{parent}, names())
	require.NoError(t, os.Remove(filepath.Join(day, parent)))
	assert.Equal(t, []string{child}, names(), "an orphan is read on its own")
}

// TestWalkReadsAiderHistories: aider keeps its chat history in each
// project it runs in as a hidden Markdown file; screening the projects
// reads it, and leaves other hidden entries and Markdown alone.
func TestWalkReadsAiderHistories(t *testing.T) {
	root := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(root, "shop", ".git"), 0o755))
	for _, f := range []string{"shop/.aider.chat.history.md", "shop/.aider.input.history", "shop/README.md", "shop/.git/HEAD.json", "shop/.settings.json"} {
		require.NoError(t, os.WriteFile(filepath.Join(root, f), []byte("# aider chat started at 2025-05-28\n"), 0o644))
	}
	assert.Equal(t, []string{"shop/.aider.chat.history.md"}, walked(t, root))
}

// TestWalkReadsCrewAITextLogs: a CrewAI crew writes its task log under the
// name its output_log_file was given, often logs.txt; screening a
// directory reads it, and leaves other text and log files alone.
func TestWalkReadsCrewAITextLogs(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{
		"crew/logs.txt":   "2025-05-28 10:00:01: task_name=\"research\", task=\"Find it.\", agent=\"Researcher\", status=\"started\"\n",
		"crew/notes.txt":  "Remember to rerun the crew.\n",
		"crew/server.log": "2025-05-28 10:00:01: GET /health 200\n",
	}
	require.NoError(t, os.MkdirAll(filepath.Join(root, "crew"), 0o755))
	for f, text := range files {
		require.NoError(t, os.WriteFile(filepath.Join(root, f), []byte(text), 0o644))
	}
	assert.Equal(t, []string{"crew/logs.txt"}, walked(t, root))
}

// walked lists the files expandPath takes under root, relative to it.
func walked(t *testing.T, root string) []string {
	t.Helper()
	var names []string
	for _, in := range expandPath(root) {
		rel, err := filepath.Rel(root, in.name)
		require.NoError(t, err)
		names = append(names, rel)
	}
	return names
}

// TestScreenGoesPastABrokenDatabase: a directory's SQLite databases are
// runs (AutoGen's and Phoenix's stores), a file named as one that is none
// is not; a database that does not read is recorded as a failure naming
// it, and the screen goes on with the runs after it.
func TestScreenGoesPastABrokenDatabase(t *testing.T) {
	dir := corpus(t, 2)
	cut := filepath.Join(dir, "logs.db")
	require.NoError(t, os.WriteFile(cut, append([]byte("SQLite format 3\x00\x10\x00\x01\x01"), make([]byte, 200)...), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "notes.db"), []byte("not a database"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "zz.json"), []byte(runJSON("Coder", 0.6, "")), 0o644))
	assert.Equal(t, []string{"1.json", "2.json", "logs.db", "sub/broken.json", "zz.json"}, walked(t, dir))

	opts, out, _ := newOpts(&spy{}, dir)
	err := screenRun(context.Background(), opts)
	require.ErrorIs(t, err, cmdutil.ErrInputsFailed)
	recs := parseRecords(t, out.Bytes(), screenfile.JSONL)
	require.Equal(t, []string{"1.json", "2.json", "logs.db", "broken.json", "zz.json"}, files(recs))
	assert.Contains(t, recs[2].Error, cut+": an SQLite database that does not read")
	assert.Empty(t, recs[4].Error)
	assert.Equal(t, "Coder", recs[4].Agent)
}
