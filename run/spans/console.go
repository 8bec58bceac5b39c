package spans

import "bytes"

// An exporter that prints spans to standard output (OpenTelemetry Go's
// stdouttrace, OpenTelemetry Python's ConsoleSpanExporter) shares it with
// the program it traces: a file of its output, redirected, holds the
// program's own lines between the spans.

// AmongText returns data with every line that lies outside the JSON values
// in it blanked to spaces, its line breaks kept, so that offsets, lines and
// columns stay those of the file. A value starts at the beginning of a
// line (after spaces) with '{' or '['. ok is false unless some line was
// blanked and some value kept, or when a value that starts cannot be
// scanned to its end: such a file is left to the reader that names the
// fault.
func AmongText(data []byte) (out []byte, ok bool) {
	out = bytes.Clone(data)
	blanked, values := false, false
	for i := 0; i < len(out); {
		j := i
		for j < len(out) && (out[j] == ' ' || out[j] == '\t' || out[j] == '\r') {
			j++
		}
		if j < len(out) && (out[j] == '{' || out[j] == '[') {
			end, err := skipValue(out, j)
			if err != nil {
				return nil, false
			}
			values = true
			i = end
			continue
		}
		end := bytes.IndexByte(out[i:], '\n')
		if end < 0 {
			end = len(out)
		} else {
			end += i
		}
		for k := i; k < end; k++ {
			if !isSpace(out[k]) {
				out[k] = ' '
				blanked = true
			}
		}
		i = end + 1
	}
	return out, blanked && values
}
