package run_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/offattr/offattr/run"
)

// TestTelemetryExamples reads the trip in every format's example, as the
// tool that exports that format writes it, and finds the same run.
func TestTelemetryExamples(t *testing.T) {
	tests := []struct {
		file    string
		format  run.Format
		errLine string
	}{
		{"otel-sdk.jsonl", run.FormatOTLP, "run_test.CityNotFoundError: no forecast for city Olso"},
		{"tempo.json", run.FormatTempo, "CityNotFoundError: no forecast for city Olso"},
		{"jaeger.json", run.FormatJaeger, "CityNotFoundError: no forecast for city Olso"},
		{"phoenix.jsonl", run.FormatOpenInference, "CityNotFoundError: no forecast for city Olso"},
		{"langfuse.json", run.FormatLangfuse, "Error: CityNotFoundError: no forecast for city Olso"},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "telemetry", tt.file)
			for _, forced := range []run.Format{run.FormatAuto, tt.format} {
				cases, err := run.LoadAll(path, run.Options{Format: forced})
				require.NoError(t, err)
				require.Len(t, cases, 1)
				checkTrip(t, cases[0], path, tt.format, tt.errLine)
			}
		})
	}
}
