/*
 * Stand-in for miniaudio.h, used only to build the Ollama server for
 * offattr's end-to-end tests (.ci/ollama.sh puts this directory on
 * CGO_CPPFLAGS).
 *
 * Why it exists: the Go module zip of github.com/ollama/ollama drops every
 * vendor/ directory, and with it llama.cpp's vendor/miniaudio/miniaudio.h.
 * The only includer, llama/llama.cpp/tools/mtmd/mtmd-helper.cpp, uses it to
 * decode audio input for multimodal models, which the tiny text model of the
 * tests never reaches. So this header declares just the names that file
 * uses and defines the decoder calls to fail: an audio input would be
 * rejected as undecodable instead of crashing. Debian packages no miniaudio,
 * and nothing may be downloaded outside the package registries, so we keep
 * this small file rather than the real 90k-line one.
 *
 * The list of names comes from
 *   grep -ohE '\bma_(decoder|encoder)[a-zA-Z_]*' mtmd-helper.cpp | sort -u
 * in the module at the version pinned in go.mod (v0.17.4). When that version
 * changes, re-run the grep; a missing name fails the build loudly.
 *
 * Go's build cache does not hash headers outside the package being built,
 * so after editing this file rebuild with `go clean -cache` first (or delete
 * the cached binary and run .ci/ollama.sh with GOFLAGS=-a).
 */
#ifndef OFFATTR_MINIAUDIO_STANDIN_H
#define OFFATTR_MINIAUDIO_STANDIN_H

#include <stddef.h>
#include <stdint.h>

/* mtmd-helper.cpp defines MA_API as static before including us. */
#ifndef MA_API
#define MA_API static
#endif

typedef int ma_result;
#define MA_SUCCESS 0
#define MA_NOT_IMPLEMENTED (-29)

typedef uint32_t ma_uint32;
typedef uint64_t ma_uint64;

typedef enum {
    ma_format_unknown = 0,
    ma_format_u8,
    ma_format_s16,
    ma_format_s24,
    ma_format_s32,
    ma_format_f32
} ma_format;

typedef enum {
    ma_encoding_format_unknown = 0,
    ma_encoding_format_wav,
    ma_encoding_format_flac,
    ma_encoding_format_mp3,
    ma_encoding_format_vorbis
} ma_encoding_format;

typedef struct {
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_decoder_config;

typedef struct {
    ma_decoder_config config;
} ma_decoder;

typedef struct {
    ma_encoding_format encodingFormat;
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_encoder_config;

typedef struct {
    ma_encoder_config config;
} ma_encoder;

/*
 * The definitions are inline so that the ones a build does not call (the
 * encoder, used only under MTMD_AUDIO_DEBUG) raise no unused-function
 * warnings.
 */

MA_API inline ma_decoder_config ma_decoder_config_init(ma_format format, ma_uint32 channels, ma_uint32 sampleRate) {
    ma_decoder_config c;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sampleRate;
    return c;
}

MA_API inline ma_result ma_decoder_init_memory(const void *data, size_t size, const ma_decoder_config *config, ma_decoder *decoder) {
    (void)data;
    (void)size;
    if (decoder != NULL && config != NULL) {
        decoder->config = *config;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *decoder, ma_uint64 *length) {
    (void)decoder;
    if (length != NULL) {
        *length = 0;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline ma_result ma_decoder_read_pcm_frames(ma_decoder *decoder, void *frames, ma_uint64 frameCount, ma_uint64 *framesRead) {
    (void)decoder;
    (void)frames;
    (void)frameCount;
    if (framesRead != NULL) {
        *framesRead = 0;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline ma_result ma_decoder_uninit(ma_decoder *decoder) {
    (void)decoder;
    return MA_SUCCESS;
}

MA_API inline ma_encoder_config ma_encoder_config_init(ma_encoding_format encodingFormat, ma_format format, ma_uint32 channels, ma_uint32 sampleRate) {
    ma_encoder_config c;
    c.encodingFormat = encodingFormat;
    c.format = format;
    c.channels = channels;
    c.sampleRate = sampleRate;
    return c;
}

MA_API inline ma_result ma_encoder_init_file(const char *path, const ma_encoder_config *config, ma_encoder *encoder) {
    (void)path;
    if (encoder != NULL && config != NULL) {
        encoder->config = *config;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline ma_result ma_encoder_write_pcm_frames(ma_encoder *encoder, const void *frames, ma_uint64 frameCount, ma_uint64 *framesWritten) {
    (void)encoder;
    (void)frames;
    (void)frameCount;
    if (framesWritten != NULL) {
        *framesWritten = 0;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline void ma_encoder_uninit(ma_encoder *encoder) {
    (void)encoder;
}

#endif /* OFFATTR_MINIAUDIO_STANDIN_H */
