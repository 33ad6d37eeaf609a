// Package redisproxy is a TCP proxy in front of a Redis server for fault
// tests. It forwards every byte both ways, except on the requests a Rule
// picks: it lets Redis run such a request, withholds the reply, and cuts the
// connection, as a network failure after the server did the work would. The
// client sees its connection drop and cannot tell whether the command ran.
package redisproxy

import (
	"bytes"
	"maps"
	"math/rand/v2"
	"net"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Rule decides, for each request a client writes (one command, or the
// commands of a pipeline written at once), whether its reply is lost. names
// are the request's command names in upper case (for example
// ["EVALSHA"] or ["MULTI", "XACK", "XDEL", "EXEC"]).
type Rule func(names []string) bool

// FirstOf is a Rule that drops the reply of the first request holding one
// of the commands named, and of no other request.
func FirstOf(commands ...string) Rule {
	var mu sync.Mutex
	done := false
	return func(names []string) bool {
		mu.Lock()
		defer mu.Unlock()
		if done || !slices.ContainsFunc(names, func(n string) bool { return slices.Contains(commands, n) }) {
			return false
		}
		done = true
		return true
	}
}

// replyWait bounds how long a doomed request waits for Redis's reply before
// its connection is cut anyway: longer than any blocking read of the tests.
const replyWait = 5 * time.Second

// Proxy is a running proxy. Its methods are safe for concurrent use.
type Proxy struct {
	target string
	rule   Rule
	l      net.Listener

	mu      sync.Mutex
	dropped map[string]int // command names of the requests whose reply was lost → count
	conns   map[net.Conn]struct{}
	closed  bool
}

// Start listens on a free loopback port and forwards each connection to
// target, the Redis address; the proxy stops at t's cleanup. A nil rule
// drops nothing.
func Start(t testing.TB, target string, rule Rule) *Proxy {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatalf("redisproxy: %v", err)
	}
	if rule == nil {
		rule = func([]string) bool { return false }
	}
	p := &Proxy{target: target, rule: rule, l: l, dropped: map[string]int{}, conns: map[net.Conn]struct{}{}}
	go p.serve()
	t.Cleanup(p.Close)
	return p
}

// Addr is the address clients dial instead of Redis's.
func (p *Proxy) Addr() string { return p.l.Addr().String() }

// Dropped returns how many replies were lost, by the request's command
// names joined with "+".
func (p *Proxy) Dropped() map[string]int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return maps.Clone(p.dropped)
}

// DroppedTotal is the number of replies lost.
func (p *Proxy) DroppedTotal() int {
	n := 0
	for _, v := range p.Dropped() {
		n += v
	}
	return n
}

// Close stops listening and cuts every connection.
func (p *Proxy) Close() {
	_ = p.l.Close()
	p.mu.Lock()
	defer p.mu.Unlock()
	p.closed = true
	for c := range p.conns {
		_ = c.Close()
	}
}

func (p *Proxy) serve() {
	for {
		client, err := p.l.Accept()
		if err != nil {
			return
		}
		server, err := net.DialTimeout("tcp", p.target, time.Second)
		if err != nil { // Redis is down: the client sees a refused connection
			_ = client.Close()
			continue
		}
		if !p.track(client, server) {
			return
		}
		go p.pipe(client, server)
	}
}

// track records a pair of connections for Close; false when closed already.
func (p *Proxy) track(cs ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		for _, c := range cs {
			_ = c.Close()
		}
		return false
	}
	for _, c := range cs {
		p.conns[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(cs ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range cs {
		_ = c.Close()
		delete(p.conns, c)
	}
}

// pipe forwards one client connection. Replies flow back until a doomed
// request: then the next bytes from Redis (its reply) are swallowed and both
// connections are cut.
func (p *Proxy) pipe(client, server net.Conn) {
	defer p.untrack(client, server)
	var (
		mu      sync.Mutex
		muted   bool
		replied = make(chan struct{})
	)
	go func() {
		defer p.untrack(client, server)
		buf := make([]byte, 32<<10)
		for {
			n, err := server.Read(buf)
			if n > 0 {
				mu.Lock()
				m := muted
				mu.Unlock()
				if m {
					close(replied)
					return
				}
				if _, werr := client.Write(buf[:n]); werr != nil {
					return
				}
			}
			if err != nil {
				return
			}
		}
	}()
	buf := make([]byte, 64<<10)
	for {
		n, err := client.Read(buf)
		if n > 0 {
			names := commandNames(buf[:n])
			doomed := len(names) > 0 && p.rule(names)
			if doomed {
				mu.Lock()
				muted = true
				mu.Unlock()
			}
			if _, werr := server.Write(buf[:n]); werr != nil {
				return
			}
			if doomed {
				p.count(names)
				select {
				case <-replied: // Redis ran it; its reply goes nowhere
				case <-time.After(replyWait):
				}
				return
			}
		}
		if err != nil {
			return
		}
	}
}

func (p *Proxy) count(names []string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dropped[strings.Join(names, "+")]++
}

// commandNames reads the names of the RESP commands in b (arrays of bulk
// strings, as clients send them), upper-cased. A request cut short by TCP
// gives the names read so far.
func commandNames(b []byte) []string {
	var names []string
	for len(b) > 0 && b[0] == '*' {
		n, rest, ok := header(b[1:])
		if !ok {
			break
		}
		b = rest
		for i := 0; i < n; i++ {
			if len(b) == 0 || b[0] != '$' {
				return names
			}
			size, rest, ok := header(b[1:])
			if !ok || len(rest) < size+2 {
				return names
			}
			if i == 0 {
				names = append(names, strings.ToUpper(string(rest[:size])))
			}
			b = rest[size+2:]
		}
	}
	return names
}

// header reads a decimal number ended by CRLF.
func header(b []byte) (int, []byte, bool) {
	i := bytes.Index(b, []byte("\r\n"))
	if i < 0 {
		return 0, nil, false
	}
	n, err := strconv.Atoi(string(b[:i]))
	if err != nil || n < 0 {
		return 0, nil, false
	}
	return n, b[i+2:], true
}

// Rate is a Rule that drops the reply of each request with probability
// percent/100, drawn from a generator seeded with seed, so that a run's
// faults can be told by its seed (the order in which the requests of
// concurrent clients reach the proxy still varies).
func Rate(seed uint64, percent float64) Rule {
	var mu sync.Mutex
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	return func([]string) bool {
		mu.Lock()
		defer mu.Unlock()
		return rng.Float64()*100 < percent
	}
}
