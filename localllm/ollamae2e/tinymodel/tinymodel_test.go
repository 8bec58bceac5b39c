package tinymodel

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/ollama/ollama/fs/ggml"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWriteParsesAsLlama(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tiny.gguf")
	require.NoError(t, Write(path))

	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	m, err := ggml.Decode(f, -1)
	require.NoError(t, err)

	kv := m.KV()
	assert.Equal(t, "llama", kv.Architecture())
	assert.EqualValues(t, BlockCount, kv.BlockCount())
	assert.EqualValues(t, ContextLength, kv.ContextLength())
	assert.EqualValues(t, Embedding, kv.EmbeddingLength())
	assert.Equal(t, "gpt2", kv.String("tokenizer.ggml.model"))
	assert.Len(t, kv.Strings("tokenizer.ggml.tokens"), VocabSize)
	assert.Len(t, kv.Ints("tokenizer.ggml.token_type"), VocabSize)
	assert.EqualValues(t, BOS, kv.Uint("tokenizer.ggml.bos_token_id"))
	assert.EqualValues(t, EOS, kv.Uint("tokenizer.ggml.eos_token_id"))

	tokens := kv.Strings("tokenizer.ggml.tokens")
	assert.Equal(t, "Ġ", tokens[' '], "a space is spelled as GPT-2 spells it")
	assert.Equal(t, "Ċ", tokens['\n'])
	assert.Equal(t, "a", tokens['a'])

	names := map[string][]uint64{}
	for _, tensor := range m.Tensors().Items() {
		names[tensor.Name] = tensor.Shape
	}
	assert.Len(t, names, 3+9*BlockCount)
	assert.Equal(t, []uint64{Embedding, VocabSize}, names["token_embd.weight"])
	assert.Equal(t, []uint64{Embedding, VocabSize}, names["output.weight"])
	assert.Equal(t, []uint64{FeedForward, Embedding}, names["blk.1.ffn_down.weight"])
	assert.Equal(t, []uint64{Embedding}, names["blk.0.attn_norm.weight"])

	info, err := os.Stat(path)
	require.NoError(t, err)
	assert.InDelta(t, 512<<10, info.Size(), 128<<10, "about half a megabyte")
}

func TestWriteIsDeterministic(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.gguf"), filepath.Join(dir, "b.gguf")
	require.NoError(t, Write(a))
	require.NoError(t, Write(b))

	da, err := os.ReadFile(a)
	require.NoError(t, err)
	db, err := os.ReadFile(b)
	require.NoError(t, err)
	assert.True(t, bytes.Equal(da, db), "two writes differ")
}

func TestVocabularyIsDistinctBytes(t *testing.T) {
	tokens, types := vocabulary()
	require.Len(t, tokens, VocabSize)
	require.Len(t, types, VocabSize)

	seen := map[string]bool{}
	for i, tok := range tokens {
		assert.False(t, seen[tok], "token %d %q repeats", i, tok)
		seen[tok] = true
	}
	assert.Equal(t, tokenControl, types[BOS])
	assert.Equal(t, tokenControl, types[EOS])
}

func TestWriteBadPath(t *testing.T) {
	err := Write(filepath.Join(t.TempDir(), "missing", "tiny.gguf"))
	assert.ErrorContains(t, err, "tinymodel")
}
