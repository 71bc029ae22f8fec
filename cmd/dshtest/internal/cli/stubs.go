package cli

import "github.com/spf13/cobra"

func (a *app) runCommand() *cobra.Command     { return &cobra.Command{Use: "run"} }
func (a *app) recordCommand() *cobra.Command  { return &cobra.Command{Use: "record"} }
func (a *app) reproCommand() *cobra.Command   { return &cobra.Command{Use: "repro"} }
func (a *app) viewCommand() *cobra.Command    { return &cobra.Command{Use: "view"} }
func (a *app) historyCommand() *cobra.Command { return &cobra.Command{Use: "history"} }
