package run

// Reading an input whole, within the size a user allows.

import (
	"github.com/offattr/offattr/run/spans"

	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// DefaultMaxInput is the size past which an input is refused unless told
// otherwise (--max-input's default): far above any real run, low enough
// that a runaway file is refused rather than read into memory.
const DefaultMaxInput = 256 << 20

// read reads a whole input, refusing one over opts.MaxInput: a regular
// file by its size before reading, anything else once it has passed the
// limit, so that a huge input costs neither the time nor the memory to
// read it. A gzip-compressed input (trace exports are often kept so) is
// read as what it decompresses to, and the limit holds for that; so is a
// UTF-16 one, as UTF-8 (textReader).
func read(path string, opts Options) ([]byte, error) {
	if path == Stdin {
		in := opts.Stdin
		if in == nil {
			in = os.Stdin
		}
		return readMaybeGzip(bufio.NewReader(in), 0, -1, opts.MaxInput)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, PathCause(err)
	}
	defer f.Close()
	var size int64
	trailer := int64(-1)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		size = fi.Size()
		if opts.MaxInput > 0 && size > opts.MaxInput {
			return nil, &TooLargeError{Size: size, Limit: opts.MaxInput}
		}
		trailer = gzipTrailerSize(f, size)
	}
	return readMaybeGzip(bufio.NewReader(f), size, trailer, opts.MaxInput)
}

// ErrNotRegular is why a file that the reading of an input opens beside it
// (a sub-agent's log) is not read when it is a named pipe, a device or a
// socket.
var ErrNotRegular = errors.New("not a regular file (a named pipe, a device or a socket)")

// readBeside reads a file that the reading of an input opens beside it, as
// read does, but only a regular file: the input is the file the user
// named, and a pipe beside it would hold the reading until a writer came,
// a device feed it without end.
func readBeside(path string, opts Options) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return nil, ErrNotRegular
	}
	return read(path, opts)
}

// IsRunFile reports whether a file name in a directory of runs is one to
// read: JSON or JSON lines, or OTLP protobuf (.binpb, protobuf's name for
// a binary message, or .pb), or a SWE-agent trajectory (.traj, JSON),
// plain or gzip-compressed (.json, .jsonl, .binpb, .pb, .traj, each with
// .gz); a data frame saved as Parquet (.parquet, as Phoenix saves a
// trace dataset); or aider's chat history, by the name aider gives it.
func IsRunFile(name string) bool {
	name = strings.ToLower(name)
	name = strings.TrimSuffix(name, ".gz")
	if filepath.Base(name) == strings.ToLower(AiderHistory) {
		return true
	}
	for _, ext := range runFileExts {
		if strings.HasSuffix(name, ext) {
			return true
		}
	}
	return false
}

// IsRunFileAt reports whether the file at path, in a directory of runs,
// is one to read: a run file by its name (IsRunFile); a file named
// without an extension whose text begins as JSON does (Genkit's trace
// store names each file by its trace's id alone, and a record saved from
// an API without a name has none either; other files without one, a
// LICENSE or a Makefile, do not begin so); or a text or log file that
// begins as JSON or as a log the loaders read (the OpenTelemetry console
// exporter's spans, AutoGen's runtime log, Maxim's commit log, a CrewAI
// task log, ChatDev's log), whatever its name: a program's output redirected to a file;
// or an SQLite database named as one (.db, .sqlite, .sqlite3), in which
// AutoGen and Phoenix keep their runs; or a YAML file with a top-level
// list of rounds and their posts, as a TaskWeaver conversation's,
// anywhere among its lines. A named pipe or a device is none,
// whatever its name: reading one found in a walk would wait for a writer
// or read without end. A path that does not stat (a link to nothing) is
// taken by its name, for the walk to report.
func IsRunFileAt(path string) bool {
	if fi, err := os.Stat(path); err == nil && !fi.Mode().IsRegular() {
		return false
	}
	name := filepath.Base(path)
	if IsRunFile(name) {
		return true
	}
	switch strings.ToLower(filepath.Ext(name)) {
	case "":
		return beginsAsJSON(fileHead(path))
	case ".txt", ".log":
		head := fileHead(path)
		return beginsAsJSON(head) || spans.IsMaxim(head) || crewAILogHead(head) || chatDevLogHead(head) || metaGPTLogHead(head)
	case ".db", ".sqlite", ".sqlite3":
		return sqliteFile(path)
	case ".yaml", ".yml":
		return yamlRoundsFile(path)
	}
	return false
}

func beginsAsJSON(head []byte) bool { return len(head) > 0 && (head[0] == '{' || head[0] == '[') }

