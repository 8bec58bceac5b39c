package run

// SQLite databases in which local tools keep their runs, opened by their
// file's name.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/offattr/offattr/run/spans"
)

// sqliteFile reports whether path is a regular file that begins as an
// SQLite database does.
func sqliteFile(path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false // a pipe would lose what is peeked at
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	return spans.IsSQLite(head[:n])
}

// loadSQLite reads the runs the SQLite database file keeps
// (spans.ReadSQLite), its rows as records of the format they are, every
// trace a run, as for that format's file.
func loadSQLite(ctx context.Context, file string, opts Options) ([]*Case, error) {
	st, err := spans.ReadSQLite(ctx, file, opts.MaxInput)
	var none *spans.NoStoreError
	switch {
	case errors.Is(err, spans.ErrRowsTooLarge):
		return nil, fmt.Errorf("load %s: %w", file, &TooLargeError{Size: -1, Limit: opts.MaxInput})
	case errors.As(err, &none):
		tables := "none"
		if len(none.Tables) > 0 {
			tables = columnList(none.Tables)
		}
		return nil, fmt.Errorf("load %s: %w: an SQLite database that is neither AutoGen's runtime log (a table chat_completions) nor Phoenix's store (tables spans and traces): export its runs as JSON and read that (its tables: %s)%s", file, ErrUnknownFormat, tables, unseenWAL(file))
	case err != nil:
		return nil, fmt.Errorf("load %s: %w", file, err)
	}
	if f := opts.Format; f != "" && f != FormatAuto && f != Format(st.Format) {
		return nil, fmt.Errorf("load %s: %w: an SQLite database whose table %s is read as %s, not %s", file, ErrUnknownFormat, st.Table, st.Format, f)
	}
	if len(st.Rows) == 0 {
		return nil, fmt.Errorf("load %s: %w: its table %s holds no rows%s", file, ErrEmpty, st.Table, unseenWAL(file))
	}
	cases, err := telemetry(ctx, st.Rows, st.Format, opts.Labels)
	if err != nil {
		return nil, fmt.Errorf("load %s: read as the rows of its table %s, one a line: %w", file, st.Table, err)
	}
	for _, c := range cases {
		if err := finish(c, file, opts); err != nil {
			return nil, err
		}
	}
	return cases, nil
}

// unseenWAL says, for an error, that the database file is written in WAL
// mode by a program that has not yet moved what it wrote into the file
// (its -wal file beside it holds some): an immutable reading sees only the
// file. "" when there is no such file.
func unseenWAL(file string) string {
	if fi, err := os.Stat(file + "-wal"); err != nil || fi.Size() == 0 {
		return ""
	}
	return "; what the program writing it holds in " + filepath.Base(file) + "-wal is not read until it is checkpointed (when the program ends)"
}
