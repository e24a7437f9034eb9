// SPDX-License-Identifier: Apache-2.0

package robotsc

// The DFA run in Go (dfa.go) against the C runtime on the same selection:
// every verdict equal, for URLs (Allowed) and paths (AllowedPath), on
// random rule sets, on the corpus's lists and under fuzzing.

import (
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// compareDFA checks the Go DFA of agent's selection of r against C on each
// of urls read as a URL and as a path; it reports whether the selection
// ran in Go.
func compareDFA(t testing.TB, r *Robots, agent string, urls []string) bool {
	t.Helper()
	s, err := r.Select(agent)
	if err != nil {
		return false
	}
	defer s.Close()
	if s.d == nil {
		return false
	}
	for _, u := range urls {
		if g, c := s.d.allowedURL(u), matchOne(s.sel, u, false); g != c {
			t.Fatalf("URL %q, agent %q: Go says %v, C says %v", u, agent, g, c)
		}
		if g, c := s.d.allowedPath(u), matchOne(s.sel, u, true); g != c {
			t.Fatalf("path %q, agent %q: Go says %v, C says %v", u, agent, g, c)
		}
	}
	return true
}

// Pieces of rules and URLs that meet: words that overlap, wildcards, the
// end anchor, the bytes that end or start a path, percent escapes.
var dfaBits = []string{"/", "a", "b", "ab", "aab", "ba", "x", "*", "$", "?", ";", "#", "=",
	"%2F", "%41", "%e2%82%ac", ".pdf", "/cron/", "\x00", "\xff", "é", "//", ":", "://"}

func randomText(rng *rand.Rand, max int) string {
	var b strings.Builder
	for n := rng.Intn(max); n > 0; n-- {
		b.WriteString(dfaBits[rng.Intn(len(dfaBits))])
	}
	return b.String()
}

func randomURL(rng *rand.Rand) string {
	p := randomText(rng, 10)
	switch rng.Intn(6) {
	case 0:
		return "https://example.com" + p
	case 1:
		return "http://example.com/" + p
	case 2:
		return "//example.com" + p
	case 3:
		return "/" + p
	case 4:
		return "ftp:" + p
	}
	return p
}

func TestDFAGoEqualsCRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(36))
	inGo, files := 0, 2000
	if testing.Short() {
		files = 300
	}
	for f := 0; f < files; f++ {
		var b strings.Builder
		for g := rng.Intn(3) + 1; g > 0; g-- {
			b.WriteString([]string{"User-agent: *\n", "User-agent: FooBot\n", "user-agent: foobot\nUser-agent: barbot\n"}[rng.Intn(3)])
			for n := rng.Intn(8); n > 0; n-- {
				verb := "Disallow: "
				if rng.Intn(3) == 0 {
					verb = "Allow: "
				}
				pat := randomText(rng, 6)
				if rng.Intn(4) > 0 {
					pat = "/" + pat
				}
				b.WriteString(verb + pat + "\n")
			}
		}
		r, err := ParseText([]byte(b.String()), Google)
		if err != nil {
			t.Fatalf("compile: %v\n%s", err, b.String())
		}
		urls := make([]string, 40)
		for i := range urls {
			urls[i] = randomURL(rng)
		}
		for _, a := range []string{"FooBot", "barbot", "other"} {
			if compareDFA(t, r, a, urls) {
				inGo++
			}
		}
		r.Close()
	}
	// Most selections run a DFA; were none run in Go, this test compared nothing.
	if inGo < files {
		t.Fatalf("only %d of %d selections ran the Go DFA", inGo, 3*files)
	}
	t.Logf("%d of %d selections ran the Go DFA", inGo, 3*files)
}

