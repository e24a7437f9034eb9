// SPDX-License-Identifier: Apache-2.0

package robotsc_test

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	robotsc "github.com/robotsc/robotsc/go"
)

// Every verdict row, from the text and from the blob reloaded, through
// every entry point that gives a verdict.
func TestConformanceVectors(t *testing.T) {
	rows := conformanceRows(t)
	if len(rows) < 271 {
		t.Fatalf("only %d conformance rows", len(rows))
	}
	for _, c := range rows {
		r, err := robotsc.ParseText(c.body, robotsc.Google)
		if err != nil {
			t.Fatalf("%s: %v", c.id, err)
		}
		again, err := robotsc.Load(r.Bytes())
		if err != nil {
			t.Fatalf("%s: reload: %v", c.id, err)
		}
		for how, x := range map[string]*robotsc.Robots{"text": r, "blob": again} {
			if got := x.Allowed(c.url, c.agent); got != c.want {
				t.Errorf("%s (%s): Allowed = %v, want %v", c.id, how, got, c.want)
			}
			if got := x.Explain(c.url, c.agent); got.Allowed != c.want {
				t.Errorf("%s (%s): Explain = %+v", c.id, how, got)
			}
			if got := x.AllowedMany([]string{"/", c.url, "/"}, c.agent); got[1] != c.want {
				t.Errorf("%s (%s): AllowedMany = %v", c.id, how, got)
			}
			s, err := x.Select(c.agent)
			if err != nil {
				t.Fatalf("%s: Select: %v", c.id, err)
			}
			if got := s.Allowed(c.url); got != c.want {
				t.Errorf("%s (%s): Selection.Allowed = %v", c.id, how, got)
			}
			s.Close()
		}
		r.Close()
		again.Close()
	}
}

