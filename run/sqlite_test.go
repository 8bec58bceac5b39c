package run_test

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"database/sql"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	_ "modernc.org/sqlite"

	"github.com/offattr/offattr/run"
)

// ag2Schema is what AutoGen's (AG2's) SQLite logger creates when it
// starts (autogen/logger/sqlite_logger.py, SqliteLogger.start), each
// statement as it runs it.
var ag2Schema = []string{`
                CREATE TABLE IF NOT EXISTS chat_completions(
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    invocation_id TEXT,
                    client_id INTEGER,
                    wrapper_id INTEGER,
                    session_id TEXT,
                    source_name TEXT,
                    request TEXT,
                    response TEXT,
                    is_cached INEGER,
                    cost REAL,
                    start_time DATETIME DEFAULT CURRENT_TIMESTAMP,
                    end_time DATETIME DEFAULT CURRENT_TIMESTAMP)
            `, `
                CREATE TABLE IF NOT EXISTS agents (
                    id INTEGER PRIMARY KEY,                             -- Key assigned by the database
                    agent_id INTEGER,                                   -- result of python id(agent)
                    wrapper_id INTEGER,                                 -- result of python id(agent.client)
                    session_id TEXT,
                    name TEXT,                                          -- agent.name
                    class TEXT,                                         -- type or class name of the agent
                    init_args TEXT,                                     -- JSON serialization of constructor
                    timestamp DATETIME DEFAULT CURRENT_TIMESTAMP,
                    UNIQUE(agent_id, session_id))
            `, `
                CREATE TABLE IF NOT EXISTS oai_wrappers (
                    id INTEGER PRIMARY KEY,                             -- Key assigned by the database
                    wrapper_id INTEGER,                                 -- result of python id(wrapper)
                    session_id TEXT,
                    init_args TEXT,                                     -- JSON serialization of constructor
                    timestamp DATETIME DEFAULT CURRENT_TIMESTAMP,
                    UNIQUE(wrapper_id, session_id))
            `, `
                CREATE TABLE IF NOT EXISTS oai_clients (
                    id INTEGER PRIMARY KEY,                             -- Key assigned by the database
                    client_id INTEGER,                                  -- result of python id(client)
                    wrapper_id INTEGER,                                 -- result of python id(wrapper)
                    session_id TEXT,
                    class TEXT,                                         -- type or class name of the client
                    init_args TEXT,                                     -- JSON serialization of constructor
                    timestamp DATETIME DEFAULT CURRENT_TIMESTAMP,
                    UNIQUE(client_id, session_id))
            `, `
            CREATE TABLE IF NOT EXISTS version (
                id INTEGER PRIMARY KEY CHECK (id = 1),               -- id of the logging database
                version_number INTEGER NOT NULL                      -- version of the logging database
            );
            `, `
            CREATE TABLE IF NOT EXISTS events (
                event_name TEXT,
                source_id INTEGER,
                source_name TEXT,
                agent_module TEXT DEFAULT NULL,
                agent_class_name TEXT DEFAULT NULL,
                id INTEGER PRIMARY KEY,
                json_state TEXT,
                timestamp DATETIME DEFAULT CURRENT_TIMESTAMP
            );
            `, `
                        CREATE TABLE IF NOT EXISTS function_calls (
                            source_id INTEGER,
                            source_name TEXT,
                            function_name TEXT,
                            args TEXT DEFAULT NULL,
                            returns TEXT DEFAULT NULL,
                            timestamp DATETIME DEFAULT CURRENT_TIMESTAMP
                        );
                        `,
	`INSERT INTO version (id, version_number) VALUES (1, 1);`,
}

