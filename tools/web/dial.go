package web

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"syscall"
)

// blockedError is a refusal to connect: an address that is not public, a
// scheme other than http(s), credentials in a URL. It travels through
// net/http's errors and becomes TOOL_POLICY_DENIED.
type blockedError struct{ reason string }

func (e *blockedError) Error() string { return e.reason }

func blocked(format string, args ...any) error {
	return &blockedError{reason: fmt.Sprintf(format, args...)}
}

// hostList is the user's web.allow_hosts: host names or addresses, each
// with or without a port.
type hostList []string

// allows reports whether host (as in a URL, lower case, no brackets)
// on port is in the list. An entry without a port allows every port.
func (l hostList) allows(host, port string) bool {
	host = canonicalHost(host)
	for _, e := range l {
		eh, ep, err := net.SplitHostPort(e)
		if err != nil {
			eh, ep = e, ""
		}
		if canonicalHost(eh) == host && (ep == "" || ep == port) {
			return true
		}
	}
	return false
}

// canonicalHost is host in one spelling: lower case, without brackets or
// a final dot, an IPv6 address in its shortest form.
func canonicalHost(host string) string {
	host = strings.ToLower(strings.TrimSuffix(strings.Trim(host, "[]"), "."))
	if ip, err := netip.ParseAddr(host); err == nil {
		return ip.String()
	}
	return host
}

// dialer connects a fetch, to checked addresses only. The check runs on
// every connection, so on every hop of a redirect, and on the address
// actually dialled: a name that resolves to a public address when asked
// and a private one when used (DNS rebinding) cannot pass.
type dialer struct {
	allow   hostList
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// dial connects to an address already checked; allowed says the
	// user allowed its host, so a private address is fine.
	dial func(ctx context.Context, network, addr string, allowed bool) (net.Conn, error)
}

// DialContext is the Transport's dial: resolve, check every address,
// connect to the first that answers.
func (d *dialer) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	allowed := d.allow.allows(host, port)
	ips, err := d.lookup(ctx, host)
	if err != nil {
		return nil, err
	}
	// Every address is checked before any is dialled: a name with one
	// public and one private address is refused as a whole.
	for _, ip := range ips {
		if err := checkAddr(host, ip, allowed); err != nil {
			return nil, err
		}
	}
	var errs []error
	for _, ip := range ips {
		c, err := d.dial(ctx, network, net.JoinHostPort(ip.WithZone("").String(), port), allowed)
		if err == nil {
			return c, nil
		}
		errs = append(errs, err)
	}
	return nil, errors.Join(errs...)
}

// lookup resolves host; an address written as one (in any spelling) is
// not sent to the resolver.
func (d *dialer) lookup(ctx context.Context, host string) ([]netip.Addr, error) {
	if ip, ok := parseHostIP(host); ok {
		return []netip.Addr{ip}, nil
	}
	ips, err := d.resolve(ctx, host)
	if err == nil && len(ips) == 0 {
		err = fmt.Errorf("no address for %s", host)
	}
	return ips, err
}

// checkAddr refuses ip unless it is public, or the user allowed host and
// ip is a unicast address.
func checkAddr(host string, ip netip.Addr, allowed bool) error {
	kind := classify(ip)
	if kind == "" || allowed && allowedKind(kind) {
		return nil
	}
	shown := ip.Unmap().String()
	switch _, literal := parseHostIP(host); {
	case canonicalHost(host) == canonicalHost(shown):
		return blocked("%s is a %s address", shown, kind)
	case literal:
		return blocked("%s is %s, a %s address", host, shown, kind)
	}
	return blocked("%s resolves to %s, a %s address", host, shown, kind)
}

// systemDial connects with a net.Dialer whose Control checks the socket's
// address once more, just before connect(2): the last word on where the
// bytes go, whatever the code above it did.
func systemDial(d net.Dialer) func(ctx context.Context, network, addr string, allowed bool) (net.Conn, error) {
	return func(ctx context.Context, network, addr string, allowed bool) (net.Conn, error) {
		nd := d
		nd.Control = func(_, address string, _ syscall.RawConn) error { return controlCheck(address, allowed) }
		return nd.DialContext(ctx, network, addr)
	}
}

// controlCheck is the dialer's Control: address is the ip:port about to
// be connected to.
func controlCheck(address string, allowed bool) error {
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return blocked("cannot check the address %q", address)
	}
	return checkAddr(ap.Addr().String(), ap.Addr(), allowed)
}

// systemResolve looks host up with the system's resolver.
func systemResolve(ctx context.Context, host string) ([]netip.Addr, error) {
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}
