package main

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentcli/agent/agent/config"
	"github.com/agentcli/agent/agent/serve"
	"github.com/agentcli/agent/tools/mcptool"
)

// bearer adds a token to every request.
type bearer struct{ token string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestServeLoad runs 64 MCP clients against agent serve's HTTP front on
// 127.0.0.1 for 20 seconds, mixing file creates, reads and listings
// through tools/call: no call may fail, and every create that succeeded
// must be on disk afterwards, each with its backup record. It logs the
// latency percentiles.
func TestServeLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("load test: 20 seconds; skipped under -short")
	}
	t.Setenv("XDG_CONFIG_HOME", t.TempDir()) // the backup key is made there
	const clients, length = 64, 20 * time.Second
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("alpha\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	d := &factory{io: &streams{}}
	sv, err := d.mcpServer(t.Context(), root, config.Defaults(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer sv.close()
	s, err := serve.New(serve.Options{Addr: "127.0.0.1:0", Token: "load-token", MCP: mcptool.HTTPHandler(sv.mcp)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- s.Serve(ctx) }()
	url := "http://" + s.Addr().String() + "/mcp"

	var (
		mu        sync.Mutex
		latencies []time.Duration
		byTool    = map[string][]time.Duration{}
		failures  []string
		created   atomic.Int64
	)
	deadline := time.Now().Add(length)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Go(func() {
			tr := &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: &http.Client{Transport: bearer{"load-token"}}, DisableStandaloneSSE: true}
			cs, err := mcp.NewClient(&mcp.Implementation{Name: "load"}, nil).Connect(context.Background(), tr, nil)
			if err != nil {
				mu.Lock()
				failures = append(failures, "connect: "+err.Error())
				mu.Unlock()
				return
			}
			defer cs.Close()
			var mine []time.Duration
			mineBy := map[string][]time.Duration{}
			for n := 0; time.Now().Before(deadline); n++ {
				p := &mcp.CallToolParams{Name: "read_file", Arguments: map[string]any{"file_path": "a.txt"}}
				switch n % 3 {
				case 0:
					p = &mcp.CallToolParams{Name: "write_file", Arguments: map[string]any{
						"operation_type": "create", "file_path": fmt.Sprintf("out/c%02d-%05d.txt", c, n), "content": "note\n"}}
				case 2:
					p = &mcp.CallToolParams{Name: "list_directory", Arguments: map[string]any{"depth": 1}}
				}
				start := time.Now()
				res, err := cs.CallTool(context.Background(), p)
				mine = append(mine, time.Since(start))
				mineBy[p.Name] = append(mineBy[p.Name], time.Since(start))
				if err != nil || res.IsError {
					mu.Lock()
					failures = append(failures, fmt.Sprintf("%s: %v %v", p.Name, err, res))
					mu.Unlock()
					continue
				}
				if p.Name == "write_file" {
					created.Add(1)
				}
			}
			mu.Lock()
			latencies = append(latencies, mine...)
			for k, v := range mineBy {
				byTool[k] = append(byTool[k], v...)
			}
			mu.Unlock()
		})
	}
	wg.Wait()
	stop()
	if err := <-served; err != nil {
		t.Errorf("Serve: %v", err)
	}
	if len(failures) > 0 {
		t.Fatalf("%d calls failed; first: %s", len(failures), failures[0])
	}
	files, _ := filepath.Glob(filepath.Join(root, "out", "c*-*.txt"))
	if int64(len(files)) != created.Load() || created.Load() == 0 {
		t.Fatalf("%d creates succeeded, %d files on disk", created.Load(), len(files))
	}
	t.Logf("%d clients, %s: %d calls (%.0f/s), %d files created and all on disk; latency %s",
		clients, length, len(latencies), float64(len(latencies))/length.Seconds(), len(files), percentiles(latencies))
	for name, ls := range byTool {
		t.Logf("  %s: %d calls, %s", name, len(ls), percentiles(ls))
	}
}

// percentiles says p50, p99 and max of ds.
func percentiles(ds []time.Duration) string {
	ds = slices.Clone(ds)
	slices.Sort(ds)
	at := func(p float64) time.Duration { return ds[int(float64(len(ds)-1)*p)].Round(time.Microsecond) }
	return fmt.Sprintf("p50 %s, p99 %s, max %s", at(0.5), at(0.99), ds[len(ds)-1].Round(time.Microsecond))
}
