// Package root assembles offattr's command tree.
package root

import (
	"fmt"
	"runtime/debug"
	"strings"

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
written), a label is outside its run, or an output could not be written or
is not a regular file; 2 usage error; 130 interrupted (SIGINT), 143
terminated (SIGTERM). "offattr glossary" explains the terms the outputs use
and the rules; docs/ in the repository says more.`,
		Version:       version(debug.ReadBuildInfo()),
		SilenceUsage:  true,
		SilenceErrors: true,
		// Runnable only to turn an unknown command into a usage error
		// (cobra would print help and succeed); alone it prints help.
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return cmd.Help() },
	}
	cmd.SuggestionsMinimumDistance = 2 // cobra's default, which it sets only in Find
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
	cmd.SetHelpCommand(newCmdHelp())
	for _, c := range cmd.Commands() {
		UsageArgs(c)
	}
	return cmd
}

// unknownCommand is the usage error for a command name root does not
// have, with cobra's suggestions of the names it may have meant.
func unknownCommand(root *cobra.Command, name string) error {
	msg := fmt.Sprintf("unknown command %q for %q", name, root.CommandPath())
	if s := root.SuggestionsFor(name); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	}
	return cmdutil.Usagef("%s", msg)
}

// newCmdHelp replaces cobra's help command, which prints the main help
// and succeeds on a topic it does not know: here that is a usage error
// with suggestions.
func newCmdHelp() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "Help about any command, or the glossary (help glossary)",
		RunE: func(c *cobra.Command, args []string) error {
			root := c.Root()
			cmd, rest, err := root.Find(args)
			if err != nil || cmd == nil {
				return cmdutil.Usage(err)
			}
			if len(rest) > 0 {
				if cmd == root {
					return unknownCommand(root, rest[0])
				}
				return cmdutil.Usagef("%q has no subcommand %q", cmd.CommandPath(), rest[0])
			}
			cmd.InitDefaultHelpFlag()
			cmd.InitDefaultVersionFlag()
			return cmd.Help()
		},
	}
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
