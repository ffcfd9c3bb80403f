package config

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// Duration is a time.Duration written as Go writes durations ("90s",
// "2m30s") or in days ("30d"). A bare number counts seconds.
type Duration time.Duration

// UnmarshalText reads "90s", "2m", "1h30m", "30d" or "45".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := parseDuration(string(b))
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes the duration back in a form UnmarshalText reads.
func (d Duration) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// String is "30d" for whole days, else Go's form ("2m0s").
func (d Duration) String() string {
	td := time.Duration(d)
	if td > 0 && td%(24*time.Hour) == 0 {
		return fmt.Sprintf("%dd", td/(24*time.Hour))
	}
	return td.String()
}

func parseDuration(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if n, err := strconv.ParseFloat(s, 64); err == nil {
		if n < 0 {
			return 0, fmt.Errorf("duration %q is negative", s)
		}
		return time.Duration(n * float64(time.Second)), nil
	}
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseFloat(days, 64)
		if err != nil || n < 0 {
			return 0, fmt.Errorf("duration %q: write days as a number followed by d, like 30d", s)
		}
		return time.Duration(n * float64(24*time.Hour)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("duration %q: write it like 90s, 2m, 1h30m or 30d", s)
	}
	return d, nil
}

// Size is a number of bytes, written as a number or with a unit: "512KB",
// "1MiB", "2GB" (KB, MB and GB are powers of 1000; KiB, MiB and GiB of 1024).
type Size int64

var sizeUnits = []struct {
	suffix string
	n      int64
}{
	{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40},
	{"KB", 1000}, {"MB", 1000 * 1000}, {"GB", 1000 * 1000 * 1000}, {"TB", 1000 * 1000 * 1000 * 1000},
	{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40},
	{"B", 1},
}

// The range of files.read_limit: below it no real file is read whole;
// above it one read would fill the model's context many times over.
const (
	minReadLimit Size = 1 << 10
	maxReadLimit Size = 64 << 20
)

// UnmarshalText reads "1048576", "1MiB", "500KB", ...
func (z *Size) UnmarshalText(b []byte) error {
	s := strings.TrimSpace(string(b))
	mult := int64(1)
	for _, u := range sizeUnits {
		if rest, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(rest), u.n
			break
		}
	}
	n, err := strconv.ParseFloat(s, 64)
	if err != nil || n < 0 || math.IsNaN(n) {
		return fmt.Errorf("size %q: write it like 1048576, 512KB or 1MiB", string(b))
	}
	if n*float64(mult) >= math.MaxInt64 {
		return fmt.Errorf("size %q is far too large: write it like 1048576, 512KB or 1MiB", string(b))
	}
	*z = Size(n * float64(mult))
	return nil
}

// MarshalText writes the size back in a form UnmarshalText reads.
func (z Size) MarshalText() ([]byte, error) { return []byte(z.String()), nil }

// String is the size in the largest binary unit that divides it.
func (z Size) String() string {
	for _, u := range []struct {
		suffix string
		n      int64
	}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}} {
		if z > 0 && int64(z)%u.n == 0 {
			return fmt.Sprintf("%d%s", int64(z)/u.n, u.suffix)
		}
	}
	return strconv.FormatInt(int64(z), 10)
}

// maxConfigFile bounds a config file: a project's file is anyone's, and a
// link to /dev/zero or a FIFO must not eat the memory or hang the agent.
const maxConfigFile = 1 << 20

// readConfigFile reads a regular file of at most maxConfigFile bytes. It
// looks before it opens, so a FIFO is refused instead of waited on.
func readConfigFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if errors.Is(err, syscall.ENOTDIR) {
		// .agent is a file (a cloned repository's): say so, not "stat
		// .agent/config.toml: not a directory".
		return nil, fmt.Errorf("%s is not a folder; the agent keeps its state there: move it away", filepath.Dir(path))
	}
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	if info.Size() > maxConfigFile {
		return nil, fmt.Errorf("%s is larger than %d bytes; a config file is far smaller", path, maxConfigFile)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxConfigFile+1))
	if err == nil && len(b) > maxConfigFile {
		err = fmt.Errorf("%s is larger than %d bytes; a config file is far smaller", path, maxConfigFile)
	}
	return b, err
}
