package main

import "github.com/spf13/cobra"

func newToolsCmd(d *deps) *cobra.Command { return &cobra.Command{Use: "tools", Short: "todo"} }
