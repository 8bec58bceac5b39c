//go:build ollama_e2e

package ollamae2e

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ollama/ollama/api"

	"github.com/offattr/offattr/localllm/ollamae2e/tinymodel"
)

// TinyModel is the name under which Start creates the tiny model.
const TinyModel = "tiny"

// TinyNumPredict is the tiny model's default num_predict. A trained model
// ends its answer with EOS; random weights rarely do, and under a JSON
// schema grammar an uncapped answer can run on for tens of seconds. The cap
// keeps every call short when a client sets no num_predict of its own; one
// that does overrides it.
const TinyNumPredict = 128

// Limits for the server's life cycle. Starting takes well under a second on
// an idle machine; the margins are for a CI box whose 2 cores are busy.
const (
	startTimeout  = 90 * time.Second
	createTimeout = 2 * time.Minute
	stopTimeout   = 15 * time.Second
)

// Server is an Ollama server started for one test, with the tiny model
// created on it. It stops, and its files are removed, when the test ends.
type Server struct {
	// Host is "127.0.0.1:PORT", as OLLAMA_HOST and offattr's --ollama-host
	// take it.
	Host string
	// Client talks to the server.
	Client *api.Client
	// Model is the name of the tiny model, ready to use.
	Model string
	// Version is what the server reports on /api/version.
	Version string

	dir string
}

// Start builds or reuses the ollama binary, starts `ollama serve` on a free
// loopback port with its own HOME, OLLAMA_MODELS and TMPDIR under
// t.TempDir(), waits until it answers, and creates TinyModel on it.
func Start(t testing.TB) *Server {
	t.Helper()
	bin := Binary(t)
	dir := t.TempDir()
	for _, sub := range []string{"home", "models", "tmp"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatalf("ollamae2e: %v", err)
		}
	}

	host := freeLoopbackAddr(t)
	logPath := filepath.Join(dir, "serve.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatalf("ollamae2e: %v", err)
	}

	cmd := exec.Command(bin, "serve")
	cmd.Dir = dir
	// A minimal environment: nothing from the developer's own Ollama
	// setup (OLLAMA_MODELS, a remote OLLAMA_HOST) may leak in, and cloud
	// features stay off so the server makes no outside connections.
	cmd.Env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + filepath.Join(dir, "home"),
		"TMPDIR=" + filepath.Join(dir, "tmp"),
		"OLLAMA_HOST=" + host,
		"OLLAMA_MODELS=" + filepath.Join(dir, "models"),
		"OLLAMA_NO_CLOUD=1",
	}
	cmd.Stdout = logFile
	cmd.Stderr = logFile
	cmd.SysProcAttr = serverProcAttr()
	if err := cmd.Start(); err != nil {
		logFile.Close()
		t.Fatalf("ollamae2e: start %s serve: %v", bin, err)
	}
	exited := make(chan struct{})
	go func() {
		cmd.Wait()
		logFile.Close()
		close(exited)
	}()
	t.Cleanup(func() {
		stop(t, cmd.Process.Pid, exited)
		if t.Failed() {
			t.Logf("ollama serve log (%s), last lines:\n%s", host, tail(logPath, 40))
		}
	})

	s := &Server{
		Host:   host,
		Client: api.NewClient(&url.URL{Scheme: "http", Host: host}, http.DefaultClient),
		dir:    dir,
	}
	s.Version = s.waitReady(t, exited)
	if want := pinnedVersion(); want != "" && "v"+s.Version != want {
		t.Logf("ollamae2e: server reports %s, the api client is %s", s.Version, want)
	}

	gguf := filepath.Join(dir, "tiny.gguf")
	if err := tinymodel.Write(gguf); err != nil {
		t.Fatalf("ollamae2e: %v", err)
	}
	s.createFromGGUF(t, TinyModel, gguf)
	s.Model = TinyModel
	return s
}

// waitReady polls /api/version until the server answers, and fails the test
// if it exits or does not answer in time.
func (s *Server) waitReady(t testing.TB, exited <-chan struct{}) string {
	t.Helper()
	deadline := time.Now().Add(startTimeout)
	var lastErr error
	for time.Now().Before(deadline) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		v, err := s.Client.Version(ctx)
		cancel()
		if err == nil {
			return v
		}
		lastErr = err
		select {
		case <-exited:
			t.Fatalf("ollamae2e: ollama serve exited before answering on %s; log:\n%s",
				s.Host, tail(filepath.Join(s.dir, "serve.log"), 40))
		case <-time.After(100 * time.Millisecond):
		}
	}
	t.Fatalf("ollamae2e: ollama serve did not answer on %s within %s: %v", s.Host, startTimeout, lastErr)
	return ""
}

// createFromGGUF uploads a GGUF file as a blob and creates a model from it,
// as `ollama create` does for a Modelfile whose FROM is a local file.
func (s *Server) createFromGGUF(t testing.TB, name, path string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), createTimeout)
	defer cancel()

	digest, err := fileDigest(path)
	if err != nil {
		t.Fatalf("ollamae2e: %v", err)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("ollamae2e: %v", err)
	}
	defer f.Close()
	if err := s.Client.CreateBlob(ctx, digest, f); err != nil {
		t.Fatalf("ollamae2e: upload %s as %s: %v", path, digest, err)
	}
	req := &api.CreateRequest{
		Model:    name,
		Files:    map[string]string{filepath.Base(path): digest},
		Template: tinymodel.Template,
		Parameters: map[string]any{
			"num_predict": TinyNumPredict,
		},
	}
	if err := s.Client.Create(ctx, req, func(api.ProgressResponse) error { return nil }); err != nil {
		t.Fatalf("ollamae2e: create %s from %s: %v", name, path, err)
	}
}

