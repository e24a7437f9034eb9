// SPDX-License-Identifier: Apache-2.0

// Package robotsc gives Go programs Google's robots.txt verdicts from the
// robotsc C library (RFC 9309 as Google's own matcher reads it): a
// robots.txt is compiled once into a verified blob (in C), then a check
// runs the blob's DFA in Go (dfa.go: no cgo call), or, for the selections
// without one and the rfc profile, is one call into C; neither allocates
// or copies the URL.
//
//	r, err := robotsc.Parse(body)
//	if err != nil { ... }
//	defer r.Close()
//	ok := r.Allowed("https://example.com/private/x", "Googlebot")
//
// A *Robots is safe for use by any number of goroutines at once; Close it
// (a finalizer frees it too) only when no other goroutine uses it. The
// compiled form, Bytes, is the blob the robotsc CLI, store, Python and
// JavaScript bindings read and write: Load takes one back, and refuses a
// damaged one (errors.Is(err, ErrBlob)) rather than read it as text.
//
// Package robotstxt beside this one has the API of
// github.com/temoto/robotstxt over the same library.
package robotsc

// #include "rscgo.h"
import "C"

import (
	"runtime"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Profile says which reading of robots.txt a blob was compiled with.
type Profile int

const (
	Google Profile = 0 // Google's matcher (the default)
	RFC    Profile = 1 // RFC 9309 where it decides (docs/SEMANTICS.md, "The rfc profile")
)

// Robots is a verified compiled robots.txt and the selections of the
// agents it was asked about.
type Robots struct {
	prog unsafe.Pointer // C memory: the rsc_program (nil once closed)
	blob unsafe.Pointer // C memory: the blob it points into
	size int

	last atomic.Pointer[selection] // the agent checked last
	mu   sync.Mutex
	sels map[selKey]*selection // at most maxCached
}

type selKey struct {
	name string
	ua   bool // name is a User-Agent header (AllowedUserAgent)
}

// selection is an rsc_selection in C memory, owned by a Robots (cached)
// or by a Selection.
type selection struct {
	key selKey
	sel unsafe.Pointer
	d   *dfa // the blob's DFA, run in Go (dfa.go); nil: C answers
}

// Agents cached per Robots; checks for more agents than this select at
// every call (still one crossing into C).
const maxCached = 64

// Parse reads body the way the robotsc CLI reads a SOURCE: bytes that begin
// with the blob magic are a blob (Load; a damaged one is an ErrBlob, never
// a robots.txt that allows everything), bytes that look binary are refused
// (ErrBinary; ParseText reads them), anything else is a robots.txt,
// compiled in the google profile.
func Parse(body []byte) (*Robots, error) {
	return parse(body, Google, false)
}

// ParseText compiles body as a robots.txt whatever it looks like, in the
// given profile (Google's crawlers read any bytes so); bytes that begin
// with the blob magic are still a blob.
func ParseText(body []byte, p Profile) (*Robots, error) {
	return parse(body, p, true)
}

func parse(body []byte, p Profile, text bool) (*Robots, error) {
	ptr, n := bytesArg(body)
	switch kind := C.rsc_classify(unsafe.Pointer(ptr), n); kind {
	case C.RSC_INPUT_BLOB:
		return load("parse", body)
	case C.RSC_INPUT_DAMAGED:
		return nil, &Error{Op: "parse", Err: ErrBlob, What: C.GoString(C.rsc_input_kind_what(C.int(kind)))}
	case C.RSC_INPUT_BINARY:
		if !text {
			return nil, &Error{Op: "parse", Err: ErrBinary, What: C.GoString(C.rsc_input_kind_what(C.int(kind)))}
		}
	}
	var blob C.rsc_blob
	st := C.rscgo_compile(ptr, n, C.int(p), &blob)
	runtime.KeepAlive(body)
	if st != C.RSC_OK {
		return nil, statusErr("parse", st)
	}
	// The compiled blob is already in C memory (malloc): the program points
	// into it, no copy.
	r, err := fromC(unsafe.Pointer(blob.data), int(blob.size), "parse")
	if err != nil {
		C.rsc_blob_free(&blob, nil)
	}
	return r, err
}

// Load verifies a blob (from Bytes, the CLI's `robotsc compile`, a store,
// the Python or JavaScript binding) and returns it ready to check URLs.
// Bytes that are not a blob give ErrNotBlob; a blob that fails any rule of
// the format gives ErrBlob with the C status, offset and reason. blob is
// copied: the caller may reuse it.
func Load(blob []byte) (*Robots, error) {
	ptr, n := bytesArg(blob)
	switch kind := C.rsc_classify(unsafe.Pointer(ptr), n); kind {
	case C.RSC_INPUT_BLOB:
		return load("load", blob)
	case C.RSC_INPUT_DAMAGED:
		return nil, &Error{Op: "load", Err: ErrBlob, What: C.GoString(C.rsc_input_kind_what(C.int(kind)))}
	default:
		return nil, &Error{Op: "load", Err: ErrNotBlob, What: C.GoString(C.rsc_input_kind_what(C.int(kind)))}
	}
}

func load(op string, blob []byte) (*Robots, error) {
	c := C.CBytes(blob)
	r, err := fromC(c, len(blob), op)
	if err != nil {
		C.free(c)
	}
	return r, err
}

// fromC verifies size bytes of C memory at blob (allocated with malloc;
// the Robots frees it) and wraps them.
func fromC(blob unsafe.Pointer, size int, op string) (*Robots, error) {
	prog := C.calloc(1, C.sizeof_rsc_program)
	if prog == nil {
		return nil, &Error{Op: op, Err: ErrNoMem}
	}
	var lerr C.rsc_load_error
	st := C.rscgo_load(C.uintptr_t(uintptr(prog)), C.uintptr_t(uintptr(blob)), C.size_t(size), &lerr)
	if st != C.RSC_OK {
		C.free(prog)
		e := &Error{Op: op, Err: ErrBlob, Status: Status(st), Offset: int(lerr.offset)}
		if lerr.what != nil {
			e.What = C.GoString(lerr.what)
		}
		return nil, e
	}
	r := &Robots{prog: prog, blob: blob, size: size}
	// A safety net for a Robots dropped without Close.
	runtime.SetFinalizer(r, (*Robots).Close)
	return r, nil
}

// Close frees the C memory. Call it when no other goroutine uses r; after
// it every check answers false (disallowed: fail closed) and Bytes nil.
// Close is idempotent.
func (r *Robots) Close() error {
	if r.prog == nil {
		return nil
	}
	runtime.SetFinalizer(r, nil)
	r.mu.Lock()
	for _, s := range r.sels {
		C.free(s.sel)
	}
	r.sels = nil
	r.last.Store(nil)
	r.mu.Unlock()
	C.free(r.prog)
	C.free(r.blob)
	r.prog, r.blob, r.size = nil, nil, 0
	return nil
}

func (r *Robots) progArg() C.uintptr_t { return C.uintptr_t(uintptr(r.prog)) }

// selectKey returns the cached selection for key, or nil when the cache is
// full (the caller then selects for its one call).
func (r *Robots) selectKey(k selKey) *selection {
	if s := r.last.Load(); s != nil && s.key == k {
		return s
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.prog == nil {
		return nil
	}
	s := r.sels[k]
	if s == nil {
		if len(r.sels) >= maxCached {
			return nil
		}
		mem := C.calloc(1, C.sizeof_rsc_selection)
		if mem == nil {
			return nil
		}
		name, n := strArg(k.name)
		end := n
		ua := C.int(0)
		if k.ua {
			ua = 1
		}
		// A failed selection (more than 32 rule sets named) stays cached:
		// it answers disallowed, as rsc_match_url does for one.
		st := C.rscgo_select(r.progArg(), name, &end, 1, ua, C.uintptr_t(uintptr(mem)))
		s = &selection{key: k, sel: mem}
		if st == C.RSC_OK {
			s.d = dfaOf(r, mem)
		}
		if r.sels == nil {
			r.sels = make(map[selKey]*selection)
		}
		r.sels[k] = s
	}
	r.last.Store(s)
	return s
}

func (r *Robots) check(url, agent string, ua bool) bool {
	if r.prog == nil {
		return false
	}
	var ok bool
	if s := r.selectKey(selKey{agent, ua}); s != nil {
		ok = verdictOf(s.d, s.sel, url, false)
	} else {
		u, un := strArg(url)
		a, an := strArg(agent)
		uaFlag := C.int(0)
		if ua {
			uaFlag = 1
		}
		ok = C.rscgo_select_match(r.progArg(), a, an, uaFlag, u, un) != 0
	}
	runtime.KeepAlive(r)
	return ok
}

// Allowed is Google's verdict for url (a whole URL, or a path starting
// with '/') for the crawler named agent, matched as Google's matcher
// matches it: case-insensitively and never cut ("FooBot/1.0" names no
// group; a name that is not a product token [A-Za-z_-]+ gets the '*'
// group). For a User-Agent header, use AllowedUserAgent. The URL is
// matched byte for byte, without a copy; the agent's selection is cached.
func (r *Robots) Allowed(url, agent string) bool { return r.check(url, agent, false) }

// AllowedUserAgent is Allowed for a whole User-Agent header (or
// Name/version): its product token is the crawler's name ("Mozilla/5.0
// (compatible; Googlebot/2.1; +http://www.google.com/bot.html)" is
// Googlebot), as the CLI's --user-agent takes it. A header without a token
// is used as given.
func (r *Robots) AllowedUserAgent(url, header string) bool { return r.check(url, header, true) }

// AllowedMany checks urls for agent and returns the verdicts in order: in
// one call into C with the URLs packed into one buffer (cgo's rules let C
// read no Go memory that holds Go pointers, as a []string does) for 8 URLs
// or more, or when the selection does not run in Go (Selection.RunsInGo);
// else in Go.
func (r *Robots) AllowedMany(urls []string, agent string) []bool {
	out := make([]bool, len(urls))
	r.AllowedManyTo(out, urls, agent)
	return out
}

// AllowedManyTo is AllowedMany writing into out[:len(urls)] (which must be
// that long): no allocation once its scratch buffers are warm.
func (r *Robots) AllowedManyTo(out []bool, urls []string, agent string) {
	out = out[:len(urls)]
	if r.prog == nil {
		for i := range out {
			out[i] = false
		}
		return
	}
	s := r.selectKey(selKey{agent, false})
	if s == nil {
		for i, u := range urls {
			out[i] = r.check(u, agent, false)
		}
		return
	}
	verdictsOf(s.d, s.sel, out, urls)
	runtime.KeepAlive(r) // the DFA's rows point into r's blob
}

// scratch: packed URLs and their ends, pooled between batch calls.
type scratch struct {
	buf  []byte
	ends []C.size_t
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// matchManyPacked is the batch through cgo (call_std.go's matchMany).
func matchManyPacked(sel unsafe.Pointer, out []bool, urls []string) {
	if len(urls) == 0 {
		return
	}
	sc := scratchPool.Get().(*scratch)
	total := 0
	for _, u := range urls {
		total += len(u)
	}
	if cap(sc.buf) < total {
		sc.buf = make([]byte, 0, total+total/4)
	}
	if cap(sc.ends) < len(urls) {
		sc.ends = make([]C.size_t, 0, len(urls)+len(urls)/4)
	}
	buf, ends := sc.buf[:total], sc.ends[:len(urls)]
	k := 0
	for i, u := range urls {
		k += copy(buf[k:], u)
		ends[i] = C.size_t(k)
	}
	b, _ := bytesArg(buf)
	// Go's bool is one byte, 0 or 1: C writes the verdicts straight in.
	C.rscgo_match_many(C.uintptr_t(uintptr(sel)), b, &ends[0], C.size_t(len(urls)),
		(*C.uchar)(unsafe.Pointer(&out[0])))
	sc.buf, sc.ends = buf, ends
	scratchPool.Put(sc)
}

// Explanation says which rule decided a verdict.
type Explanation struct {
	Allowed  bool
	Decided  bool   // a rule decided (else no rule applied: allowed)
	Line     int    // the deciding rule's line in the robots.txt, 0 when none
	Rule     string // "allow", "disallow", or "" when no rule decided
	Pattern  string // the rule's (escaped) pattern
	Priority int    // the rule's priority (its length, Google's ordering)
}

// Explain is Allowed with the rule that decided.
func (r *Robots) Explain(url, agent string) Explanation {
	if r.prog == nil {
		return Explanation{}
	}
	var tmp *Selection
	s := r.selectKey(selKey{agent, false})
	var sel unsafe.Pointer
	if s != nil {
		sel = s.sel
	} else {
		var err error
		if tmp, err = r.Select(agent); err != nil {
			return Explanation{}
		}
		defer tmp.Close()
		sel = tmp.sel
	}
	return explain(sel, url, r)
}

func explain(sel unsafe.Pointer, url string, keep any) Explanation {
	var m C.rsc_match
	u, un := strArg(url)
	C.rscgo_explain(C.uintptr_t(uintptr(sel)), u, un, &m)
	e := Explanation{Allowed: m.allowed != 0, Decided: m.decided != 0}
	if e.Decided {
		e.Line = int(m.line)
		e.Rule = "disallow"
		if m.rule_allow != 0 {
			e.Rule = "allow"
		}
		if m.pattern_len > 0 {
			e.Pattern = C.GoStringN(m.pattern, C.int(m.pattern_len))
		}
		e.Priority = int(m.priority)
	}
	runtime.KeepAlive(keep)
	return e
}

// CrawlDelay is the crawl-delay of the groups that apply to agent (the
// global groups when none names it), and whether there is a valid one.
func (r *Robots) CrawlDelay(agent string) (time.Duration, bool) {
	if r.prog == nil {
		return 0, false
	}
	s := r.selectKey(selKey{agent, false})
	if s == nil {
		return 0, false
	}
	d, ok := crawlDelay(s.sel)
	runtime.KeepAlive(r)
	return d, ok
}

func crawlDelay(sel unsafe.Pointer) (time.Duration, bool) {
	var secs C.double
	if C.rscgo_crawl_delay(C.uintptr_t(uintptr(sel)), &secs) != 1 {
		return 0, false
	}
	return secondsToDuration(float64(secs)), true
}

func secondsToDuration(s float64) time.Duration {
	const max = float64(1<<63-1) / float64(time.Second)
	if s >= max {
		return time.Duration(1<<63 - 1)
	}
	return time.Duration(s * float64(time.Second))
}

// RequestRate is the request-rate of the groups that apply to agent:
// requests per period.
func (r *Robots) RequestRate(agent string) (requests int, period time.Duration, ok bool) {
	if r.prog == nil {
		return 0, 0, false
	}
	s := r.selectKey(selKey{agent, false})
	if s == nil {
		return 0, 0, false
	}
	var n C.uint32_t
	var secs C.double
	ok = C.rscgo_request_rate(C.uintptr_t(uintptr(s.sel)), &n, &secs) == 1
	runtime.KeepAlive(r)
	if !ok {
		return 0, 0, false
	}
	return int(n), secondsToDuration(float64(secs)), true
}

// Sitemaps lists the file's sitemap URLs in file order.
func (r *Robots) Sitemaps() []string {
	if r.prog == nil {
		return nil
	}
	n := int(C.rscgo_sitemap_count(r.progArg()))
	out := make([]string, 0, n)
	for i := 0; i < n; i++ {
		var line C.uint32_t
		var u C.rsc_bytes
		if C.rscgo_sitemap_get(r.progArg(), C.size_t(i), &line, &u) != 0 {
			out = append(out, goBytes(u))
		}
	}
	runtime.KeepAlive(r)
	return out
}

// Directive is a line with a key that is not user-agent, allow, disallow
// or sitemap (crawl-delay, host, clean-param ...), in file order.
type Directive struct{ Key, Value string }

// Directives lists the file's other directives.
func (r *Robots) Directives() []Directive {
	if r.prog == nil {
		return nil
	}
	n := int(C.rscgo_directive_count(r.progArg()))
	out := make([]Directive, 0, n)
	for i := 0; i < n; i++ {
		var k, v C.rsc_bytes
		if C.rscgo_directive_get(r.progArg(), C.size_t(i), &k, &v) != 0 {
			out = append(out, Directive{goBytes(k), goBytes(v)})
		}
	}
	runtime.KeepAlive(r)
	return out
}

// Bytes returns a copy of the verified blob: save it, store it, Load it
// here or in any other robotsc binding. Nil after Close.
func (r *Robots) Bytes() []byte {
	if r.prog == nil {
		return nil
	}
	b := C.GoBytes(r.blob, C.int(r.size))
	runtime.KeepAlive(r)
	return b
}

// Profile is the profile the blob was compiled with.
func (r *Robots) Profile() Profile {
	if r.prog == nil {
		return Google
	}
	p := Profile(C.rscgo_profile(r.progArg()))
	runtime.KeepAlive(r)
	return p
}

// IsProductToken says whether name can be named by a user-agent line
// (Google's IsValidUserAgentToObey: non-empty, only [A-Za-z_-]). A name
// that is not one gets the '*' group.
func IsProductToken(name string) bool {
	p, n := strArg(name)
	return C.rsc_agent_is_token(C.rscgo_nz(p, n), n) != 0
}

// AgentToken is the product token of a User-Agent header (or
// Name/version), the name AllowedUserAgent checks; ok is false when it has
// none.
func AgentToken(header string) (token string, ok bool) {
	p, n := strArg(header)
	var tok C.rsc_bytes
	var changed C.int
	if C.rsc_agent_token(C.rscgo_nz(p, n), n, &tok, &changed) != C.RSC_OK {
		return "", false
	}
	// tok points into header: the same bytes, as a substring (no copy).
	off := uintptr(unsafe.Pointer(tok.ptr)) - uintptr(unsafe.Pointer(p))
	return header[off : off+uintptr(tok.len)], true
}

// Version is the version of the C library linked ("1.0.0").
func Version() string { return C.GoString(C.rsc_version()) }
