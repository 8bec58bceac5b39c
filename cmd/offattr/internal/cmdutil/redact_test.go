package cmdutil

import (
	"testing"

	"github.com/spf13/pflag"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRedactFlagsRegistered(t *testing.T) {
	tests := []struct {
		name      string
		onDefault bool
		args      []string
		want      bool // patterns compiled: redaction on
		err       string
	}{
		{name: "off by default", args: nil, want: false},
		{name: "--redact", args: []string{"--redact"}, want: true},
		{name: "on by default", onDefault: true, args: nil, want: true},
		{name: "--no-redact", onDefault: true, args: []string{"--no-redact"}, want: false},
		{name: "--redact=false", onDefault: true, args: []string{"--redact=false"}, want: false},
		{name: "contradiction", onDefault: true, args: []string{"--no-redact", "--redact-patterns", "p.txt"}, err: "contradict"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r RedactFlags
			fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
			if tt.onDefault {
				r.RegisterOn(fs)
			} else {
				r.Register(fs)
			}
			require.NoError(t, fs.Parse(tt.args))
			p, err := r.Compile()
			if tt.err != "" {
				assert.ErrorContains(t, err, tt.err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, p != nil)
		})
	}
}
