package web

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/agentcli/agent/tools"
)

// testNet is the network a test's fetch sees: names resolve through
// hosts, and nothing but 127.0.0.1 can be dialled, so no test ever sends
// a packet elsewhere, even if a check it tests were broken.
type testNet struct {
	t       *testing.T
	hosts   map[string][]netip.Addr
	mu      sync.Mutex
	dialled []string
}

func newTestNet(t *testing.T, hosts map[string]string) *testNet {
	n := &testNet{t: t, hosts: map[string][]netip.Addr{}}
	for h, addrs := range hosts {
		for _, a := range strings.Fields(addrs) {
			n.hosts[h] = append(n.hosts[h], netip.MustParseAddr(a))
		}
	}
	return n
}

func (n *testNet) resolve(_ context.Context, host string) ([]netip.Addr, error) {
	if a, ok := n.hosts[host]; ok {
		return a, nil
	}
	return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
}

func (n *testNet) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	n.mu.Lock()
	n.dialled = append(n.dialled, addr)
	n.mu.Unlock()
	ap, err := netip.ParseAddrPort(addr)
	if err != nil || ap.Addr() != netip.MustParseAddr("127.0.0.1") {
		n.t.Errorf("the fetch dialled %s: only checked addresses may be dialled, and tests use only 127.0.0.1", addr)
		return nil, errors.New("test network: only 127.0.0.1")
	}
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

func (n *testNet) dials() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]string(nil), n.dialled...)
}

// tool is web_fetch over n, allowing hosts.
func (n *testNet) tool(opts Options, allow ...string) *Tool {
	opts.AllowHosts = allow
	opts.Resolve = n.resolve
	opts.Dial = n.dial
	if opts.UserAgent == "" {
		opts.UserAgent = "agent-test/1"
	}
	return New(opts)
}

// fetchURL calls the tool the way the loop does.
func fetchURL(t *testing.T, tool tools.Tool, u string) tools.Result {
	t.Helper()
	res, err := tools.NewRegistry(tool).Call(t.Context(), Name, map[string]string{"url": u})
	if err != nil {
		t.Fatalf("web_fetch %s: Go error %v, want a Result", u, err)
	}
	return res
}

// serve starts a server on 127.0.0.1 and returns its port.
func serve(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	u, _ := url.Parse(srv.URL)
	return u.Port()
}

func meta(r tools.Result, name string) string {
	for _, a := range r.Metadata {
		if a.Name == name {
			return a.Value
		}
	}
	return ""
}
