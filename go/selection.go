// SPDX-License-Identifier: Apache-2.0

package robotsc

// #include "rscgo.h"
import "C"

import (
	"runtime"
	"time"
	"unsafe"
)

// Selection is the rule sets of a Robots that apply to one crawler (one or
// several names, spec F.7): select once per host, then check its URLs
// without naming the agent again. Safe for concurrent use; it keeps its
// Robots alive (but not past the Robots' Close).
type Selection struct {
	r   *Robots
	sel unsafe.Pointer // C memory: the rsc_selection
	d   *dfa           // the blob's DFA, run in Go (dfa.go); nil: C answers
	// NotTokens counts the names given that are not product tokens: Google
	// gives them the '*' group, whatever the file says about them.
	NotTokens int
}

// Select selects the rule sets for agents, each matched as given (as
// Allowed takes its agent). ErrArg for no agents or more than 64,
// ErrLimit when they name more than 32 rule sets.
func (r *Robots) Select(agents ...string) (*Selection, error) {
	return r.selectNames(agents, false)
}

// SelectUserAgent selects for the product token of a User-Agent header
// (as AllowedUserAgent).
func (r *Robots) SelectUserAgent(header string) (*Selection, error) {
	return r.selectNames([]string{header}, true)
}

func (r *Robots) selectNames(agents []string, ua bool) (*Selection, error) {
	if r.prog == nil {
		return nil, &Error{Op: "select", Err: ErrClosed}
	}
	if len(agents) == 0 || len(agents) > 64 {
		return nil, &Error{Op: "select", Err: ErrArg, What: "1 to 64 agent names"}
	}
	var buf []byte
	ends := make([]C.size_t, len(agents))
	for i, a := range agents {
		buf = append(buf, a...)
		ends[i] = C.size_t(len(buf))
	}
	mem := C.calloc(1, C.sizeof_rsc_selection)
	if mem == nil {
		return nil, &Error{Op: "select", Err: ErrNoMem}
	}
	b, _ := bytesArg(buf)
	uaFlag := C.int(0)
	if ua {
		uaFlag = 1
	}
	st := C.rscgo_select(r.progArg(), b, &ends[0], C.size_t(len(agents)), uaFlag, C.uintptr_t(uintptr(mem)))
	runtime.KeepAlive(r)
	if st != C.RSC_OK {
		C.free(mem)
		return nil, statusErr("select", st)
	}
	s := &Selection{r: r, sel: mem, NotTokens: int(C.rscgo_not_tokens(C.uintptr_t(uintptr(mem)))),
		d: dfaOf(r, mem)}
	runtime.SetFinalizer(s, (*Selection).Close)
	return s, nil
}

// Close frees the selection's C memory (a finalizer does too); after it
// Allowed answers false.
func (s *Selection) Close() {
	if s.sel != nil {
		runtime.SetFinalizer(s, nil)
		C.free(s.sel)
		s.sel = nil
	}
}

// RunsInGo says whether the selection's checks (Allowed, AllowedPath,
// AllowedManyTo) run its blob's DFA in Go, with no cgo call (dfa.go): true
// for a selection of one rule set that has a DFA, on the google profile,
// and for one that holds no rule (every URL allowed); else each check is a
// call into C. The verdicts are the same either way.
func (s *Selection) RunsInGo() bool { return s.d != nil && s.live() }

func (s *Selection) live() bool { return s.sel != nil && s.r.prog != nil }

// Allowed is the verdict for url: in Go (RunsInGo), else one call into C;
// no copy either way.
func (s *Selection) Allowed(url string) bool {
	if !s.live() {
		return false
	}
	ok := verdictOf(s.d, s.sel, url, false)
	runtime.KeepAlive(s)
	return ok
}

// AllowedPath is the verdict for a path as a URL gives it ("/a/b?q", from
// url.URL's EscapedPath and RawQuery), matched as that path: Allowed reads
// its argument as a URL, where "//x/y" is host x and a "://" in the query
// starts a URL. A '#' ends the path.
func (s *Selection) AllowedPath(path string) bool {
	if !s.live() {
		return false
	}
	ok := verdictOf(s.d, s.sel, path, true)
	runtime.KeepAlive(s)
	return ok
}

// AllowedManyTo writes the verdicts of urls into out[:len(urls)]: in one
// call into C for 8 URLs or more (C's loop is the faster), else in Go when
// the selection runs in Go (RunsInGo).
func (s *Selection) AllowedManyTo(out []bool, urls []string) {
	out = out[:len(urls)]
	if !s.live() {
		for i := range out {
			out[i] = false
		}
		return
	}
	verdictsOf(s.d, s.sel, out, urls)
	runtime.KeepAlive(s)
}

// Explain is Allowed with the deciding rule.
func (s *Selection) Explain(url string) Explanation {
	if !s.live() {
		return Explanation{}
	}
	return explain(s.sel, url, s)
}

// CrawlDelay of the selected groups.
func (s *Selection) CrawlDelay() (time.Duration, bool) {
	if !s.live() {
		return 0, false
	}
	d, ok := crawlDelay(s.sel)
	runtime.KeepAlive(s)
	return d, ok
}

// GroupDirective is the value of the first directive named key
// (case-insensitive: "crawl-delay", "clean-param") in the selected groups,
// escaped as the blob keeps it (non-ASCII bytes as %XX).
func (s *Selection) GroupDirective(key string) (string, bool) {
	if !s.live() {
		return "", false
	}
	k := C.CString(key)
	defer C.free(unsafe.Pointer(k))
	var v C.rsc_bytes
	ok := C.rscgo_group_directive(C.uintptr_t(uintptr(s.sel)), k, &v) == 1
	val := ""
	if ok {
		val = goBytes(v)
	}
	runtime.KeepAlive(s)
	return val, ok
}

// Uniform says whether every URL gets the same verdict: +1 all allowed,
// 0 all disallowed, -1 mixed.
func (s *Selection) Uniform() int {
	if !s.live() {
		return -1
	}
	u := int(C.rscgo_uniform(C.uintptr_t(uintptr(s.sel))))
	runtime.KeepAlive(s)
	return u
}

// Named is true when a user-agent line of the file names one of the
// selected agents (else the '*' groups apply).
func (s *Selection) Named() bool {
	if !s.live() {
		return false
	}
	n := C.rscgo_named(C.uintptr_t(uintptr(s.sel))) != 0
	runtime.KeepAlive(s)
	return n
}

// Agent is the (lower-case) user-agent token of the first group the
// selection names, "*" when the global groups apply, "" when none does.
func (s *Selection) Agent() string {
	if !s.live() {
		return ""
	}
	defer runtime.KeepAlive(s)
	sp := C.uintptr_t(uintptr(s.sel))
	if C.rscgo_named(sp) != 0 {
		var tok C.rsc_bytes
		if C.rscgo_sel_agent(sp, 0, &tok) != 0 {
			return goBytes(tok)
		}
	}
	if C.rscgo_has_global(s.r.progArg()) != 0 {
		return "*"
	}
	return ""
}
