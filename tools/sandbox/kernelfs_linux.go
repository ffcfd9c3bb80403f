package sandbox

import (
	"os"
	"syscall"
)

// kernelFile reports whether f lives on one of the kernel's own file
// systems (proc, sysfs and their kin): files that are process or device
// state, such as /proc/self/environ, whatever path led there (a bind
// mount, a second proc mount).
func kernelFile(f *os.File) bool {
	var st syscall.Statfs_t
	if err := syscall.Fstatfs(int(f.Fd()), &st); err != nil {
		return true // cannot tell: not a file to send anywhere
	}
	switch uint32(st.Type) {
	case 0x9fa0, // proc
		0x62656572, // sysfs
		0x64626720, // debugfs
		0x74726163, // tracefs
		0x73636673, // securityfs
		0x27e0eb,   // cgroup
		0x63677270, // cgroup2
		0xcafe4a11, // bpf
		0xde5e81e4, // efivarfs
		0x1cd1:     // devpts
		return true
	}
	return false
}
