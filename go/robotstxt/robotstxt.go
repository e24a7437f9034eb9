// SPDX-License-Identifier: Apache-2.0

// Package robotstxt has the API of github.com/temoto/robotstxt (the
// robots.txt parser of Colly and most Go crawlers) with Google's verdicts,
// from the robotsc C library: a crawler switches by changing one import,
//
//	import "github.com/robotsc/robotsc/go/robotstxt"
//
// and keeps FromBytes, FromStatusAndBytes, FromString, FromResponse,
// (*RobotsData).TestAgent, FindGroup, (*Group).Test, Group.CrawlDelay,
// RobotsData.Sitemaps and Host. Where the verdicts differ from temoto's,
// these are Google's (go/robotstxt/README.md lists the differences).
//
// The agent given to TestAgent and FindGroup may be a whole User-Agent
// header, as Colly passes it: its product token is the crawler's name
// ("Mozilla/5.0 (compatible; Googlebot/2.1; ...)" is Googlebot), matched
// as Google matches it (case-insensitively, exactly: "googlebot" does not
// name Googlebot-Image). A path is matched as the path a URL gives.
package robotstxt

import (
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	robotsc "github.com/robotsc/robotsc/go"
)

// RobotsData is a parsed robots.txt.
type RobotsData struct {
	Host     string   // the first Host directive's value ("" when none)
	Sitemaps []string // the Sitemap URLs, in file order

	r   *robotsc.Robots // nil for the status answers (allow or disallow all)
	all int8            // +1 allow all, -1 disallow all, 0 the file decides

	last   atomic.Pointer[Group] // the group asked for last
	mu     sync.Mutex
	groups map[string]*Group // by the agent as asked, at most maxGroups
}

// Group is the rules that apply to one crawler.
type Group struct {
	// Agent is the user-agent token of the group that applies as the file
	// names it (lower case), "*" for the global group, "" when none applies.
	Agent      string
	CrawlDelay time.Duration // 0 when the group has none (or it is invalid)

	asked string // the agent FindGroup was given
	sel   *robotsc.Selection
	all   int8
}

const maxGroups = 64

// ParseError is the type of FromBytes' errors. Google reads every
// robots.txt without an error: only bytes that are a damaged robotsc blob
// are refused (Errs[0] is then the robotsc error).
type ParseError struct {
	Errs []error
}

func (e ParseError) Error() string {
	var b strings.Builder
	b.WriteString("Parse error(s): \n")
	for _, er := range e.Errs {
		b.WriteString(er.Error() + "\n")
	}
	return b.String()
}

// Unwrap gives the first underlying error (the face returns one), for
// errors.Is and errors.As (temoto's Unwrap() []error needs Go 1.20).
func (e ParseError) Unwrap() error {
	if len(e.Errs) == 0 {
		return nil
	}
	return e.Errs[0]
}

var (
	allowAll    = &RobotsData{all: 1}
	disallowAll = &RobotsData{all: -1}
)

// FromStatusAndBytes applies Google's rules for the HTTP status of a
// robots.txt fetch (docs/SEMANTICS.md, I): 2xx parses body; 3xx (a
// redirect not followed: the client follows 5) and 4xx other than 429
// allow everything; 429, 5xx and any other status disallow everything (a
// server error, to be retried).
func FromStatusAndBytes(statusCode int, body []byte) (*RobotsData, error) {
	switch {
	case statusCode >= 200 && statusCode < 300:
		return FromBytes(body)
	case statusCode == http.StatusTooManyRequests:
		return disallowAll, nil
	case statusCode >= 300 && statusCode < 500:
		return allowAll, nil
	default:
		return disallowAll, nil
	}
}

// FromStatusAndString is FromStatusAndBytes for a string body.
func FromStatusAndString(statusCode int, body string) (*RobotsData, error) {
	return FromStatusAndBytes(statusCode, []byte(body))
}

// FromResponse reads res's body and applies FromStatusAndBytes. A nil
// response gives nil, nil (as temoto's does).
func FromResponse(res *http.Response) (*RobotsData, error) {
	if res == nil {
		return nil, nil
	}
	buf, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, err
	}
	return FromStatusAndBytes(res.StatusCode, buf)
}

