package localllm

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/ollama/ollama/api"
)

// cache stores the outcome of each logical call on disk, so a re-run makes
// no call and gets the same answers. Logs are sensitive: directories are
// 0700 and files 0600.
type cache struct {
	dir string // "" disables the cache
}

// entry is one cached outcome: a valid answer, or the problem that made the
// model's answer unusable even after the retry (the model would give the
// same one again: temperature 0, fixed seed). Transport failures and
// timeouts are never cached; a re-run tries them again.
type entry struct {
	Model   string `json:"model"`
	Content string `json:"content,omitempty"`
	Problem string `json:"problem,omitempty"`
}

// cacheDir chooses the directory: the option, else OFFATTR_CACHE_DIR, else
// <user cache dir>/offattr/llm.
func cacheDir(opt string) (string, error) {
	if opt != "" {
		return opt, nil
	}
	if env := os.Getenv(CacheDirEnv); env != "" {
		return env, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory (set --cache-dir or %s): %w", CacheDirEnv, err)
	}
	return filepath.Join(base, "offattr", "llm"), nil
}

// cacheKey hashes everything that decides the model's answer: the weights
// (digest), the messages, the schema, the options and thinking.
func cacheKey(m Model, req *api.ChatRequest) string {
	b, _ := json.Marshal(struct {
		V        int
		Digest   string
		Messages []api.Message
		Format   json.RawMessage
		Options  map[string]any // json sorts map keys: a canonical form
		Think    *api.ThinkValue
	}{1, m.Digest, req.Messages, req.Format, req.Options, req.Think})
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

func (c *cache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// get returns the entry for key; a missing or unreadable entry is a miss.
func (c *cache) get(key string) (entry, bool) {
	if c.dir == "" {
		return entry{}, false
	}
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return entry{}, false
	}
	var e entry
	if json.Unmarshal(b, &e) != nil || (e.Content == "" && e.Problem == "") {
		return entry{}, false
	}
	return e, true
}

// put writes the entry atomically (temp file, then rename), so a Ctrl-C or a
// concurrent run never leaves half a file behind.
func (c *cache) put(key string, e entry) error {
	if c.dir == "" {
		return nil
	}
	p := c.path(key)
	if err := mkdirPrivate(filepath.Dir(p)); err != nil {
		return err
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*") // created 0600
	if err != nil {
		return fmt.Errorf("write cache: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write cache: %w", err)
	}
	if err := os.Rename(f.Name(), p); err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("write cache: %w", err)
	}
	return nil
}

// mkdirPrivate creates dir and its missing parents as 0700 (the umask can
// only narrow that). Existing directories, perhaps the user's own choice of
// --cache-dir, are left as they are.
func mkdirPrivate(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("create cache dir: %w", err)
	}
	return nil
}
