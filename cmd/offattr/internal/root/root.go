// Package root assembles offattr's command tree.
package root

import (
	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/analyzecmd"
	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/contextcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/evalcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/exportcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/fitcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/graphcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/rulescmd"
	"github.com/offattr/offattr/cmd/offattr/internal/screencmd"
)

// NewCmdRoot returns the offattr command with every subcommand attached.
func NewCmdRoot(io *cmdutil.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "offattr",
		Short: "Find which agent, at which step, caused a failed multi-agent run — offline",
		Long: `offattr reads the log of a failed multi-agent LLM run and names the agent and
the step of the decisive fault, with the evidence behind it. Rules alone need
no server and no weights; --model asks a locally served Ollama model only the
questions that need language understanding.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.AddCommand(
		analyzecmd.NewCmdAnalyze(io, nil),
		evalcmd.NewCmdEval(io, nil),
		graphcmd.NewCmdGraph(io, nil),
		screencmd.NewCmdScreen(io, nil),
		exportcmd.NewCmdExport(io, nil),
		contextcmd.NewCmdContext(io, nil),
		fitcmd.NewCmdFit(io, nil),
		rulescmd.NewCmdRules(io, nil),
	)
	return cmd
}