// FromBytes parses a robots.txt body as Google does: any bytes (HTML,
// binary, invalid UTF-8) are read, and lines that are not rules are
// ignored. Bytes that begin with the robotsc blob magic are a compiled
// blob: loaded, and an error (*ParseError) when damaged.
func FromBytes(body []byte) (*RobotsData, error) {
	r, err := robotsc.ParseText(body, robotsc.Google)
	if err != nil {
		return nil, &ParseError{Errs: []error{err}}
	}
	d := &RobotsData{r: r, Sitemaps: r.Sitemaps()}
	for _, dir := range r.Directives() {
		if strings.EqualFold(dir.Key, "host") {
			d.Host = unescapeHigh(dir.Value)
			break
		}
	}
	return d, nil
}

// FromString is FromBytes for a string.
func FromString(body string) (*RobotsData, error) {
	return FromBytes([]byte(body))
}

// TestAgent says whether agent may fetch path (as url.URL's EscapedPath
// gives it, with "?" and the query when there is one; a whole URL is read
// as a URL).
func (r *RobotsData) TestAgent(path, agent string) bool {
	if r.all != 0 {
		return r.all > 0
	}
	return r.FindGroup(agent).Test(path)
}

// FindGroup gives the rules that apply to agent (a name or a User-Agent
// header): those of the groups that name its product token, else the
// global ('*') groups.
func (r *RobotsData) FindGroup(agent string) *Group {
	if r.all != 0 {
		return &Group{asked: agent, all: r.all}
	}
	if g := r.last.Load(); g != nil && g.asked == agent {
		return g
	}
	r.mu.Lock()
	g := r.groups[agent]
	r.mu.Unlock()
	if g == nil {
		g = r.newGroup(agent)
		r.mu.Lock()
		if len(r.groups) < maxGroups {
			if r.groups == nil {
				r.groups = make(map[string]*Group)
			}
			r.groups[agent] = g
		}
		r.mu.Unlock()
	}
	r.last.Store(g)
	return g
}

func (r *RobotsData) newGroup(agent string) *Group {
	s, err := r.r.SelectUserAgent(agent)
	if err != nil {
		// More rule sets than one selection holds: fail closed.
		return &Group{asked: agent, all: -1}
	}
	g := &Group{asked: agent, sel: s, Agent: s.Agent()}
	var ok bool
	if g.CrawlDelay, ok = s.CrawlDelay(); !ok {
		// temoto/robotstxt also reads "crawldelay" (Google's parser
		// accepts such typos of the keys it knows; crawl-delay is not one).
		if v, found := s.GroupDirective("crawldelay"); found {
			g.CrawlDelay = seconds(v)
		}
	}
	return g
}

// seconds reads a crawl-delay value as the C library does: digits with an
// optional fraction, 0 when it is anything else.
func seconds(v string) time.Duration {
	v = strings.TrimSpace(v)
	digits := 0
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
		default:
			return 0
		}
	}
	f, err := strconv.ParseFloat(v, 64)
	if digits == 0 || err != nil || f > 1e9 {
		return 0
	}
	return time.Duration(f * float64(time.Second))
}

// unescapeHigh undoes the escaping of non-ASCII bytes (%XX, XX >= 80) in a
// directive's value as the blob keeps it, for Host ("яндекс.рф").
func unescapeHigh(v string) string {
	if !strings.Contains(v, "%") {
		return v
	}
	b := make([]byte, 0, len(v))
	for i := 0; i < len(v); i++ {
		if v[i] == '%' && i+2 < len(v) {
			if x, err := strconv.ParseUint(v[i+1:i+3], 16, 8); err == nil && x >= 0x80 {
				b = append(b, byte(x))
				i += 2
				continue
			}
		}
		b = append(b, v[i])
	}
	return string(b)
}

// Test says whether the group's crawler may fetch path.
func (g *Group) Test(path string) bool {
	if g.all != 0 {
		return g.all > 0
	}
	if strings.HasPrefix(path, "/") {
		return g.sel.AllowedPath(path)
	}
	return g.sel.Allowed(path)
}

// Close frees the C memory at once (a finalizer frees it otherwise); the
// RobotsData and its groups then disallow everything. Not in temoto's API.
func (r *RobotsData) Close() {
	if r.r != nil {
		r.r.Close()
	}
}

// Robots is the robotsc.Robots underneath (nil for a status answer), for
// the rest of its API (Explain, Bytes, AllowedMany ...).
func (r *RobotsData) Robots() *robotsc.Robots { return r.r }