// phoenixSchema is the tables of Phoenix's store that hold its traces,
// as its first migration creates them in SQLite (later ones add columns
// offattr does not read).
var phoenixSchema = []string{`
CREATE TABLE projects (
	id INTEGER NOT NULL,
	name VARCHAR NOT NULL,
	description VARCHAR,
	gradient_start_color VARCHAR DEFAULT '#5bdbff' NOT NULL,
	gradient_end_color VARCHAR DEFAULT '#1c76fc' NOT NULL,
	created_at TIMESTAMP DEFAULT (CURRENT_TIMESTAMP) NOT NULL,
	updated_at TIMESTAMP DEFAULT (CURRENT_TIMESTAMP) NOT NULL,
	CONSTRAINT pk_projects PRIMARY KEY (id),
	CONSTRAINT uq_projects_name UNIQUE (name)
)`, `
CREATE TABLE traces (
	id INTEGER NOT NULL,
	project_rowid INTEGER NOT NULL,
	trace_id VARCHAR NOT NULL,
	start_time TIMESTAMP NOT NULL,
	end_time TIMESTAMP NOT NULL,
	CONSTRAINT pk_traces PRIMARY KEY (id),
	CONSTRAINT fk_traces_project_rowid_projects FOREIGN KEY(project_rowid) REFERENCES projects (id) ON DELETE CASCADE,
	CONSTRAINT uq_traces_trace_id UNIQUE (trace_id)
)`, `
CREATE TABLE spans (
	id INTEGER NOT NULL,
	trace_rowid INTEGER NOT NULL,
	span_id VARCHAR NOT NULL,
	parent_id VARCHAR,
	name VARCHAR NOT NULL,
	span_kind VARCHAR NOT NULL,
	start_time TIMESTAMP NOT NULL,
	end_time TIMESTAMP NOT NULL,
	attributes JSON NOT NULL,
	events JSON NOT NULL,
	status_code VARCHAR DEFAULT 'UNSET' NOT NULL,
	status_message VARCHAR NOT NULL,
	cumulative_error_count INTEGER NOT NULL,
	cumulative_llm_token_count_prompt INTEGER NOT NULL,
	cumulative_llm_token_count_completion INTEGER NOT NULL,
	CONSTRAINT pk_spans PRIMARY KEY (id),
	CONSTRAINT fk_spans_trace_rowid_traces FOREIGN KEY(trace_rowid) REFERENCES traces (id) ON DELETE CASCADE,
	CONSTRAINT valid_status CHECK (status_code IN ('OK', 'ERROR', 'UNSET')),
	CONSTRAINT uq_spans_span_id UNIQUE (span_id)
)`}

// database writes a new SQLite database at path: the statements, then
// each insert with its arguments.
func database(t testing.TB, path string, schema []string, inserts ...[]any) {
	t.Helper()
	db, err := sql.Open("sqlite", (&url.URL{Scheme: "file", Path: path}).String())
	require.NoError(t, err)
	defer db.Close()
	for _, s := range schema {
		_, err := db.Exec(s)
		require.NoError(t, err)
	}
	for _, in := range inserts {
		_, err := db.Exec(in[0].(string), in[1:]...)
		require.NoError(t, err)
	}
}

// ag2Session is the session AutoGen's SQLite logger names when it starts.
const ag2Session = "7d7e5d8e-4b0f-4c41-9a0b-3f0c2a6e1d55"

// ag2Database writes testdata/calls' runtime log, as AutoGen's file logger
// wrote it, as its SQLite logger writes the same calls: a row of
// chat_completions each, the request and response as JSON text; its
// agents and events in their tables.
func ag2Database(t testing.TB, path string) {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", "calls", "autogen-runtime.log"))
	require.NoError(t, err)
	defer f.Close()
	var inserts [][]any
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	// The logger writes json.dumps(request), and the response indented.
	text := func(v any) string {
		b, err := json.Marshal(v)
		require.NoError(t, err)
		return string(b)
	}
	indented := func(v any) string {
		b, err := json.MarshalIndent(v, "", "    ")
		require.NoError(t, err)
		return string(b)
	}
	for sc.Scan() {
		var rec map[string]any
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec))
		switch {
		case rec["request"] != nil:
			inserts = append(inserts, []any{`INSERT INTO chat_completions (invocation_id, client_id, wrapper_id, session_id, request, response, is_cached, cost, start_time, end_time, source_name) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				rec["invocation_id"], rec["client_id"], rec["wrapper_id"], ag2Session, text(rec["request"]), indented(rec["response"]), rec["is_cached"], rec["cost"], rec["start_time"], rec["end_time"], rec["source_name"]})
		case rec["agent_name"] != nil:
			inserts = append(inserts, []any{`INSERT INTO agents (agent_id, wrapper_id, session_id, name, class, init_args, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				rec["id"], rec["wrapper_id"], ag2Session, rec["agent_name"], rec["agent_type"], text(rec["args"]), rec["current_time"]})
		case rec["event_name"] != nil:
			inserts = append(inserts, []any{`INSERT INTO events (source_id, source_name, event_name, agent_module, agent_class_name, json_state, timestamp) VALUES (?, ?, ?, ?, ?, ?, ?)`,
				rec["source_id"], rec["source_name"], rec["event_name"], rec["agent_module"], rec["agent_class"], rec["json_state"], rec["timestamp"]})
		}
	}
	require.NoError(t, sc.Err())
	inserts = append(inserts, []any{`INSERT INTO function_calls (source_id, source_name, function_name, args, returns) VALUES (?, ?, ?, ?, ?)`,
		140001, "user_proxy", "run_code", `{"code": "print(1)"}`, `"1"`})
	database(t, path, ag2Schema, inserts...)
}

