package main

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"os"
	"strconv"
	"strings"
)

// dumpPages writes, for each file-backed mapping of pid's executable, one
// line per resident page: its address in hex and the mapping's
// permissions. Attributing the addresses to symbols (go tool nm on an
// unstripped build of the same source) shows whose code and data the
// process touched. It needs to read /proc/PID/pagemap (root, or the same
// user with CAP_SYS_ADMIN for the present bits).
func dumpPages(pid int, out string) error {
	exe, err := os.Readlink(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil {
		return err
	}
	maps, err := os.Open(fmt.Sprintf("/proc/%d/maps", pid))
	if err != nil {
		return err
	}
	defer maps.Close()
	pm, err := os.Open(fmt.Sprintf("/proc/%d/pagemap", pid))
	if err != nil {
		return err
	}
	defer pm.Close()
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	sc := bufio.NewScanner(maps)
	page := uint64(os.Getpagesize())
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || fields[5] != exe {
			continue
		}
		lo, hi, _ := strings.Cut(fields[0], "-")
		start, _ := strconv.ParseUint(lo, 16, 64)
		end, _ := strconv.ParseUint(hi, 16, 64)
		buf := make([]byte, (end-start)/page*8)
		if _, err := pm.ReadAt(buf, int64(start/page*8)); err != nil {
			return err
		}
		for i := range (end - start) / page {
			if binary.LittleEndian.Uint64(buf[i*8:])>>63 == 1 {
				fmt.Fprintf(w, "%x %s\n", start+i*page, fields[1])
			}
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