// fileHead returns the first bytes of a regular file's text, read as the
// loaders read text (a file saved as UTF-16 is text too), white space and
// a byte-order mark trimmed from their start; nil for anything else.
func fileHead(path string) []byte {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return nil // a pipe would block the walk; a device is no run
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	t, _ := textReader(bufio.NewReader(f))
	head := make([]byte, 512)
	n, _ := io.ReadFull(t, head)
	return bytes.TrimLeft(head[:n], " \t\r\n\ufeff")
}

// yamlRoundsFile says whether a regular file's text, read as the loaders
// read text, has a line that is a top-level "rounds:" key holding a list
// (roundsListLine) and a "post_list:" key, as a TaskWeaver conversation's
// YAML does, wherever in the file they are: PyYAML writes keys in sorted
// order, so a long block under a key before "rounds" puts it far from
// the start. Other YAML with a list of rounds (a game's, a tournament's)
// has no posts. The text is read a line at a time (a long line a buffer
// at a time), and no further than a loader would read the file
// (DefaultMaxInput).
func yamlRoundsFile(path string) bool {
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	t, _ := textReader(bufio.NewReader(f))
	r := bufio.NewReader(io.LimitReader(t, DefaultMaxInput))
	first, lineStart := true, true
	rounds, posts := false, false
	for {
		chunk, err := r.ReadSlice('\n')
		if lineStart {
			line := chunk
			if first {
				line = bytes.TrimPrefix(line, []byte("\ufeff"))
				first = false
			}
			rounds = rounds || roundsListLine(line)
		}
		posts = posts || bytes.Contains(chunk, []byte("post_list:"))
		if rounds && posts {
			return true
		}
		switch err {
		case nil:
			lineStart = true
		case bufio.ErrBufferFull:
			lineStart = false // the rest of a long line
		default:
			return false
		}
	}
}

// AiderHistory is the name aider gives its chat history in each project
// it is run in: Markdown, and a run file by that name.
const AiderHistory = ".aider.chat.history.md"

// runFileExts are the extensions of the files IsRunFile takes.
var runFileExts = []string{".json", ".jsonl", ".binpb", ".pb", ".traj", ".parquet"}

// gzipMagic begins every gzip stream (RFC 1952).
var gzipMagic = []byte{0x1f, 0x8b}

// maxDeflateRatio bounds how many bytes a deflate stream's every byte
// decompresses to: a 258-byte match is at best one bit, about 1032:1.
const maxDeflateRatio = 1032

// gzipTrailerSize returns the size a regular file's last four bytes give,
// as a gzip stream's trailer does for its last member (ISIZE, the size
// modulo 2^32, RFC 1952), or -1 for a file too short to be gzip. A gzip
// stream is read only when it ends with its last member's trailer, so of
// a stream that reads the whole holds at least that many bytes.
func gzipTrailerSize(f *os.File, size int64) int64 {
	var b [4]byte
	if size < 18 { // a member's header and trailer alone
		return -1
	}
	if _, err := f.ReadAt(b[:], size-4); err != nil {
		return -1
	}
	return int64(binary.LittleEndian.Uint32(b[:]))
}

// readMaybeGzip reads r whole (readAll), decompressing it first when it
// is gzip. size is r's size when known, which says nothing of what a
// compressed input holds; trailer is what its last four bytes give when
// known (gzipTrailerSize), else -1. A trailer over max that the file's
// size could hold refuses the input before anything is decompressed (a
// bomb costs nothing to refuse); one within max sizes the buffer, once,
// unless no deflate stream of this size could decompress to it (a
// forged trailer is then no reason to allocate).
func readMaybeGzip(r *bufio.Reader, size, trailer, max int64) ([]byte, error) {
	if head, _ := r.Peek(len(gzipMagic)); !bytes.Equal(head, gzipMagic) {
		return readText(r, size, max)
	}
	hint := int64(0)
	if trailer >= 0 && trailer <= maxDeflateRatio*size {
		if max > 0 && trailer > max {
			return nil, &TooLargeError{Size: -1, Limit: max}
		}
		hint = trailer
	}
	z, err := gzip.NewReader(r)
	if err != nil {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	defer z.Close()
	data, err := readText(bufio.NewReader(z), hint, max)
	if err != nil && !errors.Is(err, ErrTooLarge) {
		return nil, fmt.Errorf("gzip: %w", err)
	}
	return data, err
}

// readText reads r whole (readAll) as UTF-8 text: transcoded first when
// textReader finds it is UTF-16, and then its size says nothing of the
// text's.
func readText(r *bufio.Reader, size, max int64) ([]byte, error) {
	t, transcoded := textReader(r)
	if transcoded {
		size = 0
	}
	return readAll(t, size, max)
}

// textReader returns a reader of r as UTF-8, and whether it transcodes:
// r itself, unless r is UTF-16, known by its byte-order mark or, without
// one, by the zero bytes of its first two characters when the first is
// one a JSON text may begin with (ASCII, so one zero byte each; RFC 4627,
// section 3). Windows tools write UTF-16 unless told otherwise
// (PowerShell 5's redirection and Out-File, Notepad's "Unicode"), and a
// trace saved so is still the user's trace.
func textReader(r *bufio.Reader) (io.Reader, bool) {
	head, _ := r.Peek(4)
	var e encoding.Encoding
	switch {
	case bytes.HasPrefix(head, []byte{0xff, 0xfe, 0, 0}):
		return r, false // UTF-32: not read, and said so as text that is not JSON
	case bytes.HasPrefix(head, []byte{0xff, 0xfe}):
		e = unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM)
	case bytes.HasPrefix(head, []byte{0xfe, 0xff}):
		e = unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM)
	case len(head) == 4 && jsonStart(head[0]) && head[1] == 0 && head[2] != 0 && head[3] == 0:
		e = unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM)
	case len(head) == 4 && head[0] == 0 && jsonStart(head[1]) && head[2] == 0 && head[3] != 0:
		e = unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM)
	default:
		return r, false
	}
	return transform.NewReader(r, e.NewDecoder()), true
}