// phoenixTrace is one trace as Phoenix keeps it: a planner that asks a
// tool, whose call fails, and answers anyway. Its attributes are nested,
// as Phoenix stores them.
var phoenixTrace = [][]any{
	{`INSERT INTO projects (id, name) VALUES (1, 'default')`},
	{`INSERT INTO traces (id, project_rowid, trace_id, start_time, end_time) VALUES (1, 1, '4bf92f3577b34da6a3ce929d0e0e4736', '2026-03-02 09:00:00.000000', '2026-03-02 09:00:05.000000')`},
	phoenixSpan(1, "a000000000000001", nil, "Planner", "AGENT", "00.000", "05.000", map[string]any{
		"openinference": map[string]any{"span": map[string]any{"kind": "AGENT"}},
		"agent":         map[string]any{"name": "Planner"},
		"input":         map[string]any{"value": "What will the weather be in Oslo tomorrow?"},
		"output":        map[string]any{"value": "It will be sunny in Oslo tomorrow."},
	}, []any{}, "OK", ""),
	phoenixSpan(2, "a000000000000002", "a000000000000001", "ChatCompletion", "LLM", "00.500", "01.000", map[string]any{
		"llm": map[string]any{
			"model_name": "gpt-4o",
			"input_messages": []any{
				map[string]any{"message": map[string]any{"role": "system", "content": "You plan trips."}},
				map[string]any{"message": map[string]any{"role": "user", "content": "What will the weather be in Oslo tomorrow?"}},
			},
			"output_messages": []any{
				map[string]any{"message": map[string]any{"role": "assistant", "tool_calls": []any{
					map[string]any{"tool_call": map[string]any{"id": "call_1", "function": map[string]any{"name": "get_forecast", "arguments": `{"city": "Olso"}`}}},
				}}},
			},
		},
	}, []any{}, "OK", ""),
	phoenixSpan(3, "a000000000000003", "a000000000000001", "get_forecast", "TOOL", "01.000", "02.000", map[string]any{
		"tool":  map[string]any{"name": "get_forecast"},
		"input": map[string]any{"value": `{"city": "Olso"}`},
	}, []any{map[string]any{"name": "exception", "timestamp": "2026-03-02T09:00:01.900000+00:00", "attributes": map[string]any{
		"exception": map[string]any{"type": "CityNotFoundError", "message": "no forecast for city Olso"},
	}}}, "ERROR", "CityNotFoundError: no forecast for city Olso"),
	phoenixSpan(4, "a000000000000004", "a000000000000001", "ChatCompletion", "LLM", "02.500", "03.000", map[string]any{
		"llm": map[string]any{
			"model_name": "gpt-4o",
			"output_messages": []any{
				map[string]any{"message": map[string]any{"role": "assistant", "content": "It will be sunny in Oslo tomorrow."}},
			},
		},
	}, []any{}, "OK", ""),
}

