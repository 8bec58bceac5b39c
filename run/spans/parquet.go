package spans

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/parquet-go/parquet-go"
)

// Parquet files: a data frame saved with pandas' to_parquet, or Phoenix's
// TraceDataset.save(), which is how Phoenix keeps a trace on disk. Their
// rows are the same as those of a frame written as JSON (Frames,
// TableRows): spans, or a transcript's messages.

// parquetMagic begins and ends every Parquet file.
var parquetMagic = []byte("PAR1")

// IsParquet reports whether data is a Parquet file by its marks.
func IsParquet(data []byte) bool {
	return len(data) >= 2*len(parquetMagic) && bytes.HasPrefix(data, parquetMagic) && bytes.HasSuffix(data, parquetMagic)
}

// maxParquetRows bounds the rows read from one file: a file's footer says
// how many it holds, and a footer is the file's text, not to be trusted
// with the memory of the machine.
const maxParquetRows = 1 << 20

// ParquetRows reads a Parquet file's rows as a JSON array of objects,
// each nested list and group as JSON writes it; pandas' index column
// (__index_level_0__) is left out. An error says why the file does not
// read.
func ParquetRows(data []byte) (rows []byte, err error) {
	defer func() {
		// The decoder is another project's code, and a file may be cut or
		// made to fail it: what it cannot read is an error, never a crash.
		if r := recover(); r != nil {
			rows, err = nil, fmt.Errorf("a Parquet file that does not read: %v", r)
		}
	}()
	f, err := parquet.OpenFile(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		return nil, fmt.Errorf("a Parquet file that does not read: %w", err)
	}
	if n := f.NumRows(); n > maxParquetRows {
		return nil, fmt.Errorf("a Parquet file of %d rows, more than the %d read from one file", n, maxParquetRows)
	}
	r := parquet.NewReader(f)
	defer r.Close()
	var out []map[string]any
	for {
		m := map[string]any{}
		if err := r.Read(&m); err != nil {
			if errors.Is(err, io.EOF) {
				break
			}
			return nil, fmt.Errorf("a Parquet file whose row %d does not read: %w", len(out)+1, err)
		}
		delete(m, "__index_level_0__")
		out = append(out, finite(m).(map[string]any))
	}
	if len(out) == 0 {
		return nil, errors.New("a Parquet file without rows")
	}
	return json.Marshal(out)
}

// finite is v with each NaN or infinity (pandas' missing number) made
// null, which JSON has and they are not.
func finite(v any) any {
	switch x := v.(type) {
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
	case float32:
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil
		}
	case map[string]any:
		for k, e := range x {
			x[k] = finite(e)
		}
	case []any:
		for i, e := range x {
			x[i] = finite(e)
		}
	}
	return v
}
