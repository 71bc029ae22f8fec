package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/dshtest/dshtest/internal/ground/words"
	"github.com/dshtest/dshtest/sessionlog"
	"github.com/dshtest/dshtest/sessionlog/store"
)

func (a *app) sessionsCommand() *cobra.Command {
	var (
		storeDir string
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "sessions [--store DIR | FILE.db]",
		Short: "List the sessions of a session store or a SQLite database",
		Long: `sessions lists the sessions of upstream's session store (the directory
--store names, else $DSH_HOME/sessions, else ~/.dsh/sessions), in both of
its layouts, or of a schema-17 SQLite database given as FILE.db: id, cwd,
created time (UTC), size in bytes and form, newest first. Only each log's
header is read. Read one with --session ID (dshtest repro --session ID).`,
		Example: `  dshtest sessions
  dshtest sessions --store ~/.dsh/sessions --json
  dshtest sessions sessions.db
  dshtest repro --session 5f0c… --store ~/.dsh/sessions`,
		Args: argsUsage(cobra.MaximumNArgs(1)),
		RunE: runE(func(cmd *cobra.Command, args []string) error {
			path := ""
			if len(args) == 1 {
				if storeDir != "" {
					return usagef("give --store DIR or FILE.db, not both")
				}
				path = args[0]
			} else {
				home, _ := os.UserHomeDir()
				dir, err := store.Dir(storeDir, a.getenv, home)
				if err != nil {
					return sessionlog.Refuse(sessionlog.LayerInput, sessionlog.Pos{Path: storeDir, Seq: -1}, err.Error(), err)
				}
				path = dir
			}
			list, err := store.List(path)
			if len(args) == 0 && errors.Is(err, fs.ErrNotExist) {
				// No store yet: say where one was looked for and how to
				// name another.
				return fmt.Errorf("no session store at %s (dsh keeps its sessions there once it has run; --store DIR or a FILE.db names another)", esc(path))
			}
			if err != nil {
				return a.inputErr(err, &logFlags{})
			}
			if asJSON {
				if list == nil {
					list = []store.Session{}
				}
				return writeJSON(a.stdout, list)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "ID\tCWD\tCREATED\tSIZE\tFORM")
			for _, s := range list {
				cwd := s.Cwd
				if cwd == "" {
					cwd = "-"
				}
				form := string(s.Form)
				if s.Subagent {
					form += " (subagent)"
				}
				if s.Problem != "" {
					form += " (" + s.Problem + ")"
				}
				fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", esc(s.ID), esc(cwd), s.Created, s.Size, esc(form))
			}
			if err := tw.Flush(); err != nil {
				return err
			}
			fmt.Fprintf(a.stdout, "%s in %s\n", words.Plural(len(list), "session"), esc(path))
			return nil
		}),
	}
	cmd.Flags().StringVar(&storeDir, "store", "", "the session store (default $DSH_HOME/sessions, else ~/.dsh/sessions)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the list as a JSON array")
	return cmd
}
