package web

import (
	"net/netip"
	"strconv"
	"strings"
)

// Address kinds that are never fetched unless the user allows the host.
// Each is the words of the refusal ("10.0.0.1, a private address").
const (
	kindLoopback  = "loopback"
	kindPrivate   = "private"
	kindShared    = "shared (carrier-grade NAT)"
	kindLinkLocal = "link-local"
	kindMulticast = "multicast"
	kindAny       = "unspecified"
	kindReserved  = "reserved"
)

// nonGlobal are the IPv4 and IPv6 ranges that no public web server uses,
// beyond what netip's own predicates name: shared address space (RFC
// 6598), "this network", protocol assignments, benchmarking, the old
// class E, broadcast, documentation, deprecated site-local IPv6 and the
// local-use NAT64 prefix.
var nonGlobal = []struct {
	prefix netip.Prefix
	kind   string
}{
	{netip.MustParsePrefix("100.64.0.0/10"), kindShared},
	{netip.MustParsePrefix("0.0.0.0/8"), kindAny},
	{netip.MustParsePrefix("192.0.0.0/24"), kindReserved},
	{netip.MustParsePrefix("192.0.2.0/24"), kindReserved},
	{netip.MustParsePrefix("198.18.0.0/15"), kindReserved},
	{netip.MustParsePrefix("198.51.100.0/24"), kindReserved},
	{netip.MustParsePrefix("203.0.113.0/24"), kindReserved},
	{netip.MustParsePrefix("240.0.0.0/4"), kindReserved}, // and 255.255.255.255
	{netip.MustParsePrefix("::/96"), kindReserved},       // IPv4-compatible (deprecated)
	{netip.MustParsePrefix("fec0::/10"), kindPrivate},    // site-local (deprecated)
	{netip.MustParsePrefix("64:ff9b:1::/48"), kindPrivate},
	{netip.MustParsePrefix("2001:db8::/32"), kindReserved},
	{netip.MustParsePrefix("100::/64"), kindReserved},  // discard-only
	{netip.MustParsePrefix("2001::/32"), kindReserved}, // Teredo: tunnels to a hidden IPv4 address
}

// nat64 and sixToFour are IPv6 prefixes whose addresses reach an IPv4
// address embedded in them (the last 32 bits; bits 16-47), which is
// judged instead.
var (
	nat64     = netip.MustParsePrefix("64:ff9b::/96")
	sixToFour = netip.MustParsePrefix("2002::/16")
)

// classify says why ip must not be fetched: "" for a public unicast
// address, else its kind. IPv4-mapped IPv6 addresses (::ffff:10.0.0.1)
// and NAT64 ones are judged by the IPv4 address they reach.
func classify(ip netip.Addr) string {
	ip = ip.WithZone("").Unmap()
	switch b := ip.As16(); {
	case ip.Is6() && nat64.Contains(ip):
		ip = netip.AddrFrom4([4]byte(b[12:]))
	case ip.Is6() && sixToFour.Contains(ip):
		ip = netip.AddrFrom4([4]byte(b[2:6]))
	}
	switch {
	case !ip.IsValid(), ip.IsUnspecified():
		return kindAny
	case ip.IsLoopback():
		return kindLoopback
	case ip.IsPrivate():
		return kindPrivate
	case ip.IsLinkLocalUnicast():
		return kindLinkLocal
	case ip.IsMulticast():
		return kindMulticast
	}
	for _, r := range nonGlobal {
		if r.prefix.Contains(ip) {
			return r.kind
		}
	}
	return ""
}

// allowedKind reports whether a host the user allows may reach an
// address of kind: any unicast address (their own machine, their
// network), but never multicast or "unspecified" (0.0.0.0 reaches this
// machine by accident, not by a name anyone would allow).
func allowedKind(kind string) bool {
	return kind != kindMulticast && kind != kindAny
}

// parseHostIP reads host as an IP address: the usual forms netip
// accepts, and the old numeric IPv4 forms that C resolvers and browsers
// still take (2130706433, 0x7f.1, 0177.0.0.1, 127.1), so that no
// spelling of a local address passes for a name. ok is false for a name.
func parseHostIP(host string) (netip.Addr, bool) {
	host = strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(host, "["), "]"), ".")
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip, true
	}
	return parseInetAton(host)
}

// parseInetAton parses IPv4 the way inet_aton(3) does: one to four
// parts, each decimal, octal (leading 0) or hex (leading 0x), the last
// filling the remaining bytes.
func parseInetAton(s string) (netip.Addr, bool) {
	parts := strings.Split(s, ".")
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	var vals []uint64
	for _, p := range parts {
		base := 10
		switch {
		case len(p) > 1 && (p[:2] == "0x" || p[:2] == "0X"):
			base, p = 16, p[2:]
			if p == "" {
				p = "0" // "0x" alone is zero to inet_aton
			}
		case len(p) > 1 && p[0] == '0':
			base, p = 8, p[1:]
		}
		if p == "" || strings.ContainsAny(p, "+-_") {
			return netip.Addr{}, false
		}
		v, err := strconv.ParseUint(p, base, 32)
		if err != nil {
			return netip.Addr{}, false
		}
		vals = append(vals, v)
	}
	last := vals[len(vals)-1]
	lead := vals[:len(vals)-1]
	var b [4]byte
	for i, v := range lead {
		if v > 0xff {
			return netip.Addr{}, false
		}
		b[i] = byte(v)
	}
	if rest := 4 - len(lead); last >= 1<<(8*rest) {
		return netip.Addr{}, false
	}
	for i := 3; i >= len(lead); i-- {
		b[i] = byte(last)
		last >>= 8
	}
	return netip.AddrFrom4(b), true
}
