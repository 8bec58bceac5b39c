// Package root assembles offattr's command tree.
package root

import (
	"runtime/debug"

	"github.com/spf13/cobra"

	"github.com/offattr/offattr/cmd/offattr/internal/analyzecmd"
	"github.com/offattr/offattr/cmd/offattr/internal/cmdutil"
	"github.com/offattr/offattr/cmd/offattr/internal/contextcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/evalcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/exportcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/fitcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/graphcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/reportcmd"
	"github.com/offattr/offattr/cmd/offattr/internal/rulescmd"
	"github.com/offattr/offattr/cmd/offattr/internal/screencmd"
	"github.com/offattr/offattr/cmd/offattr/internal/stepscmd"
)

// NewCmdRoot returns the offattr command with every subcommand attached.
func NewCmdRoot(io *cmdutil.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "offattr",
		Short: "Find which agent, at which step, caused a failed multi-agent run — offline",
		Long: `offattr reads the log of a failed multi-agent LLM run and names the agent and
the step of the decisive fault, with the evidence behind it. Rules alone need
no server and no weights; --model asks a locally served Ollama model only the
questions that need language understanding.

Exit status: 0 every input attributed; 1 some input failed (the rest were
written) or an output could not be written; 2 usage error; 130 interrupted.
"offattr help glossary" explains the terms the outputs use.`,
		Version:       version(debug.ReadBuildInfo()),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Runnable only to turn an unknown command into a usage error
		// (cobra would print help and succeed); alone it prints help.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return cmdutil.Usagef("unknown command %q for %q", args[0], cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.SetVersionTemplate("offattr {{.Version}}\n")
	cmd.SetOut(io.Out)
	cmd.SetErr(io.ErrOut)
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return cmdutil.Usage(err) })
	cmd.AddCommand(
		analyzecmd.NewCmdAnalyze(io, nil),
		evalcmd.NewCmdEval(io, nil),
		graphcmd.NewCmdGraph(io, nil),
		screencmd.NewCmdScreen(io, nil),
		exportcmd.NewCmdExport(io, nil),
		contextcmd.NewCmdContext(io, nil),
		fitcmd.NewCmdFit(io, nil),
		rulescmd.NewCmdRules(io, nil),
		stepscmd.NewCmdSteps(io, nil),
		reportcmd.NewCmdReport(io, nil),
		newCmdGlossary(),
	)
	for _, c := range cmd.Commands() {
		UsageArgs(c)
	}
	return cmd
}

// UsageArgs makes c's argument check report a usage error, so that a
// missing or extra argument exits 2 like a bad flag.
func UsageArgs(c *cobra.Command) {
	if c.Args == nil {
		return
	}
	check := c.Args
	c.Args = func(cmd *cobra.Command, args []string) error { return cmdutil.Usage(check(cmd, args)) }
}
