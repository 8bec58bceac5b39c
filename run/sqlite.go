package run

// SQLite databases in which local tools keep their runs, opened by their
// file's name.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

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
		return nil, fmt.Errorf("load %s: %w: an SQLite database that is neither AutoGen's runtime log (a table chat_completions) nor Phoenix's store (tables spans and traces): export its runs as JSON and read that (its tables: %s)", file, ErrUnknownFormat, columnList(none.Tables))
	case err != nil:
		return nil, fmt.Errorf("load %s: %w", file, err)
	}
	if f := opts.Format; f != "" && f != FormatAuto && f != Format(st.Format) {
		return nil, fmt.Errorf("load %s: %w: an SQLite database whose table %s is read as %s, not %s", file, ErrUnknownFormat, st.Table, st.Format, f)
	}
	if len(st.Rows) == 0 {
		return nil, fmt.Errorf("load %s: %w: its table %s holds no rows", file, ErrEmpty, st.Table)
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