// A selection that holds no rule (no group names the agent and there is no
// '*' group, or its groups hold no rule) allows every URL, in Go, in both
// profiles; C says the same.
func TestDFANoRulesInGo(t *testing.T) {
	urls := []string{"https://e.com/", "https://e.com/a?b#c", "//e.com", "ftp:x", "/robots.txt", "", "\x00/a"}
	for _, prof := range []Profile{Google, RFC} {
		for _, text := range []string{"User-agent: FooBot\nDisallow: /\n", "User-agent: *\n", "Sitemap: https://e.com/s\n", ""} {
			r, err := ParseText([]byte(text), prof)
			if err != nil {
				t.Fatal(err)
			}
			s, err := r.Select("other")
			if err != nil {
				t.Fatal(err)
			}
			if s.d == nil || !s.RunsInGo() {
				t.Fatalf("%q, profile %v: a selection without rules does not run in Go", text, prof)
			}
			for _, u := range urls {
				if !s.Allowed(u) || !s.AllowedPath(u) || !matchOne(s.sel, u, false) {
					t.Fatalf("%q, profile %v: %q not allowed", text, prof, u)
				}
			}
			s.Close()
			r.Close()
		}
	}
}

// The rfc profile's selections stay in C (its path normalisation is C's).
func TestDFARfcStaysInC(t *testing.T) {
	r, err := ParseText([]byte("User-agent: *\nDisallow: /a\n"), RFC)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s, err := r.Select("x")
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.d != nil {
		t.Fatal("an rfc selection runs in Go")
	}
	if s.Allowed("/a") || !s.Allowed("/b") {
		t.Fatal("rfc verdicts wrong")
	}
}

// Every corpus URL list: each URL, and each cut short and with bytes
// changed, Go against C for Googlebot and for an agent no file names.
func TestDFAGoEqualsCCorpus(t *testing.T) {
	dir := os.Getenv("ROBOTSC_SHARED_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	corpus := filepath.Join(dir, "corpus")
	idx, err := os.ReadFile(filepath.Join(corpus, "urls-index.tsv"))
	if err != nil {
		t.Skipf("the corpus is absent (%s): skipped", corpus)
	}
	rng := rand.New(rand.NewSource(38))
	lists, inGo := 0, 0
	for _, line := range strings.Split(string(idx), "\n") {
		f := strings.Split(line, "\t")
		if len(f) < 6 || !strings.HasPrefix(f[0], "urls/") {
			continue
		}
		rob := f[4] // the robots.txt of the crawl, else the site's
		if rob == "" {
			rob = f[5]
		}
		body, err := os.ReadFile(filepath.Join(corpus, rob))
		if err != nil {
			continue
		}
		list, err := os.ReadFile(filepath.Join(corpus, f[0]))
		if err != nil {
			continue
		}
		r, err := ParseText(body, Google)
		if err != nil {
			t.Fatalf("%s: %v", f[0], err)
		}
		var urls []string
		for _, u := range strings.Split(strings.TrimSpace(string(list)), "\n") {
			urls = append(urls, u)
			if len(u) > 0 {
				b := []byte(u[:rng.Intn(len(u))+1])
				b[rng.Intn(len(b))] = dfaBits[rng.Intn(len(dfaBits))][0]
				urls = append(urls, string(b))
			}
		}
		lists++
		if compareDFA(t, r, "Googlebot", urls) {
			inGo++
		}
		compareDFA(t, r, "robotsc-test-nobody", urls)
		r.Close()
	}
	if lists == 0 {
		t.Skipf("no URL list with its robots.txt in %s: skipped", corpus)
	}
	if inGo*10 < lists*8 {
		t.Fatalf("only %d of %d Googlebot selections ran the Go DFA", inGo, lists)
	}
	t.Logf("%d lists, %d Googlebot selections in Go", lists, inGo)
}

// go test -fuzz FuzzDFAGoEqualsC: any robots.txt, any URL.
func FuzzDFAGoEqualsC(f *testing.F) {
	f.Add([]byte("User-agent: *\nDisallow: /*a*b$\nAllow: /a\n"), "https://x.com/aab?b#c")
	f.Add([]byte("User-agent: foobot\nDisallow: /*/cron/\nDisallow: /*.pdf\n"), "/x/cron/.pdf")
	f.Add([]byte("User-agent: *\nDisallow: *?adcode=*\nDisallow: /*rssarticleshow*\n"), "//h/rssa?adcode=")
	f.Fuzz(func(t *testing.T, body []byte, url string) {
		r, err := ParseText(body, Google)
		if err != nil {
			return // a documented limit
		}
		defer r.Close()
		compareDFA(t, r, "foobot", []string{url})
		compareDFA(t, r, "Googlebot", []string{url})
	})
}
