//go:build !unix

package notes

import "errors"

func mkfifo(string) error { return errors.New("no mkfifo") }
