// SPDX-License-Identifier: Apache-2.0

package robotstxt_test

import (
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	robotsc "github.com/robotsc/robotsc/go"
	"github.com/robotsc/robotsc/go/robotstxt"
)

func parse(t *testing.T, body string) *robotstxt.RobotsData {
	t.Helper()
	r, err := robotstxt.FromString(body)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// The HTTP status rules: where temoto/robotstxt and Google agree (2xx, 4xx,
// 5xx) and where the face follows Google (429 and 3xx; other statuses).
func TestStatus(t *testing.T) {
	for _, c := range []struct {
		code  int
		allow bool
	}{
		{200, true}, {204, true}, {400, true}, {401, true}, {403, true}, {404, true}, {410, true},
		{500, false}, {502, false}, {503, false}, {504, false},
		// Google, not temoto: 429 is a server error; a redirect left
		// unfollowed is a 404; anything else is a server error.
		{429, false}, {301, true}, {100, false}, {600, false},
	} {
		for _, how := range []string{"bytes", "response"} {
			var r *robotstxt.RobotsData
			var err error
			if how == "bytes" {
				r, err = robotstxt.FromStatusAndString(c.code, "User-agent: *\nDisallow: /\n")
			} else {
				r, err = robotstxt.FromResponse(&http.Response{StatusCode: c.code, Body: io.NopCloser(strings.NewReader(""))})
			}
			if err != nil {
				t.Fatalf("%d: %v", c.code, err)
			}
			want := c.allow && !(c.code >= 200 && c.code < 300 && how == "bytes")
			for _, p := range []string{"/", "/admin/", "/x?y"} {
				if got := r.TestAgent(p, "AnyBot"); got != want {
					t.Errorf("status %d (%s) %s: %v, want %v", c.code, how, p, got, want)
				}
				if got := r.FindGroup("AnyBot").Test(p); got != want {
					t.Errorf("status %d (%s) FindGroup.Test %s: %v", c.code, how, p, got)
				}
			}
		}
	}
	if r, err := robotstxt.FromResponse(nil); r != nil || err != nil {
		t.Error("FromResponse(nil)")
	}
}

type check struct {
	path, agent string
	allow       bool
}

func expect(t *testing.T, body string, checks []check) {
	t.Helper()
	r := parse(t, body)
	for _, c := range checks {
		if got := r.TestAgent(c.path, c.agent); got != c.allow {
			t.Errorf("%q: TestAgent(%q, %q) = %v, want %v", body[:min(len(body), 40)], c.path, c.agent, got, c.allow)
		}
		if got := r.FindGroup(c.agent).Test(c.path); got != c.allow {
			t.Errorf("FindGroup(%q).Test(%q) = %v", c.agent, c.path, got)
		}
	}
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

// Behaviours temoto/robotstxt has that Google's matcher shares.
func TestSharedBehaviour(t *testing.T) {
	expect(t, "User-Agent: *\r\nDisallow: /\r\n", []check{{"/", "a", false}, {"/x/y", "ZBot", false}})
	expect(t, "User-agent: *\nDisallow: /account\n", []check{
		{"/foobar", "a", true}, {"/account", "b", false}, {"/account/sub", "c", false}, {"/accounts", "c", false}})
	for _, body := range []string{"", "   \n", "# only a comment", "User-Agent: *\nAllow: /", "User-Agent: *\nDisallow: "} {
		expect(t, body, []check{{"/", "x", true}, {"/admin/", "y", true}, {"/.htaccess", "z", true}})
	}
	// Groups: consecutive user-agent lines share rules; a crawler's groups merge.
	expect(t, "user-agent: a\nuser-agent: b\ndisallow: /a\ndisallow: /b\n\nuser-agent: z\ndisallow: /z\n\nuser-agent: b\nuser-agent: c\ndisallow: /c\n", []check{
		{"/a", "a", false}, {"/c", "a", true}, {"/a", "b", false}, {"/c", "b", false}, {"/a", "c", true}, {"/c", "c", false}})
	// Wildcards and the end anchor; a pattern that starts with '*'.
	expect(t, "User-agent: *\nDisallow: /*.php$\nDisallow: */secret/*\n", []check{
		{"/index.php", "x", false}, {"/index.php?a", "x", true}, {"/a/secret/b", "x", false}, {"/secret", "x", true}})
	// The longest match wins; allow wins a tie.
	expect(t, "User-agent: *\nDisallow: /folder\nAllow: /folder/\nDisallow: /page\nAllow: /page\n", []check{
		{"/folder", "x", false}, {"/folder/a", "x", true}, {"/page", "x", true}})
	// HTML instead of a robots.txt: nothing is a rule.
	expect(t, "<!DOCTYPE html>\n<html><p>Hello</p></html>", []check{{"/", "SuperBot", true}})
	// A BOM, and invalid UTF-8, are read.
	expect(t, "\xef\xbb\xbfUser-agent: *\nDisallow: /x\n", []check{{"/x", "a", false}})
	if _, err := robotstxt.FromString("User-agent: H\xef\xbf\xbdm\xffh\nDisallow: *"); err != nil {
		t.Error(err)
	}
}

// Where the face gives Google's verdict and temoto/robotstxt does not.
func TestGoogleVerdicts(t *testing.T) {
	// A user-agent line names a crawler exactly, not by prefix.
	expect(t, "User-agent: Google\nDisallow:\n\nUser-agent: *\nDisallow: /\n", []check{
		{"/page", "Googlebot", false}, {"/page", "Google", true}})
	// A rule before any user-agent line is ignored (temoto: an error).
	if r, err := robotstxt.FromString("Disallow: /\nUser-agent: bot\nDisallow: /x\n"); err != nil || !r.TestAgent("/", "bot") {
		t.Errorf("rule before user-agent: %v", err)
	}
	// An invalid crawl-delay is ignored (temoto: an error).
	r, err := robotstxt.FromString("User-agent: bot\nCrawl-delay: soon\nDisallow: /x\n")
	if err != nil || r.FindGroup("bot").CrawlDelay != 0 || r.TestAgent("/x", "bot") {
		t.Errorf("invalid crawl-delay: %v", err)
	}
	// A pattern without '/' or '*' at its start matches nothing.
	expect(t, "User-agent: *\nDisallow: fish/\n", []check{{"/fish/", "x", true}})
	// '$' anchors only at the pattern's end.
	expect(t, "User-agent: *\nDisallow: /a$b\n", []check{{"/a$b", "x", false}, {"/a", "x", true}})
}

// Colly passes its whole User-Agent header: the product token names the group.
func TestUserAgentHeaders(t *testing.T) {
	body := "User-agent: googlebot\nDisallow: /g\n\nUser-agent: googlebot-news\nDisallow: /n\n\nUser-agent: *\nDisallow: /all\n"
	r := parse(t, body)
	for _, c := range []struct {
		agent, group string
		path         string
		allow        bool
	}{
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "googlebot", "/g", false},
		{"Googlebot/2.1", "googlebot", "/all", true},
		{"Googlebot-News", "googlebot-news", "/g", true},
		{"Googlebot-Image/1.0", "*", "/all", false},
		{"colly - https://github.com/gocolly/colly/v2", "*", "/g", true},
		{"", "*", "/all", false},
	} {
		g := r.FindGroup(c.agent)
		if g.Agent != c.group {
			t.Errorf("FindGroup(%q).Agent = %q, want %q", c.agent, g.Agent, c.group)
		}
		if g.Test(c.path) != c.allow || r.TestAgent(c.path, c.agent) != c.allow {
			t.Errorf("%q %s: want %v", c.agent, c.path, c.allow)
		}
	}
	if g := parse(t, "User-agent: a\nDisallow: /\n").FindGroup("b"); g.Agent != "" || !g.Test("/") {
		t.Errorf("no group applies: %q", g.Agent)
	}
}

func TestPathsAndURLs(t *testing.T) {
	r := parse(t, "User-agent: *\nDisallow: /c\nDisallow: /a?u=\nDisallow: //twice\n")
	for _, c := range []check{
		{"/a?u=http://b/c", "x", false}, // the query is the path's, not a URL
		{"/a?v=1", "x", true},
		{"//twice", "x", false}, // a path, not a host
		{"/c#frag", "x", false},
		{"/b#/c", "x", true},
		{"https://example.com/c/d", "x", false}, // a whole URL is read as one
		{"https://example.com/b", "x", true},
	} {
		if got := r.TestAgent(c.path, c.agent); got != c.allow {
			t.Errorf("TestAgent(%q) = %v", c.path, got)
		}
	}
}

func TestFields(t *testing.T) {
	r := parse(t, "sitemap: http://test.com/a\nuser-agent: a\ndisallow: /c\ncrawl-delay: 3.5\nhost: example.com\nuser-agent: b\nsitemap: http://test.com/b\nhost: other.example\n")
	if len(r.Sitemaps) != 2 || r.Sitemaps[0] != "http://test.com/a" || r.Sitemaps[1] != "http://test.com/b" {
		t.Errorf("Sitemaps: %q", r.Sitemaps)
	}
	if r.Host != "example.com" {
		t.Errorf("Host: %q", r.Host)
	}
	if d := r.FindGroup("a").CrawlDelay; d != 3500*time.Millisecond {
		t.Errorf("CrawlDelay: %v", d)
	}
	if d := r.FindGroup("b").CrawlDelay; d != 0 {
		t.Errorf("CrawlDelay of b: %v", d)
	}
	if r.Robots() == nil || r.Robots().Explain("/c", "a").Line != 3 {
		t.Error("Robots()")
	}
}

func TestDamagedBlobIsAnError(t *testing.T) {
	good, err := robotsc.Parse([]byte("User-agent: *\nDisallow: /\n"))
	if err != nil {
		t.Fatal(err)
	}
	b := good.Bytes()
	b[len(b)-1] ^= 1
	_, err = robotstxt.FromBytes(b)
	var pe *robotstxt.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, robotsc.ErrBlob) {
		t.Fatalf("damaged blob: %v", err)
	}
	if r, err := robotstxt.FromBytes(good.Bytes()); err != nil || r.TestAgent("/", "x") {
		t.Fatalf("a good blob: %v", err)
	}
}

func TestGoroutines(t *testing.T) {
	r := parse(t, "User-agent: a\nDisallow: /a\n\nUser-agent: *\nDisallow: /x\n")
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			for i := 0; i < 2000; i++ {
				agent := []string{"a", "b", "A/1.0", "Mozilla/5.0 (compatible; a/1)"}[(i+g)%4]
				isA := agent != "b"
				if r.TestAgent("/a", agent) == isA || r.TestAgent("/x", agent) != isA {
					t.Errorf("goroutine %d: %q", g, agent)
					return
				}
			}
		}(g)
	}
	wg.Wait()
}