// Blobs go both ways between Go and the CLI: a blob Go compiled is checked
// by the CLI, a blob the CLI compiled is loaded by Go, with the expected
// verdicts, and the two compilers write the same bytes. Rows are grouped
// by body and agent: one CLI run checks a group's URLs.
func TestBlobInterchangeWithCLI(t *testing.T) {
	cli := cliPath(t)
	dir := t.TempDir()
	type group struct {
		body, agent string
		rows        []row
	}
	var groups []*group
	byKey := map[[2]string]*group{}
	for _, c := range conformanceRows(t) {
		// Arguments cannot hold NUL; the CLI reads URLs one a line.
		if strings.ContainsAny(c.url, "\x00\n\r") || strings.ContainsRune(c.agent, 0) || c.url == "" {
			continue
		}
		k := [2]string{string(c.body), c.agent}
		if byKey[k] == nil {
			byKey[k] = &group{body: k[0], agent: k[1]}
			groups = append(groups, byKey[k])
		}
		byKey[k].rows = append(byKey[k].rows, c)
	}
	n := 0
	blobs := map[string][]byte{} // the CLI's blob of each body
	for i, g := range groups {
		r, err := robotsc.ParseText([]byte(g.body), robotsc.Google)
		if err != nil {
			t.Fatalf("%s: %v", g.rows[0].id, err)
		}
		cliBlob, ok := blobs[g.body]
		if !ok {
			src := filepath.Join(dir, fmt.Sprintf("r%d.txt", i))
			if err := os.WriteFile(src, []byte(g.body), 0o644); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(dir, fmt.Sprintf("cli%d.rbc", i))
			// Bytes that look binary need --text (a CLI of 1.1; 1.0 compiles
			// them without it).
			if _, err := runCLI(cli, "compile", src, "-o", out); err != nil {
				if msg, err := runCLI(cli, "compile", "--text", src, "-o", out); err != nil {
					t.Fatalf("%s: robotsc compile: %v: %s", g.rows[0].id, err, msg)
				}
			}
			if cliBlob, err = os.ReadFile(out); err != nil {
				t.Fatal(err)
			}
			blobs[g.body] = cliBlob
			if !bytes.Equal(cliBlob, r.Bytes()) {
				t.Errorf("%s: the CLI's blob (%d bytes) differs from Go's (%d)", g.rows[0].id, len(cliBlob), len(r.Bytes()))
			}
		}
		goBlob := filepath.Join(dir, fmt.Sprintf("go%d.rbc", i))
		if err := os.WriteFile(goBlob, r.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		var urls []string
		for _, c := range g.rows {
			urls = append(urls, c.url)
		}
		got, ok := cliCheck(t, cli, goBlob, g.agent, false, urls)
		fromCLI, err := robotsc.Load(cliBlob)
		if err != nil {
			t.Fatalf("%s: Load(CLI blob): %v", g.rows[0].id, err)
		}
		for k, c := range g.rows {
			if !ok || got[k] != c.want {
				t.Errorf("%s: the CLI on Go's blob: %v (ok %v), want %v", c.id, got, ok, c.want)
			}
			if v := fromCLI.Allowed(c.url, c.agent); v != c.want {
				t.Errorf("%s: Go on the CLI's blob: %v, want %v", c.id, v, c.want)
			}
			n++
		}
		fromCLI.Close()
		r.Close()
	}
	if n < 200 {
		t.Fatalf("only %d rows exchanged", n)
	}
	t.Logf("%d rows in %d CLI checks, %d bodies compiled by both", n, len(groups), len(blobs))
}

const sample = `# a sample
User-agent: FooBot
User-agent: BarBot
Disallow: /private
Allow: /private/open
Crawl-delay: 2.5
Request-rate: 3/1m

User-agent: *
Disallow: /*.pdf$
Disallow: /tmp/

Sitemap: https://example.com/sitemap.xml
Sitemap: https://example.com/news.xml
Host: example.com
`

func mustParse(t testing.TB, body string) *robotsc.Robots {
	t.Helper()
	r, err := robotsc.Parse([]byte(body))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestDamagedBlobsRefused(t *testing.T) {
	r := mustParse(t, sample)
	blob := r.Bytes()
	r.Close()
	if len(blob) < 64 {
		t.Fatalf("blob of %d bytes", len(blob))
	}
	// Every truncation: a prefix of a blob is a blob, and a broken one.
	for n := 0; n < len(blob); n++ {
		_, err := robotsc.Load(blob[:n])
		want := robotsc.ErrBlob
		if n == 0 {
			want = robotsc.ErrNotBlob
		}
		if !errors.Is(err, want) {
			t.Fatalf("Load of %d of %d bytes: %v, want %v", n, len(blob), err, want)
		}
		if n > 0 {
			if _, err := robotsc.Parse(blob[:n]); !errors.Is(err, robotsc.ErrBlob) {
				t.Fatalf("Parse of %d of %d bytes: %v (a damaged blob must not be read as text)", n, len(blob), err)
			}
		}
	}
	// Every single bit flipped, and random multi-byte damage.
	b := make([]byte, len(blob))
	for i := 0; i < len(blob)*8; i++ {
		copy(b, blob)
		b[i/8] ^= 1 << (i % 8)
		if _, err := robotsc.Load(b); !errors.Is(err, robotsc.ErrBlob) {
			t.Fatalf("bit %d flipped: Load gave %v", i, err)
		}
		if _, err := robotsc.Parse(b); !errors.Is(err, robotsc.ErrBlob) {
			t.Fatalf("bit %d flipped: Parse gave %v", i, err)
		}
	}
	rng := rand.New(rand.NewSource(38))
	for i := 0; i < 2000; i++ {
		copy(b, blob)
		for k := 0; k < 1+rng.Intn(4); k++ {
			b[8+rng.Intn(len(b)-8)] ^= byte(1 + rng.Intn(255))
		}
		if _, err := robotsc.Load(b); !errors.Is(err, robotsc.ErrBlob) {
			t.Fatalf("damage %d: Load gave %v", i, err)
		}
	}
	// Trailing bytes too.
	if _, err := robotsc.Load(append(append([]byte{}, blob...), 0)); !errors.Is(err, robotsc.ErrBlob) {
		t.Fatalf("a blob with a byte more: %v", err)
	}
	// The error says where and why.
	copy(b, blob)
	b[len(b)-1] ^= 0x40
	_, err := robotsc.Load(b)
	var e *robotsc.Error
	if !errors.As(err, &e) || e.Status == 0 || e.What == "" || !strings.Contains(err.Error(), "load") {
		t.Fatalf("error detail: %#v (%v)", e, err)
	}
}

func TestInputKinds(t *testing.T) {
	if _, err := robotsc.Load([]byte(sample)); !errors.Is(err, robotsc.ErrNotBlob) {
		t.Errorf("Load(text): %v", err)
	}
	var gz bytes.Buffer
	w := gzip.NewWriter(&gz)
	w.Write([]byte(sample))
	w.Close()
	if _, err := robotsc.Parse(gz.Bytes()); !errors.Is(err, robotsc.ErrBinary) {
		t.Errorf("Parse(gzip): %v", err)
	}
	r, err := robotsc.ParseText(gz.Bytes(), robotsc.Google)
	if err != nil {
		t.Fatalf("ParseText(gzip): %v", err)
	}
	// Google reads the bytes: no rule, everything allowed.
	if !r.Allowed("https://example.com/private", "FooBot") {
		t.Error("gzip bytes read as text disallow")
	}
	r.Close()
	// The empty body allows everything.
	r = mustParse(t, "")
	if !r.Allowed("/x", "FooBot") {
		t.Error("empty robots.txt disallows")
	}
	r.Close()
	// A blob given to Parse is loaded, not compiled.
	r = mustParse(t, sample)
	p, err := robotsc.Parse(r.Bytes())
	if err != nil || p.Allowed("https://example.com/private", "FooBot") {
		t.Errorf("Parse(blob): %v", err)
	}
	rfc, err := robotsc.ParseText([]byte(sample), robotsc.RFC)
	if err != nil || rfc.Profile() != robotsc.RFC || r.Profile() != robotsc.Google {
		t.Errorf("profiles: %v %v %v", err, rfc.Profile(), r.Profile())
	}
}

func TestAPI(t *testing.T) {
	r := mustParse(t, sample)
	defer r.Close()
	checks := []struct {
		url, agent string
		want       bool
	}{
		{"https://example.com/private/x", "FooBot", false},
		{"https://example.com/private/open/x", "FooBot", true},
		{"https://example.com/private/x", "barbot", false},
		{"https://example.com/a.pdf", "FooBot", true},
		{"https://example.com/a.pdf", "OtherBot", false},
		{"https://example.com/a.pdf?x", "OtherBot", true},
		{"/tmp/x", "OtherBot", false},
		{"/private", "FooBot/1.0", true}, // never cut: not FooBot
	}
	for _, c := range checks {
		if got := r.Allowed(c.url, c.agent); got != c.want {
			t.Errorf("Allowed(%q, %q) = %v", c.url, c.agent, got)
		}
	}
	if r.AllowedUserAgent("/private", "FooBot/1.0") || r.AllowedUserAgent("/private", "Mozilla/5.0 (compatible; FooBot/2.1; +http://x.example/)") {
		t.Error("AllowedUserAgent does not take the product token")
	}
	if tok, ok := robotsc.AgentToken("Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"); !ok || tok != "Googlebot" {
		t.Errorf("AgentToken: %q %v", tok, ok)
	}
	if !robotsc.IsProductToken("Foo_bot-x") || robotsc.IsProductToken("Foo/1") || robotsc.IsProductToken("") {
		t.Error("IsProductToken")
	}
	e := r.Explain("https://example.com/private/x", "FooBot")
	if e.Allowed || !e.Decided || e.Line != 4 || e.Rule != "disallow" || e.Pattern != "/private" {
		t.Errorf("Explain: %+v", e)
	}
	if e := r.Explain("/nothing", "FooBot"); !e.Allowed || e.Decided || e.Line != 0 || e.Rule != "" {
		t.Errorf("Explain (no rule): %+v", e)
	}
	if d, ok := r.CrawlDelay("FooBot"); !ok || d != 2500*time.Millisecond {
		t.Errorf("CrawlDelay: %v %v", d, ok)
	}
	if _, ok := r.CrawlDelay("OtherBot"); ok {
		t.Error("CrawlDelay for the '*' group")
	}
	if n, p, ok := r.RequestRate("BarBot"); !ok || n != 3 || p != time.Minute {
		t.Errorf("RequestRate: %v %v %v", n, p, ok)
	}
	if s := r.Sitemaps(); len(s) != 2 || s[0] != "https://example.com/sitemap.xml" || s[1] != "https://example.com/news.xml" {
		t.Errorf("Sitemaps: %q", s)
	}
	found := false
	for _, d := range r.Directives() {
		if strings.EqualFold(d.Key, "host") && d.Value == "example.com" {
			found = true
		}
	}
	if !found {
		t.Errorf("Directives: %+v", r.Directives())
	}
	s, err := r.Select("OtherBot", "FooBot")
	if err != nil {
		t.Fatal(err)
	}
	// Both groups apply (spec F.7): FooBot's rules and '*''s are merged.
	if s.Allowed("/private/x") || !s.Named() || s.Agent() != "foobot" {
		t.Errorf("Select(OtherBot, FooBot): %v %v %q", s.Allowed("/private/x"), s.Named(), s.Agent())
	}
	s.Close()
	if s.Allowed("/") {
		t.Error("a closed Selection allows")
	}
	if _, err := r.Select(); !errors.Is(err, robotsc.ErrArg) {
		t.Errorf("Select(): %v", err)
	}
	all := mustParse(t, "User-agent: *\nDisallow: /\n")
	if s, _ := all.Select("x"); s.Uniform() != 0 || s.Agent() != "*" {
		t.Errorf("Uniform of disallow-all: %d %q", s.Uniform(), s.Agent())
	}
	all.Close()
	if robotsc.Version() == "" {
		t.Error("Version")
	}
}

func TestClose(t *testing.T) {
	r := mustParse(t, "User-agent: *\nAllow: /\n")
	s, _ := r.Select("a")
	r.Close()
	r.Close()
	if r.Allowed("/", "a") || s.Allowed("/") || r.Bytes() != nil || r.Sitemaps() != nil {
		t.Error("a closed Robots allows, or gives bytes")
	}
	if got := r.AllowedMany([]string{"/"}, "a"); got[0] {
		t.Error("AllowedMany after Close allows")
	}
	if _, err := r.Select("a"); !errors.Is(err, robotsc.ErrClosed) {
		t.Errorf("Select after Close: %v", err)
	}
}

func TestNoAllocationPerCheck(t *testing.T) {
	r := mustParse(t, sample)
	defer r.Close()
	url := strings.Repeat("/private/open", 3) + "?q=1"
	if n := testing.AllocsPerRun(200, func() { r.Allowed(url, "FooBot") }); n != 0 {
		t.Errorf("Allowed allocates %v times", n)
	}
	s, _ := r.Select("FooBot")
	if n := testing.AllocsPerRun(200, func() { s.Allowed(url) }); n != 0 {
		t.Errorf("Selection.Allowed allocates %v times", n)
	}
	urls := []string{url, "/a", "/private/x"}
	out := make([]bool, len(urls))
	if !raceEnabled {
		if n := testing.AllocsPerRun(200, func() { r.AllowedManyTo(out, urls, "FooBot") }); n != 0 {
			t.Errorf("AllowedManyTo allocates %v times", n)
		}
	}
}

// Many agents (more than the cache holds) and many goroutines on one
// Robots: every verdict equals the one computed alone first.
func TestGoroutinesShareOneRobots(t *testing.T) {
	r := mustParse(t, sample)
	defer r.Close()
	agents := []string{"FooBot", "BarBot", "OtherBot", "FooBot/1.0", ""}
	for i := 0; i < 100; i++ {
		agents = append(agents, fmt.Sprintf("bot%c", 'a'+i%26)+strings.Repeat("x", i/26))
	}
	paths := []string{"/private", "/private/open/1", "/a.pdf", "/a.pdf?q", "/tmp/", "/", "/x/y"}
	type key struct{ a, p string }
	want := map[key]bool{}
	for _, a := range agents {
		s, err := r.Select(a)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range paths {
			want[key{a, p}] = s.Allowed(p)
		}
		s.Close()
	}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rng := rand.New(rand.NewSource(int64(g)))
			out := make([]bool, len(paths))
			for i := 0; i < 3000; i++ {
				a := agents[rng.Intn(len(agents))]
				p := paths[rng.Intn(len(paths))]
				if r.Allowed(p, a) != want[key{a, p}] || r.Explain(p, a).Allowed != want[key{a, p}] {
					errs <- fmt.Sprintf("goroutine %d: %q %q", g, a, p)
					return
				}
				if i%50 == 0 {
					r.AllowedManyTo(out, paths, a)
					for k, p := range paths {
						if out[k] != want[key{a, p}] {
							errs <- fmt.Sprintf("goroutine %d: many %q %q", g, a, p)
							return
						}
					}
				}
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

// Empty URLs and agents cross as empty spans (no null pointer arithmetic).
func TestEmptyStrings(t *testing.T) {
	r := mustParse(t, "User-agent: *\nDisallow: /\n\nUser-agent: a\nAllow: /\n")
	defer r.Close()
	if r.Allowed("", "") || r.Allowed("", "x") || !r.Allowed("", "a") {
		t.Error("empty URL: its path is /")
	}
	if got := r.AllowedMany([]string{"", ""}, "a"); !got[0] || !got[1] {
		t.Errorf("AllowedMany of empty URLs: %v", got)
	}
	if got := r.AllowedMany(nil, "a"); len(got) != 0 {
		t.Errorf("AllowedMany(nil): %v", got)
	}
	if s, err := r.Select("", ""); err != nil || s.Allowed("/") {
		t.Errorf("Select of empty names: %v", err)
	}
}

// A batch longer than the fastcall build's chunk, with its verdicts mixed.
func TestAllowedManyLong(t *testing.T) {
	r := mustParse(t, "User-agent: *\nDisallow: /*7$\n")
	defer r.Close()
	urls := make([]string, 2000)
	for i := range urls {
		urls[i] = fmt.Sprintf("https://example.com/p%d", i)
	}
	got := r.AllowedMany(urls, "x")
	for i, u := range urls {
		if want := i%10 != 7; got[i] != want || r.Allowed(u, "x") != want {
			t.Fatalf("%s: many %v, want %v", u, got[i], want)
		}
	}
}

// The helper rows the binding has a function for: IsValidUserAgentToObey
// (IsProductToken).
func TestConformanceHelpers(t *testing.T) {
	n := 0
	for _, h := range helperRows(t) {
		if h.fn != "IsValidUserAgentToObey" {
			continue
		}
		if got := robotsc.IsProductToken(h.input); got != (h.want == "1") {
			t.Errorf("%s: IsProductToken(%q) = %v", h.id, h.input, got)
		}
		n++
	}
	if n < 10 {
		t.Fatalf("only %d IsValidUserAgentToObey rows", n)
	}
}