// jsonStart reports whether a JSON text (or a line of JSON lines) may
// begin with byte c: an object, an array, or white space before one.
func jsonStart(c byte) bool {
	return c == '{' || c == '[' || c == ' ' || c == '\t' || c == '\r' || c == '\n'
}

// readAll reads r to its end. With the size known it reads into one
// buffer of that size, as os.ReadFile does; without, it reads into chunks,
// each as large as what was read before them, and joins them at the end:
// a buffer grown by copying would hold the old copies too (several times
// the input in all, a bomb's cost). max > 0 stops it one byte past max,
// having held at most max+1 bytes.
func readAll(r io.Reader, size, limit int64) ([]byte, error) {
	if limit > 0 {
		r = io.LimitReader(r, limit+1)
	}
	n := int64(512)
	if size > 0 {
		n = size + 1 // room to see EOF without growing
	}
	if limit > 0 {
		n = min(n, limit+1)
	}
	var chunks [][]byte
	var total int64
	buf := make([]byte, 0, n)
	for {
		if len(buf) == cap(buf) {
			chunks = append(chunks, buf)
			n = min(max(total, 512), maxChunk)
			if limit > 0 {
				n = min(n, limit+1-total)
			}
			buf = make([]byte, 0, n)
		}
		m, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+m]
		total += int64(m)
		if limit > 0 && total > limit {
			return nil, &TooLargeError{Size: -1, Limit: limit}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, PathCause(err)
		}
	}
	if len(chunks) == 0 {
		return buf, nil
	}
	whole := make([]byte, 0, total)
	for _, c := range chunks {
		whole = append(whole, c...)
	}
	return append(whole, buf...), nil
}

// maxChunk bounds a chunk of readAll, so that the last one's unused room
// stays small beside a large input.
const maxChunk = 16 << 20

// ErrTooLarge is what TooLargeError is.
var ErrTooLarge = errors.New("input too large")

// TooLargeError is an input over Options.MaxInput. Its message names the
// --max-input flag, which every command that reads runs has, because the
// error reaches the user through libraries (eval) that know no flags.
type TooLargeError struct {
	Size  int64 // -1 when the input was not read to its end
	Limit int64
}

func (e *TooLargeError) Error() string {
	if e.Size < 0 {
		return fmt.Sprintf("input is larger than the %s limit; raise --max-input to read it", FormatSize(e.Limit))
	}
	return fmt.Sprintf("input is %s, larger than the %s limit; raise --max-input to read it", FormatSize(e.Size), FormatSize(e.Limit))
}

// Is makes errors.Is(err, ErrTooLarge) true.
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// FormatSize writes a byte count as people read it, in powers of 1024:
// "512 B", "3.5 KiB", "256 MiB", "1.2 GiB".
func FormatSize(n int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	v, u := float64(n), 0
	for v >= 1024 && u < len(units)-1 {
		v /= 1024
		u++
	}
	if u == 0 || v == float64(int64(v)) {
		return fmt.Sprintf("%d %s", int64(v), units[u])
	}
	return fmt.Sprintf("%.1f %s", v, units[u])
}

// PathCause strips the *fs.PathError around err: callers name the file in
// their own message, and "load x: open x: no such file" would say it twice.
func PathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
