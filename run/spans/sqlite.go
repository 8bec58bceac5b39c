package spans

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/url"
	"path/filepath"
	"slices"
	"time"
	"unicode/utf8"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// SQLite databases in which local tools keep their runs: AutoGen's (AG2's)
// runtime log as its SQLite logger writes it (runtime_logging.start with
// logger_type "sqlite"), and Phoenix's own store (phoenix.db, its default
// storage). Each is read as the rows of the table that holds its runs,
// each row a JSON object of its columns by name: a row of AutoGen's
// chat_completions is the record of a model call its file logger writes
// (Calls), a row of Phoenix's spans the flat span it exports
// (OpenInference), with its trace's id beside it. What those rows mean is
// their readers' to say, as for the same records in a file.
//
// The database is the user's file, which a program may be writing and
// anyone may have made: it is opened read-only and immutable (nothing is
// written, no lock taken, no journal read), in SQLite's defensive mode with
// its schema untrusted, and only its tables are read, by name, never a
// view, whose query is the file's. Being immutable, a database kept in
// WAL mode is read as its main file holds it: what a running program has
// not yet moved there from its -wal file is not seen.

// sqliteMagic begins every SQLite database file.
const sqliteMagic = "SQLite format 3\x00"

// IsSQLite reports whether head, a file's first bytes, begins an SQLite
// database.
func IsSQLite(head []byte) bool { return bytes.HasPrefix(head, []byte(sqliteMagic)) }

// ErrRowsTooLarge is the error of a database whose rows read pass the
// bound ReadSQLite is given.
var ErrRowsTooLarge = errors.New("the rows read are larger than the limit")

// NoStoreError is a database that holds none of the stores ReadSQLite
// reads; Tables are the tables it holds, in order of name.
type NoStoreError struct{ Tables []string }

func (e *NoStoreError) Error() string {
	return fmt.Sprintf("an SQLite database with %d tables, none of a store of runs", len(e.Tables))
}

// Store is what an SQLite database keeps of runs, as records a reader of
// this package reads.
type Store struct {
	Format Format // Calls or OpenInference
	Table  string // the table whose rows the records are
	// Rows holds a JSON object for each row of Table, one a line, in the
	// table's order: its columns by name, a trace's id beside a span's.
	Rows []byte
}

// The tables each store keeps its runs in.
const (
	ag2Calls      = "chat_completions" // AutoGen's model calls
	phoenixSpans  = "spans"            // Phoenix's spans, each of a trace by its row
	phoenixTraces = "traces"
)

// ReadSQLite reads the runs the SQLite database at path keeps: AutoGen's
// model calls or Phoenix's spans. max > 0 bounds the bytes of the records
// read (ErrRowsTooLarge past it). A database that is neither store is a
// *NoStoreError; one that does not read (cut short, not a database past
// its first bytes) an error saying why.
func ReadSQLite(ctx context.Context, path string, max int64) (st Store, err error) {
	defer func() {
		// The driver is another project's code, and a file may be made to
		// fail it: what it cannot read is an error, never a crash.
		if r := recover(); r != nil {
			st, err = Store{}, fmt.Errorf("an SQLite database that does not read: %v", r)
		}
	}()
	db, err := sql.Open("sqlite", sqliteURI(path))
	if err != nil {
		return Store{}, fmt.Errorf("an SQLite database that does not open: %w", err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	tables, err := sqliteTables(ctx, db)
	if err != nil {
		return Store{}, err
	}
	r := rowReader{max: max}
	switch {
	case slices.Contains(tables, ag2Calls):
		st = Store{Format: Calls, Table: ag2Calls}
		err = r.table(ctx, db, ag2Calls, func(map[string]any) {})
	case slices.Contains(tables, phoenixSpans) && slices.Contains(tables, phoenixTraces):
		st = Store{Format: OpenInference, Table: phoenixSpans}
		var ids map[int64]string
		if ids, err = phoenixTraceIDs(ctx, db, max); err == nil {
			err = r.table(ctx, db, phoenixSpans, func(row map[string]any) {
				if n, ok := row["trace_rowid"].(int64); ok && row["trace_id"] == nil {
					row["trace_id"] = ids[n]
				}
			})
		}
	default:
		return Store{}, &NoStoreError{Tables: tables}
	}
	if err != nil {
		return Store{}, err
	}
	st.Rows = r.out.Bytes()
	return st, nil
}

// sqliteURI is the URI that opens path as ReadSQLite does: read-only and
// immutable, defensive, with the schema untrusted (what it defines may
// call no function that is not harmless), no memory map of the file, and
// each cell's size checked against its page.
func sqliteURI(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		path = abs
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("immutable", "1")
	q.Set("_defensive", "1")
	q.Set("_query_only", "1")
	q["_pragma"] = []string{"trusted_schema(0)", "cell_size_check(1)", "mmap_size(0)"}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}
	return u.String()
}

// sqliteTables lists the tables of a database, in order of name: only
// tables, which hold rows, not views, whose rows a query of the file's
// makes, nor SQLite's own (sqlite_sequence).
func sqliteTables(ctx context.Context, db *sql.DB) ([]string, error) {
	rows, err := db.QueryContext(ctx, `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\_%' ESCAPE '\' ORDER BY name`)
	if err != nil {
		return nil, sqliteError(err)
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			return nil, sqliteError(err)
		}
		names = append(names, name)
	}
	if err := rows.Err(); err != nil {
		return nil, sqliteError(err)
	}
	return names, nil
}

