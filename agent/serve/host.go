package serve

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"
)

// hostSet is the names a request may use for this server: the bound host,
// and for a loopback or wildcard address the names that reach it here.
type hostSet struct {
	names map[string]bool // lower case, IPv6 without brackets
	port  string
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// ownNames lists the names of the bound host. A wildcard address (":8765",
// "0.0.0.0", "::") answers on every interface, so every interface address
// and the machine's host name are its own.
func ownNames(host string, port int) (hostSet, error) {
	hs := hostSet{names: map[string]bool{}, port: strconv.Itoa(port)}
	add := func(n string) { hs.names[strings.ToLower(strings.Trim(n, "[]"))] = true }
	ip := net.ParseIP(host)
	switch {
	case host == "" || ip != nil && ip.IsUnspecified():
		addrs, err := net.InterfaceAddrs()
		if err != nil {
			return hs, fmt.Errorf("list interface addresses: %w", err)
		}
		for _, a := range addrs {
			if n, ok := a.(*net.IPNet); ok {
				add(n.IP.String())
			}
		}
		add("localhost")
		if h, err := os.Hostname(); err == nil {
			add(h)
		}
	case isLoopback(host):
		add(host)
		add("localhost")
		add("127.0.0.1")
		add("::1")
	default:
		add(host)
		if ip == nil {
			ips, _ := net.LookupIP(host)
			for _, ip := range ips {
				add(ip.String())
			}
		}
	}
	return hs, nil
}

// allows reports whether a Host header names this server. The port must
// be ours when given; without one the request is for the default port, so
// ours must be that.
func (hs hostSet) allows(hostport string) bool {
	host, port, err := net.SplitHostPort(hostport)
	if err != nil {
		host, port = hostport, "80"
	}
	return port == hs.port && hs.names[strings.ToLower(strings.Trim(host, "[]"))]
}

// allowsOrigin reports whether an Origin header is a page of this server.
func (hs hostSet) allowsOrigin(origin string) bool {
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" || u.Scheme != "http" && u.Scheme != "https" {
		return false
	}
	h := u.Host
	if u.Port() == "" {
		if u.Scheme == "https" {
			h += ":443"
		} else {
			h += ":80"
		}
	}
	return hs.allows(h)
}