// CreateVariant creates model name from the tiny model with the given
// default options (a Modelfile's PARAMETER lines), such as
// {"num_predict": 3} for a model whose every answer is cut off unless the
// client asks for more.
func (s *Server) CreateVariant(t testing.TB, name string, params map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), createTimeout)
	defer cancel()
	req := &api.CreateRequest{Model: name, From: s.Model, Parameters: params}
	if err := s.Client.Create(ctx, req, func(api.ProgressResponse) error { return nil }); err != nil {
		t.Fatalf("ollamae2e: create %s from %s: %v", name, s.Model, err)
	}
}

// stop ends the server's process group: SIGTERM first so it can stop its
// runner, SIGKILL if it lingers, and SIGKILL to the group once more for a
// runner left behind.
func stop(t testing.TB, pid int, exited <-chan struct{}) {
	if err := syscall.Kill(-pid, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		t.Errorf("ollamae2e: stop ollama serve (pid %d): %v", pid, err)
	}
	select {
	case <-exited:
	case <-time.After(stopTimeout):
		t.Logf("ollamae2e: ollama serve (pid %d) ignored SIGTERM for %s; killing it", pid, stopTimeout)
		syscall.Kill(-pid, syscall.SIGKILL)
		<-exited
	}
	syscall.Kill(-pid, syscall.SIGKILL)
}

// Proxy forwards to a Server and counts requests by path, so a test can tell
// how many model calls a client made without trusting the client's own
// accounting.
type Proxy struct {
	// Host is "127.0.0.1:PORT" of the proxy.
	Host string

	mu     sync.Mutex
	counts map[string]int
}

// Proxy starts a counting proxy in front of the server, closed when the test
// ends.
func (s *Server) Proxy(t testing.TB) *Proxy {
	t.Helper()
	target := &url.URL{Scheme: "http", Host: s.Host}
	rp := httputil.NewSingleHostReverseProxy(target)
	rp.FlushInterval = -1 // pass streamed answers through as they come
	p := &Proxy{counts: map[string]int{}}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p.mu.Lock()
		p.counts[r.URL.Path]++
		p.mu.Unlock()
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	p.Host = strings.TrimPrefix(ts.URL, "http://")
	return p
}

// ModelCalls is the number of requests that ran the model (/api/chat and
// /api/generate) since the proxy started or was last reset.
func (p *Proxy) ModelCalls() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.counts["/api/chat"] + p.counts["/api/generate"]
}

// Counts returns a copy of the request counts by path.
func (p *Proxy) Counts() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	c := make(map[string]int, len(p.counts))
	for k, v := range p.counts {
		c[k] = v
	}
	return c
}

// Reset zeroes the counts.
func (p *Proxy) Reset() {
	p.mu.Lock()
	defer p.mu.Unlock()
	clear(p.counts)
}

var serverBinary struct {
	once sync.Once
	path string
	err  error
}

// Binary returns the path of the ollama server binary, built once per test
// process by .ci/ollama.sh: the binary named by OFFATTR_OLLAMA_BIN if it is
// there, else the cached build of the pinned version, else a fresh build
// (several minutes on 2 cores when the Go build cache is cold).
func Binary(t testing.TB) string {
	t.Helper()
	serverBinary.once.Do(func() { serverBinary.path, serverBinary.err = buildServer() })
	if serverBinary.err != nil {
		t.Fatalf("ollamae2e: %v", serverBinary.err)
	}
	return serverBinary.path
}

func buildServer() (string, error) {
	root, err := RepoRoot()
	if err != nil {
		return "", err
	}
	script := filepath.Join(root, ".ci", "ollama.sh")
	var stdout, stderr bytes.Buffer
	cmd := exec.Command("bash", script)
	cmd.Dir = root
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("%s: %v\n%s", script, err, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	path := lines[len(lines)-1]
	if _, err := os.Stat(path); err != nil {
		return "", fmt.Errorf("%s printed %q, which is not a file: %v", script, path, err)
	}
	return path, nil
}

// RepoRoot returns the directory of offattr's go.mod.
func RepoRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("find the module root: go env GOMOD: %w", err)
	}
	gomod := strings.TrimSpace(string(out))
	if gomod == "" || gomod == os.DevNull {
		return "", errors.New("find the module root: not inside a Go module")
	}
	return filepath.Dir(gomod), nil
}

// pinnedVersion is the ollama module version this test binary was built
// with, as go.mod pins it, or "" if that is unknown.
func pinnedVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	for _, m := range info.Deps {
		if m.Path == "github.com/ollama/ollama" {
			return m.Version
		}
	}
	return ""
}

// freeLoopbackAddr returns a loopback address with a port that was free a
// moment ago. Another process could take it before the server binds it;
// the server then exits and waitReady reports it.
func freeLoopbackAddr(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("ollamae2e: find a free port: %v", err)
	}
	defer l.Close()
	return l.Addr().String()
}

func fileDigest(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("digest %s: %w", path, err)
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil)), nil
}

// tail returns the last n lines of a file, for failure messages.
func tail(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Sprintf("(no log: %v)", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	return strings.Join(lines, "\n")
}