// sqliteError is err, a failure of the driver's, said as what it means
// for the file; nil for nil.
func sqliteError(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return fmt.Errorf("an SQLite database that does not read: %w", err)
}

// phoenixTraceIDs reads the id of each trace of Phoenix's traces table,
// by its row.
func phoenixTraceIDs(ctx context.Context, db *sql.DB, max int64) (map[int64]string, error) {
	ids := map[int64]string{}
	r := rowReader{max: max}
	err := r.each(ctx, db, phoenixTraces, func(row map[string]any) error {
		n, ok := row["id"].(int64)
		id, _ := row["trace_id"].(string)
		if ok && id != "" {
			ids[n] = id
			if r.add(len(id)) {
				return ErrRowsTooLarge
			}
		}
		return nil
	})
	return ids, err
}

// rowReader reads a table's rows as JSON lines into out, within max
// bytes when max > 0.
type rowReader struct {
	out  bytes.Buffer
	max  int64
	read int64
	rows int
}

// add counts n bytes read, and reports whether they pass the bound.
func (r *rowReader) add(n int) bool {
	r.read += int64(n)
	return r.max > 0 && r.read > r.max
}

// table appends each row of the table name, as edit leaves it, to out.
func (r *rowReader) table(ctx context.Context, db *sql.DB, name string, edit func(map[string]any)) error {
	return r.each(ctx, db, name, func(row map[string]any) error {
		edit(row)
		r.rows++
		line, err := json.Marshal(row)
		if err != nil {
			return fmt.Errorf("row %d of table %s: %w", r.rows, name, err)
		}
		if r.add(len(line) + 1) {
			return ErrRowsTooLarge
		}
		r.out.Write(line)
		r.out.WriteByte('\n')
		return nil
	})
}

// each calls one with every row of the table name, its columns by name
// and its values as JSON holds them.
func (r *rowReader) each(ctx context.Context, db *sql.DB, name string, one func(map[string]any) error) error {
	// The name is one of this file's constants, quoted as SQL quotes a
	// name; no text of the database's is made a query.
	rows, err := db.QueryContext(ctx, `SELECT * FROM "`+name+`"`)
	if err != nil {
		return sqliteError(err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		return sqliteError(err)
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := rows.Scan(ptrs...); err != nil {
			return sqliteError(err)
		}
		row := make(map[string]any, len(cols))
		for i, c := range cols {
			row[c] = cellValue(vals[i])
		}
		if err := one(row); err != nil {
			return err
		}
	}
	return sqliteError(rows.Err())
}

// cellValue is a cell as JSON holds it: text and numbers as they are (an
// infinity, which JSON has not, none), a time, which the driver reads from
// a column declared as one, in RFC 3339, and a blob as its text when it is
// text, else none.
func cellValue(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return nil
		}
	case time.Time:
		return x.UTC().Format(time.RFC3339Nano)
	case []byte:
		if utf8.Valid(x) {
			return string(x)
		}
		return nil
	}
	return v
}
