package notestest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jackc/pgx/v5"
)

// ErrNoPostgres is returned by StartPostgres when the PostgreSQL server
// programs are not installed. Under CI (CI set) a test must fail on it,
// not skip.
var ErrNoPostgres = errors.New("PostgreSQL server programs (initdb, postgres) not found; install the postgresql package")

// Postgres is a throwaway PostgreSQL server for tests: a new cluster in a
// temporary folder, listening only on a unix socket in that folder, with
// fsync off. As root it runs as the postgres user (PostgreSQL refuses to
// run as root), the folder given to that user.
type Postgres struct {
	dir  string
	sock string
	cmd  *exec.Cmd
	n    atomic.Int64
	log  string
}

// pgBinDir finds initdb and postgres: pg_config --bindir, else the newest
// /usr/lib/postgresql/*/bin (Debian keeps them off PATH).
func pgBinDir() (string, error) {
	if out, err := exec.Command("pg_config", "--bindir").Output(); err == nil {
		dir := strings.TrimSpace(string(out))
		if _, err := os.Stat(filepath.Join(dir, "initdb")); err == nil {
			return dir, nil
		}
	}
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin")
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "initdb")); err == nil {
			return d, nil
		}
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", ErrNoPostgres
}

func version(binDir string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(binDir)))
	return n
}

// StartPostgres creates and starts a cluster. Stop it with Stop.
func StartPostgres() (*Postgres, error) {
	bin, err := pgBinDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "notes-pg-")
	if err != nil {
		return nil, err
	}
	p := &Postgres{dir: dir, sock: filepath.Join(dir, "sock"), log: filepath.Join(dir, "server.log")}
	cred, err := serverUser(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	for _, d := range []string{p.sock, filepath.Join(dir, "data")} {
		if err := os.Mkdir(d, 0o700); err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		if cred != nil {
			os.Chown(d, int(cred.Uid), int(cred.Gid))
		}
	}
	initdb := exec.Command(filepath.Join(bin, "initdb"), "-D", filepath.Join(dir, "data"), "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale", "C", "-N")
	initdb.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	if out, err := initdb.CombinedOutput(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	logf, err := os.Create(p.log)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	defer logf.Close()
	p.cmd = exec.Command(filepath.Join(bin, "postgres"), "-D", filepath.Join(dir, "data"), "-k", p.sock,
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
		"-c", "max_connections=200", "-c", "shared_buffers=64MB")
	p.cmd.Stdout, p.cmd.Stderr = logf, logf
	// The server goes when the test binary does, even killed.
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred, Pdeathsig: syscall.SIGQUIT}
	if err := p.cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	if err := p.wait(30 * time.Second); err != nil {
		p.Stop()
		return nil, err
	}
	return p, nil
}

// serverUser is the user the server runs as: nil (this one) unless this
// is root, then postgres (or nobody), who is given the folder.
func serverUser(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	for _, name := range []string{"postgres", "nobody"} {
		u, err := user.Lookup(name)
		if err != nil {
			continue
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		if err := os.Chown(dir, uid, gid); err != nil {
			return nil, err
		}
		return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
	}
	return nil, errors.New("running as root and no postgres or nobody user to run PostgreSQL as")
}

// wait waits until the server accepts connections.
func (p *Postgres) wait(limit time.Duration) error {
	end := time.Now().Add(limit)
	for {
		conn, err := pgx.Connect(context.Background(), p.URL("postgres"))
		if err == nil {
			conn.Close(context.Background())
			return nil
		}
		if time.Now().After(end) {
			log, _ := os.ReadFile(p.log)
			return fmt.Errorf("PostgreSQL did not start: %v\n%s", err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// URL is the connection string of database db on the server.
func (p *Postgres) URL(db string) string {
	return fmt.Sprintf("host=%s user=postgres dbname=%s sslmode=disable", p.sock, db)
}

// NewDatabase creates an empty database and returns its URL.
func (p *Postgres) NewDatabase() (string, error) {
	name := fmt.Sprintf("notes_%d_%d", os.Getpid(), p.n.Add(1))
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, p.URL("postgres"))
	if err != nil {
		return "", err
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE DATABASE "+name); err != nil {
		return "", err
	}
	return p.URL(name), nil
}

// Stop shuts the server down (fast) and removes its folder.
func (p *Postgres) Stop() {
	if p.cmd != nil && p.cmd.Process != nil {
		p.cmd.Process.Signal(syscall.SIGINT)
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			p.cmd.Process.Kill()
			<-done
		}
	}
	os.RemoveAll(p.dir)
}

// Shared is one server for a test package, started on first use and
// stopped by StopShared at the end of TestMain.
var shared struct {
	once sync.Once
	pg   *Postgres
	err  error
}

// SharedPostgres returns the package's server, starting it on first use.
// Without PostgreSQL installed the test skips, or fails under CI.
func SharedPostgres(t interface {
	Helper()
	Skip(...any)
	Fatal(...any)
}) *Postgres {
	t.Helper()
	shared.once.Do(func() { shared.pg, shared.err = StartPostgres() })
	switch {
	case errors.Is(shared.err, ErrNoPostgres) && os.Getenv("CI") == "":
		t.Skip(shared.err)
	case shared.err != nil:
		t.Fatal(shared.err)
	}
	return shared.pg
}

// StopShared stops the package's server if it was started.
func StopShared() {
	if shared.pg != nil {
		shared.pg.Stop()
	}
}