// phoenixSpan is the insert of a span of phoenixTrace's trace, its times
// seconds past 09:00.
func phoenixSpan(id int, span string, parent any, name, kind, start, end string, attrs map[string]any, events []any, status, message string) []any {
	a, _ := json.Marshal(attrs)
	e, _ := json.Marshal(events)
	return []any{`INSERT INTO spans (id, trace_rowid, span_id, parent_id, name, span_kind, start_time, end_time, attributes, events, status_code, status_message, cumulative_error_count, cumulative_llm_token_count_prompt, cumulative_llm_token_count_completion) VALUES (?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0)`,
		id, span, parent, name, kind, "2026-03-02 09:00:" + start + "000", "2026-03-02 09:00:" + end + "000", string(a), string(e), status, message}
}

// TestSQLiteStores: the SQLite databases local tools keep their runs in
// are read by their file's name: AutoGen's runtime log as the same calls
// in its file logger's log read (a session a run), Phoenix's store as the
// spans it exports (a trace a run), their other tables passed over.
func TestSQLiteStores(t *testing.T) {
	dir := t.TempDir()
	ag2 := filepath.Join(dir, "logs.db")
	ag2Database(t, ag2)
	// A name SQLite's URIs would read otherwise if it were not escaped.
	phoenix := filepath.Join(dir, "phoenix 100%#?.db")
	database(t, phoenix, phoenixSchema, phoenixTrace...)
	tests := []struct {
		path   string
		format run.Format
		trace  string
		want   []string
	}{
		{ag2, run.FormatCalls, ag2Session, []string{
			"user user | What is the 10th Fibonacci number?",
			"assistant message | ```python\na,b=0,1\nfor _ in range(10): a,b=b,a+b\nprint(b)\n```",
			"user_proxy user | exitcode: 0 (execution succeeded)\nCode output: 89",
			"assistant message | The 10th Fibonacci number is 89. TERMINATE",
		}},
		{phoenix, run.FormatOpenInference, "4bf92f3577b34da6a3ce929d0e0e4736", []string{
			"user user | What will the weather be in Oslo tomorrow?",
			`Planner tool_call | get_forecast({"city": "Olso"})`,
			"Planner tool_result | CityNotFoundError: no forecast for city Olso",
			"Planner message | It will be sunny in Oslo tomorrow.",
		}},
	}
	for _, tt := range tests {
		t.Run(filepath.Base(tt.path), func(t *testing.T) {
			for _, format := range []run.Format{run.FormatAuto, tt.format} {
				cases, err := run.LoadAll(context.Background(), tt.path, run.Options{Format: format})
				require.NoError(t, err)
				require.Len(t, cases, 1)
				r := cases[0].Run
				assert.Equal(t, tt.format, r.Format)
				assert.Equal(t, tt.trace, r.TraceID)
				assert.Equal(t, run.Ref(tt.path, tt.trace), r.Source)
				var got []string
				for _, s := range r.Steps {
					got = append(got, s.Agent+" "+string(s.Kind)+" | "+s.Content)
				}
				assert.Equal(t, tt.want, got)
			}
			c, err := run.LoadOne(context.Background(), run.Ref(tt.path, tt.trace), run.Options{})
			require.NoError(t, err, "a trace of a database is named as one of a file")
			assert.Equal(t, tt.trace, c.Run.TraceID)
			assert.True(t, run.IsRunFileAt(tt.path), "a database is a run file in a directory of runs")
		})
	}
}

