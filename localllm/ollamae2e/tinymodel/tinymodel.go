// Package tinymodel writes a tiny llama-architecture GGUF model that a real
// Ollama server loads and answers with, so offattr's end-to-end tests need no
// downloaded weights.
//
// The model is 2 layers of width 64 over a 258-token byte-level "gpt2"
// vocabulary, with random weights drawn from a fixed seed: the file is the
// same byte for byte on every run, and its answers are deterministic
// nonsense. It decides nothing about offattr; it only stands in for a real
// model so the client's handling of truncated and malformed output is tested
// against the real server. It is test infrastructure and must stay out of the
// offattr binary's import graph.
package tinymodel

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/ollama/ollama/fs/ggml"
)

// The model's shape. ContextLength is 4096 so that clients which size
// num_ctx from the model's trained context see a small model, as they would
// with many real 4K models.
const (
	Architecture  = "llama"
	ContextLength = 4096
	BlockCount    = 2
	Embedding     = 64
	FeedForward   = 128
	HeadCount     = 4
	HeadCountKV   = 4
	HeadDim       = Embedding / HeadCount

	// VocabSize is the 256 byte tokens plus BOS and EOS.
	VocabSize = 256 + 2
	BOS       = 256
	EOS       = 257

	// Seed fixes the random weights, and with them every answer.
	Seed = 20240917
)

// Template is the Ollama prompt template (Go text/template) to create the
// model with. The model has no chat template of its own; its markers are
// plain bytes, which the byte-level vocabulary encodes like any other text.
const Template = `{{- if .System }}<|system|>
{{ .System }}
{{ end }}
{{- range .Messages }}<|{{ .Role }}|>
{{ .Content }}
{{ end }}<|assistant|>
`

// Write writes the model to path as a GGUF file, replacing any file there.
func Write(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return fmt.Errorf("tinymodel: %w", err)
	}
	if err := ggml.WriteGGUF(f, metadata(), tensors()); err != nil {
		f.Close()
		os.Remove(path)
		return fmt.Errorf("tinymodel: write %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return fmt.Errorf("tinymodel: close %s: %w", path, err)
	}
	return nil
}

// metadata returns the GGUF key-values that llama.cpp (which Ollama uses for
// the llama architecture) and Ollama's own loader read. Integer widths
// matter: llama.cpp rejects, say, an int32 where it expects a uint32.
func metadata() ggml.KV {
	tokens, types := vocabulary()
	return ggml.KV{
		"general.architecture": Architecture,
		"general.name":         "offattr-tiny",
		"general.file_type":    uint32(ggml.FileTypeF32),

		"llama.block_count":                      uint32(BlockCount),
		"llama.context_length":                   uint32(ContextLength),
		"llama.embedding_length":                 uint32(Embedding),
		"llama.feed_forward_length":              uint32(FeedForward),
		"llama.attention.head_count":             uint32(HeadCount),
		"llama.attention.head_count_kv":          uint32(HeadCountKV),
		"llama.rope.dimension_count":             uint32(HeadDim),
		"llama.rope.freq_base":                   float32(10000),
		"llama.attention.layer_norm_rms_epsilon": float32(1e-5),
		"llama.vocab_size":                       uint32(VocabSize),

		"tokenizer.ggml.model":      "gpt2",
		"tokenizer.ggml.pre":        "default",
		"tokenizer.ggml.tokens":     tokens,
		"tokenizer.ggml.token_type": types,
		// Every token is a single byte, so there is nothing to merge; the
		// key must still be present for a gpt2 tokenizer.
		"tokenizer.ggml.merges":        []string{},
		"tokenizer.ggml.bos_token_id":  uint32(BOS),
		"tokenizer.ggml.eos_token_id":  uint32(EOS),
		"tokenizer.ggml.add_bos_token": true,
		"tokenizer.ggml.add_eos_token": false,
	}
}

// Token types as llama.cpp numbers them.
const (
	tokenNormal  int32 = 1
	tokenControl int32 = 3
)

// vocabulary returns the byte-level BPE vocabulary: token i is byte i,
// spelled with GPT-2's byte-to-unicode mapping (printable bytes stand for
// themselves, the others are shifted past U+0100, so a space is "Ġ"), then
// the two control tokens.
func vocabulary() ([]string, []int32) {
	tokens := make([]string, 0, VocabSize)
	types := make([]int32, 0, VocabSize)
	shifted := 0
	for b := range 256 {
		r := rune(b)
		if !(b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE && b <= 0xFF) {
			r = rune(256 + shifted)
			shifted++
		}
		tokens = append(tokens, string(r))
		types = append(types, tokenNormal)
	}
	tokens = append(tokens, "<|begin_of_text|>", "<|end_of_text|>")
	types = append(types, tokenControl, tokenControl)
	return tokens, types
}

// tensors returns the llama tensors with F32 weights. Shapes are in GGUF
// order, the input dimension first. The weights are drawn in this fixed
// order from one seeded generator, so the file does not depend on the order
// in which WriteGGUF sorts or writes them.
func tensors() []*ggml.Tensor {
	rng := rand.New(rand.NewPCG(Seed, Seed))
	var ts []*ggml.Tensor
	add := func(name string, shape ...uint64) {
		ts = append(ts, &ggml.Tensor{
			Name:     name,
			Kind:     uint32(ggml.TensorTypeF32),
			Shape:    shape,
			WriterTo: bytes.NewReader(random(rng, shape)),
		})
	}
	norm := func(name string) {
		ts = append(ts, &ggml.Tensor{
			Name:     name,
			Kind:     uint32(ggml.TensorTypeF32),
			Shape:    []uint64{Embedding},
			WriterTo: bytes.NewReader(ones(Embedding)),
		})
	}

	add("token_embd.weight", Embedding, VocabSize)
	for i := range BlockCount {
		blk := func(s string) string { return fmt.Sprintf("blk.%d.%s", i, s) }
		norm(blk("attn_norm.weight"))
		add(blk("attn_q.weight"), Embedding, HeadDim*HeadCount)
		add(blk("attn_k.weight"), Embedding, HeadDim*HeadCountKV)
		add(blk("attn_v.weight"), Embedding, HeadDim*HeadCountKV)
		add(blk("attn_output.weight"), HeadDim*HeadCount, Embedding)
		norm(blk("ffn_norm.weight"))
		add(blk("ffn_gate.weight"), Embedding, FeedForward)
		add(blk("ffn_up.weight"), Embedding, FeedForward)
		add(blk("ffn_down.weight"), FeedForward, Embedding)
	}
	norm("output_norm.weight")
	add("output.weight", Embedding, VocabSize)
	return ts
}

// random returns little-endian float32s for a matrix of the given shape,
// normally distributed with standard deviation 1/sqrt(fan-in) so activations
// stay in range through the layers.
func random(rng *rand.Rand, shape []uint64) []byte {
	n := shape[0] * shape[1]
	scale := 1 / math.Sqrt(float64(shape[0]))
	b := make([]byte, 4*n)
	for i := range n {
		v := float32(rng.NormFloat64() * scale)
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// ones returns n little-endian float32 ones: RMS norm weights that leave the
// normalised activations as they are.
func ones(n int) []byte {
	b := make([]byte, 4*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(1))
	}
	return b
}
