package web

import (
	"net/netip"
	"testing"
)

func TestClassify(t *testing.T) {
	for _, tc := range []struct {
		ip   string
		want string
	}{
		{"93.184.215.14", ""},
		{"8.8.8.8", ""},
		{"2606:4700::6810:85e5", ""},
		{"127.0.0.1", kindLoopback},
		{"127.255.255.254", kindLoopback},
		{"::1", kindLoopback},
		{"10.0.0.1", kindPrivate},
		{"172.16.0.1", kindPrivate},
		{"172.31.255.255", kindPrivate},
		{"172.32.0.1", ""},
		{"192.168.1.1", kindPrivate},
		{"100.64.0.1", kindShared},
		{"100.127.255.255", kindShared},
		{"100.128.0.1", ""},
		{"169.254.169.254", kindLinkLocal},
		{"169.254.0.1", kindLinkLocal},
		{"fe80::1", kindLinkLocal},
		{"fe80::1%eth0", kindLinkLocal},
		{"fc00::1", kindPrivate},
		{"fd00::1", kindPrivate},
		{"fd12:3456::1", kindPrivate},
		{"fec0::1", kindPrivate},
		{"224.0.0.1", kindMulticast},
		{"239.255.255.250", kindMulticast},
		{"ff02::1", kindMulticast},
		{"0.0.0.0", kindAny},
		{"0.1.2.3", kindAny},
		{"::", kindAny},
		{"255.255.255.255", kindReserved},
		{"240.0.0.1", kindReserved},
		{"198.18.0.1", kindReserved},
		{"192.0.2.1", kindReserved},
		{"::ffff:127.0.0.1", kindLoopback},
		{"::ffff:10.0.0.1", kindPrivate},
		{"::ffff:169.254.169.254", kindLinkLocal},
		{"::ffff:0.0.0.0", kindAny},
		{"::ffff:93.184.215.14", ""},
		{"::127.0.0.1", kindReserved},
		{"64:ff9b::a00:1", kindPrivate},             // NAT64 of 10.0.0.1
		{"64:ff9b::a9fe:a9fe", kindLinkLocal},       // NAT64 of 169.254.169.254
		{"64:ff9b::5db8:d70e", ""},                  // NAT64 of 93.184.215.14
		{"64:ff9b:1::a00:1", kindPrivate},           // local-use NAT64
		{"2001:db8::1", kindReserved},               // documentation
		{"2002:a00:1::1", kindPrivate},              // 6to4 of 10.0.0.1
		{"2002:5db8:d70e::1", ""},                   // 6to4 of 93.184.215.14
		{"2001:0:4136:e378::1", kindReserved},       // Teredo
		{"2001:4860:4860::8888", ""},                // public IPv6
		{"100::1", kindReserved},                    // discard-only
		{"64:ff9b::7f00:1", kindLoopback},           // NAT64 of 127.0.0.1
		{"::ffff:7f00:1", kindLoopback},             // mapped, hex spelling
		{"0:0:0:0:0:ffff:a9fe:a9fe", kindLinkLocal}, // mapped, long spelling
	} {
		t.Run(tc.ip, func(t *testing.T) {
			if got := classify(netip.MustParseAddr(tc.ip)); got != tc.want {
				t.Errorf("classify(%s) = %q, want %q", tc.ip, got, tc.want)
			}
		})
	}
}

// TestParseHostIP: every spelling of an address is read as that address,
// so that none passes for a name.
func TestParseHostIP(t *testing.T) {
	for _, tc := range []struct {
		host string
		want string // "" for a name
	}{
		{"127.0.0.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"0177.1", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"10.1", "10.0.0.1"},
		{"167772161", "10.0.0.1"},
		{"0xa9.0xfe.0xa9.0xfe", "169.254.169.254"},
		{"0251.0376.0251.0376", "169.254.169.254"},
		{"2852039166", "169.254.169.254"},
		{"0", "0.0.0.0"},
		{"127.0.0.1.", "127.0.0.1"},
		{"[::1]", "::1"},
		{"[::ffff:127.0.0.1]", "::ffff:127.0.0.1"},
		{"::ffff:a9fe:a9fe", "::ffff:169.254.169.254"},
		{"example.com", ""},
		{"localhost", ""},
		{"0x", "0.0.0.0"},
		{"1.2.3.4.5", ""},
		{"256.1.1.1", ""},
		{"4294967296", ""},
		{"1.16777216", ""},
		{"08.1.1.1", ""}, // 8 is not an octal digit
		{"1e3", ""},
		{"-1", ""},
		{"", ""},
		{"1..1", ""},
	} {
		t.Run(tc.host, func(t *testing.T) {
			ip, ok := parseHostIP(tc.host)
			got := ""
			if ok {
				got = ip.String()
			}
			if got != tc.want {
				t.Errorf("parseHostIP(%q) = %q, want %q", tc.host, got, tc.want)
			}
		})
	}
}

func TestHostListAllows(t *testing.T) {
	l := hostList{"docs.internal", "localhost:8080", "10.1.2.3", "[::1]:9000", "Wiki.Corp."}
	for _, tc := range []struct {
		host, port string
		want       bool
	}{
		{"docs.internal", "443", true},
		{"docs.internal", "8443", true},
		{"DOCS.internal.", "80", true},
		{"other.internal", "80", false},
		{"sub.docs.internal", "80", false},
		{"localhost", "8080", true},
		{"localhost", "80", false},
		{"10.1.2.3", "80", true},
		{"10.1.2.4", "80", false},
		{"::1", "9000", true},
		{"0:0::1", "9000", true},
		{"::1", "9001", false},
		{"wiki.corp", "443", true},
	} {
		if got := l.allows(tc.host, tc.port); got != tc.want {
			t.Errorf("allows(%s, %s) = %v, want %v", tc.host, tc.port, got, tc.want)
		}
	}
}

// TestControlCheck: the dialer's last check, on the address the socket is
// about to connect to.
func TestControlCheck(t *testing.T) {
	for _, tc := range []struct {
		addr    string
		allowed bool
		ok      bool
	}{
		{"93.184.215.14:443", false, true},
		{"[2606:4700::6810:85e5]:443", false, true},
		{"10.0.0.1:80", false, false},
		{"169.254.169.254:80", false, false},
		{"127.0.0.1:8080", false, false},
		{"[::ffff:127.0.0.1]:80", false, false},
		{"[fd00::1]:80", false, false},
		{"127.0.0.1:8080", true, true},
		{"10.0.0.1:80", true, true},
		{"0.0.0.0:80", true, false},
		{"224.0.0.1:80", true, false},
		{"not an address", false, false},
	} {
		err := controlCheck(tc.addr, tc.allowed)
		if (err == nil) != tc.ok {
			t.Errorf("controlCheck(%s, allowed=%v) = %v, want ok=%v", tc.addr, tc.allowed, err, tc.ok)
		}
	}
}