// TestSQLiteRefused: a database that holds no store of runs is refused
// naming its tables (a view, whose rows are a query of the file's, is
// not read as one); one cut short, or made of its first bytes alone, is
// one that does not read, naming the file; a store whose rows pass
// --max-input is too large; one read from standard input or compressed
// is refused with the advice to name its file.
func TestSQLiteRefused(t *testing.T) {
	dir := t.TempDir()
	whole := filepath.Join(dir, "logs.db")
	ag2Database(t, whole)
	data, err := os.ReadFile(whole)
	require.NoError(t, err)
	write := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(path, b, 0o644))
		return path
	}
	other := filepath.Join(dir, "app.db")
	database(t, other, []string{`CREATE TABLE users (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT)`, `INSERT INTO users (name) VALUES ('ada')`, `CREATE TABLE "odd ""name""" (x)`})
	view := filepath.Join(dir, "view.db")
	database(t, view, []string{`CREATE TABLE calls (request TEXT, response TEXT)`, `CREATE VIEW chat_completions AS SELECT * FROM calls`})
	empty := filepath.Join(dir, "empty.db")
	database(t, empty, ag2Schema)
	// A program writing in WAL mode keeps what it has not checkpointed in
	// the -wal file beside the database.
	running := filepath.Join(dir, "running.db")
	database(t, running, ag2Schema)
	write("running.db-wal", []byte("\x37\x7f\x06\x82"))
	tests := []struct {
		name string
		path string
		opts run.Options
		is   error
		want string
	}{
		{"no store", other, run.Options{}, run.ErrUnknownFormat, `its tables: "odd \"name\"", "users")`},
		{"a view is no table", view, run.Options{}, run.ErrUnknownFormat, `its tables: "calls")`},
		{"no calls", empty, run.Options{}, run.ErrEmpty, "its table chat_completions holds no rows"},
		{"no calls checkpointed", running, run.Options{}, run.ErrEmpty, "holds no rows; what the program writing it holds in running.db-wal is not read"},
		{"another format named", whole, run.Options{Format: run.FormatWhoWhen}, run.ErrUnknownFormat, "read as calls, not whowhen"},
		{"past the limit", whole, run.Options{MaxInput: 1024}, run.ErrTooLarge, "raise --max-input"},
		{"cut short", write("cut.db", data[:len(data)-len(data)/3]), run.Options{}, nil, "an SQLite database that does not read"},
		{"its first bytes alone", write("head.db", data[:100]), run.Options{}, nil, "an SQLite database that does not read"},
		{"compressed", write("logs.db.gz", gzipped(t, data)), run.Options{}, run.ErrUnknownFormat, "an SQLite database, read from its file only"},
	}
	names := func() []string {
		entries, err := os.ReadDir(dir)
		require.NoError(t, err)
		var out []string
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return out
	}
	before := names()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := run.LoadAll(context.Background(), tt.path, tt.opts)
			require.Error(t, err)
			if tt.is != nil {
				assert.ErrorIs(t, err, tt.is)
			}
			msg := err.Error()
			assert.Contains(t, msg, "load "+tt.path+": ")
			assert.Contains(t, msg, tt.want)
			assert.NotContains(t, msg, "\n", "errors are one line")
		})
	}
	_, err = run.LoadAll(context.Background(), run.Stdin, run.Options{Stdin: bytes.NewReader(data)})
	require.ErrorIs(t, err, run.ErrUnknownFormat)
	assert.Contains(t, err.Error(), "an SQLite database, read from its file only")

	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = run.LoadAll(ctx, whole, run.Options{})
	assert.ErrorIs(t, err, context.Canceled)

	after, err := os.ReadFile(whole)
	require.NoError(t, err)
	assert.Equal(t, data, after, "a database read is not written")
	assert.Equal(t, before, names(), "a database read leaves no file beside it (a journal, a lock)")
}

// gzipped is data compressed with gzip.
func gzipped(t *testing.T, data []byte) []byte {
	t.Helper()
	var z bytes.Buffer
	w := gzip.NewWriter(&z)
	_, err := w.Write(data)
	require.NoError(t, err)
	require.NoError(t, w.Close())
	return z.Bytes()
}

// FuzzSQLite: a database changed anywhere past its first bytes is read
// or refused, never a crash.
func FuzzSQLite(f *testing.F) {
	dir := f.TempDir()
	ag2, phoenix := filepath.Join(dir, "logs.db"), filepath.Join(dir, "phoenix.db")
	ag2Database(f, ag2)
	database(f, phoenix, phoenixSchema, phoenixTrace...)
	for _, path := range []string{ag2, phoenix} {
		data, err := os.ReadFile(path)
		require.NoError(f, err)
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "fuzz.db")
		require.NoError(t, os.WriteFile(path, data, 0o644))
		_, _ = run.LoadAll(context.Background(), path, run.Options{MaxInput: 1 << 20})
	})
}
