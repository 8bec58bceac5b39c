// Command fakeollama serves ollamatest's fake Ollama on a local port, to
// measure offattr's model traffic without weights:
//
//	go run ./localllm/internal/fakeollama -addr 127.0.0.1:11500 &
//	offattr eval ../shared/whowhen/dev --model fake --ollama-host 127.0.0.1:11500 --no-cache --json
//
// Every chat gets a schema-following answer: by default a plausible one
// (ollamatest.PlausibleReply: steps that report errors look suspicious),
// with -answers schema the same point of every schema (SchemaReply).
// prompt_eval_count is four bytes a token plus four per message.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"

	"github.com/offattr/offattr/localllm/ollamatest"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:11500", "listen on this address (loopback only by default)")
	name := flag.String("model", "fake", "the model name the server has")
	ctxLen := flag.Int("context", 32768, "the context length /api/show reports")
	thinking := flag.Bool("thinking", false, "report the thinking capability")
	answers := flag.String("answers", "plausible", "plausible (troubled steps look suspicious) or schema (the same point of every schema)")
	flag.Parse()

	srv := ollamatest.NewUnstarted(ollamatest.Model{Name: *name, ContextLength: *ctxLen, Thinking: *thinking, Digest: "sha256:fake"})
	switch *answers {
	case "plausible":
		srv.Respond = ollamatest.PlausibleReply
	case "schema":
		srv.Respond = ollamatest.SchemaReply
	default:
		fmt.Fprintf(os.Stderr, "fakeollama: -answers %q: want plausible or schema\n", *answers)
		os.Exit(2)
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "fakeollama: %v\n", err)
		os.Exit(1)
	}
	fmt.Printf("fakeollama: model %s (context %d) at http://%s\n", *name, *ctxLen, ln.Addr())
	hs := &http.Server{Handler: srv.Handler()}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	go func() {
		<-ctx.Done()
		hs.Close()
	}()
	if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		fmt.Fprintf(os.Stderr, "fakeollama: %v\n", err)
		os.Exit(1)
	}
}
