package main

import "github.com/spf13/cobra"

func newParseCmd(d *deps) *cobra.Command { return &cobra.Command{Use: "parse", Short: "todo"} }
