// SPDX-License-Identifier: Apache-2.0

package robotsc

// #include "rscgo.h"
import "C"

import (
	"encoding/binary"
	"math/bits"
	"unsafe"
)

// A check in Go, without cgo: a cgo call costs about as much as a whole
// check on a typical list (bench/REPORT.md, per-language table), so a
// selection that runs its blob's DFA (most of them: rsc_selection_engine)
// runs it here, reading the tables of the blob that C's rsc_load verified,
// where rsc_selection_dfa says they are. This is runtime/dfa.c's run_raw
// and dstep for the google profile, and url.c's path start, step for
// step; the blob's layout is docs/FORMAT.md "DFAS". The rfc profile, the
// selections that run the programs and Explain stay in C. Tests compare
// the two on every corpus list and on random paths (dfa_test.go).
//
// At selection time the records are decoded from the blob into Go memory
// (16 bytes a state, 4 a target: O(the DFA's size), no determinisation),
// states numbered in record order, and every code a record holds is
// checked against them, so a step reads a Go struct instead of the blob's
// records and can never index out of range.
type dfa struct {
	rows     []drow
	cells    []uint32
	str      []byte // the blob (C memory, valid while its Robots is open)
	k, start uint32 // row states; K allowed, K + 1 disallowed
}

// drow is a record: Next (a chain's; an explicit state's first cell),
// Other (D << 3 | F << 2 | L << 1 | E), the offset in the blob of the
// label (in STRINGS) or keys (in the record) and their count.
type drow struct{ next, other, loff, n uint32 }

// maxGoStates bounds the Go copy of a DFA (16 bytes a state): larger ones
// stay in C.
const maxGoStates = 1 << 16

// dfaOf is the DFA sel runs in Go, or nil (C then answers).
func dfaOf(r *Robots, sel unsafe.Pointer) *dfa {
	var v C.rsc_dfa_view
	if sel == nil || r.blob == nil {
		return nil
	}
	if C.rsc_selection_dfa((*C.rsc_selection)(sel), &v) != 1 {
		if cs := (*C.rsc_selection)(sel); cs.prog != nil && cs.n_roots == 0 {
			// No program at all (no group for the agent and no '*'
			// group, or groups without rules): every path is allowed,
			// a DFA of no state whose start is the allowed verdict.
			return &dfa{}
		}
		return nil
	}
	b := unsafe.Slice((*byte)(r.blob), r.size)
	k, w, lw := uint32(v.states), uint64(v.width), uint64(v.lab_width)
	code, size, va := uint64(v.code), uint64(v.size), uint32(v.allowed)
	if k > maxGoStates || (w != 1 && w != 2) || lw < 1 || lw > 4 || code+size > uint64(len(b)) ||
		uint64(v.str) > uint64(len(b)) {
		return nil
	}
	// The records in order: a state's number is its record's place, its
	// code the record's offset in CODE (index maps codes to numbers; the
	// verdicts' codes va and va + 1 become K and K + 1). Labels and keys
	// are read from the blob itself: str is all of it, loff absolute.
	index := make(map[uint32]uint32, k)
	offs := make([]uint64, 0, k)
	for c := uint64(0); c < size; {
		if uint32(len(offs)) == k || size-c < 2 {
			return nil // never in a verified blob: C answers
		}
		index[uint32(c)] = uint32(len(offs))
		offs = append(offs, c)
		fl, n := b[code+c], uint64(b[code+c+1])
		if fl&2 != 0 {
			c += 2 + 2*w + lw
		} else {
			c += 2 + w + n*(1+w)
		}
	}
	if uint32(len(offs)) != k {
		return nil
	}
	num := func(t uint32) (uint32, bool) {
		if t >= va {
			return k + (t - va), t <= va+1
		}
		x, ok := index[t]
		return x, ok
	}
	rdw := func(at uint64, width uint64) uint32 {
		var x uint32
		for i := uint64(0); i < width; i++ {
			x |= uint32(b[at+i]) << (8 * i)
		}
		return x
	}
	start, ok := num(uint32(v.start))
	if !ok {
		return nil
	}
	d := &dfa{rows: make([]drow, k), str: b, k: k, start: start}
	for s, c := range offs {
		at := code + c
		if at+2+w > uint64(len(b)) { // Flags, N, Other
			return nil
		}
		fl, n := uint32(b[at]), uint32(b[at+1])
		o, ok := num(rdw(at+2, w))
		if !ok {
			return nil
		}
		x := &d.rows[s]
		x.other, x.n = o<<3|fl&7, n
		if fl&2 != 0 { // a chain: Next, and its label in STRINGS
			if at+2+2*w+lw > uint64(len(b)) {
				return nil
			}
			nx, ok := num(rdw(at+2+w, w))
			lo := uint64(v.str) + uint64(rdw(at+2+2*w, lw))
			if !ok || n == 0 || lo+uint64(n) > uint64(len(b)) {
				return nil
			}
			x.next, x.loff = nx, uint32(lo)
			continue
		}
		// explicit: its keys in CODE, their targets as cells
		keys := at + 2 + w
		if keys+uint64(n)*(1+w) > uint64(len(b)) {
			return nil
		}
		x.next, x.loff = uint32(len(d.cells)), uint32(keys)
		for i := uint64(0); i < uint64(n); i++ {
			t, ok := num(rdw(keys+uint64(n)+i*w, w))
			if !ok {
				return nil
			}
			d.cells = append(d.cells, t)
		}
	}
	for s := range d.rows { // a falling-back row's Other never falls back
		if o := d.rows[s].other; o&4 != 0 && (o>>3 >= d.k || d.rows[o>>3].other&4 != 0) {
			return nil
		}
	}
	return d
}

// Eight bytes a word (url.c and dfa.c do the same with codec.h's helpers).
const ones = 0x0101010101010101

func zeroLanes(x uint64) uint64       { return (x - ones) & ^x & (ones << 7) }
func eqLanes(x uint64, c byte) uint64 { return zeroLanes(x ^ ones*uint64(c)) }
func lowLane(m uint64) int            { return bits.TrailingZeros64(m) >> 3 }

// keyIndex is the index of c among keys (len(keys) when none).
func keyIndex(keys []byte, c byte) uint32 {
	for i, k := range keys {
		if k == c {
			return uint32(i)
		}
	}
	return uint32(len(keys))
}

// step is dstep: state s on byte c, *j bytes into its label. A byte that a
// falling-back state does not take is read again in its Other, which
// verification made a state that never falls back.
func (d *dfa) step(s uint32, j *uint32, c byte) uint32 {
	for turn := 0; ; turn++ {
		w := &d.rows[s]
		o, n, f := w.other, w.n, w.next
		if o&2 != 0 { // a chain: its label's byte *j
			if c == d.str[w.loff+*j] {
				if *j++; *j < n {
					return s
				}
				*j = 0
				return f
			}
			*j = 0
		} else {
			if x := keyIndex(d.str[w.loff:w.loff+n], c); x < n {
				return d.cells[f+x]
			}
		}
		if o&4 == 0 || turn > 0 {
			return o >> 3
		}
		s = o >> 3
	}
}

// scan is the first i in [i, len(p)) where p[i] is one of keys, NUL or
// term (len(p) when none): a state that every other byte keeps reads its
// path a word at a time (scan_keys and scan_set in C).
func scan(p []byte, i int, keys []byte, term byte) int {
	if len(keys) == 1 { // a chain's first byte, or a state of one key
		k := keys[0]
		for ; len(p)-i >= 8; i += 8 {
			x := binary.LittleEndian.Uint64(p[i:])
			if m := zeroLanes(x) | eqLanes(x, term) | eqLanes(x, k); m != 0 {
				return i + lowLane(m)
			}
		}
		for ; i < len(p); i++ {
			if c := p[i]; c == k || c == 0 || c == term {
				break
			}
		}
		return i
	}
	if len(keys) <= 4 {
		var k [4]byte
		for x := range k {
			k[x] = keys[0]
			if x < len(keys) {
				k[x] = keys[x]
			}
		}
		for ; len(p)-i >= 8; i += 8 {
			x := binary.LittleEndian.Uint64(p[i:])
			if m := zeroLanes(x) | eqLanes(x, term) | eqLanes(x, k[0]) | eqLanes(x, k[1]) |
				eqLanes(x, k[2]) | eqLanes(x, k[3]); m != 0 {
				return i + lowLane(m)
			}
		}
		for ; i < len(p); i++ {
			if c := p[i]; c == k[0] || c == k[1] || c == k[2] || c == k[3] || c == 0 || c == term {
				break
			}
		}
		return i
	}
	var set [8]uint32
	set[0] = 1 // NUL
	set[term>>5] |= 1 << (term & 31)
	for _, c := range keys {
		set[c>>5] |= 1 << (c & 31)
	}
	for i < len(p) && set[p[i]>>5]>>(p[i]&31)&1 == 0 {
		i++
	}
	return i
}

// run is run_raw: the google profile's path bytes as they are, up to a NUL
// or term.
func (d *dfa) run(s uint32, p []byte, term byte, slash bool) uint32 {
	var j uint32
	i := 0
	if slash && s < d.k {
		s = d.step(s, &j, '/')
	}
	for s < d.k {
		w := &d.rows[s]
		o, n, f, lo := w.other, w.n, w.next, w.loff
		if o&2 != 0 { // a chain: as many label bytes as the path has
			lab := d.str[lo : lo+n]
			if j == 0 && o>>3 == s { // back here on any other byte
				i = scan(p, i, lab[:1], term)
			}
			if i < len(p) && p[i] != lab[j] { // the usual way out: its first byte
				if p[i] == 0 || p[i] == term {
					break
				}
				if o&4 == 0 {
					i++
				}
				j, s = 0, o>>3
				continue
			}
			// eight bytes a step: the first that differs from the label,
			// is NUL or term ends the run (the word may read past the
			// label, inside STRINGS: those bytes are not counted)
			for j < n && len(p)-i >= 8 && uint64(lo)+uint64(j)+8 <= uint64(len(d.str)) {
				x := binary.LittleEndian.Uint64(p[i:])
				diff := x ^ binary.LittleEndian.Uint64(d.str[lo+j:])
				k := uint32(8)
				if m := diff | zeroLanes(x) | eqLanes(x, term); m != 0 {
					k = uint32(lowLane(m))
				}
				if k > n-j {
					k = n - j
				}
				i += int(k)
				j += k
				if k < 8 {
					break
				}
			}
			for j < n && i < len(p) && p[i] == lab[j] && p[i] != 0 && p[i] != term {
				i++
				j++
			}
			if j == n {
				s, j = f, 0
				continue
			}
			if i == len(p) || p[i] == 0 || p[i] == term {
				break // the path ends in the label: its E
			}
			if o&4 == 0 { // a fall-back reads p[i] again there
				i++
			}
			j, s = 0, o>>3
			continue
		}
		keys := d.str[lo : lo+n]
		if o>>3 == s && n != 0 { // a scan: every byte but its keys stays here
			t := s // the move of the key the scan stops at
			for {
				i = scan(p, i, keys, term)
				if i == len(p) || p[i] == 0 || p[i] == term {
					break
				}
				x := keyIndex(keys, p[i])
				if x >= n {
					break
				}
				t = d.cells[f+x]
				// A short excursion (runtime/dfa.c's run_w): the key's
				// state falls back here and does not take the next byte,
				// so the scan goes on from that byte.
				if i+1 < len(p) && t < d.k {
					c2, tw := p[i+1], &d.rows[t]
					if c2 != 0 && c2 != term && tw.other&4 != 0 && tw.other>>3 == s {
						var takes bool
						if tw.other&2 != 0 {
							takes = d.str[tw.loff] == c2
						} else {
							takes = keyIndex(d.str[tw.loff:tw.loff+tw.n], c2) < tw.n
						}
						if !takes {
							i, t = i+1, s
							continue
						}
					}
				}
				break
			}
			if t != s { // the move found: taken as the step below would
				i, s = i+1, t
				continue
			}
		}
		if i == len(p) || p[i] == 0 || p[i] == term {
			break
		}
		// step() on this row, whose columns are read already
		c := p[i]
		i++
		if x := keyIndex(keys, c); x < n {
			s = d.cells[f+x]
		} else if o&4 != 0 {
			s = d.step(o>>3, &j, c)
		} else {
			s = o >> 3
		}
	}
	return s
}

// verdict is rsc_dfa_verdict for the google profile.
func (d *dfa) verdict(p []byte, term byte, slash bool) bool {
	s := d.start
	if s < d.k {
		s = d.run(s, p, term, slash)
	}
	if s < d.k {
		return d.rows[s].other&1 == 0
	}
	return s == d.k
}

// special marks the bytes that start a path ('/', '?', ';') or end it
// ('#'), spec G.3 and G.4.
var special = [256]bool{'/': true, '?': true, ';': true, '#': true}

func firstSpecial(u []byte, i int) int {
	for ; len(u)-i >= 8; i += 8 {
		x := binary.LittleEndian.Uint64(u[i:])
		if m := eqLanes(x, '/') | eqLanes(x, '?') | eqLanes(x, ';') | eqLanes(x, '#'); m != 0 {
			return i + lowLane(m)
		}
	}
	for i < len(u) && !special[u[i]] {
		i++
	}
	return i
}

// allowedURL is rsc_match_url: spec G's path of url (url.c's
// rsc_path_start), then the DFA.
func (d *dfa) allowedURL(url string) bool {
	if d.start >= d.k { // the start is a verdict: every path's
		return d.start == d.k
	}
	u := strBytes(url)
	s := 0
	if len(u) >= 2 && u[0] == '/' && u[1] == '/' { // G.1
		s = 2
	}
	var ps int
	h := 0
	if len(u) >= 8 && u[0] == 'h' && u[1] == 't' && u[2] == 't' && u[3] == 'p' {
		h = 4
		if u[4] == 's' {
			h = 5
		}
	}
	if h != 0 && u[h] == ':' && u[h+1] == '/' && u[h+2] == '/' {
		ps = firstSpecial(u, h+3)
	} else {
		ps = firstSpecial(u, s)
		if ps > s && ps+1 < len(u) && u[ps-1] == ':' && u[ps] == '/' && u[ps+1] == '/' {
			ps = firstSpecial(u, ps+2) // G.2, G.3
		}
	}
	if ps == len(u) || u[ps] == '#' { // G.3, G.4: the path is "/"
		return d.verdict(nil, 0, true)
	}
	return d.verdict(u[ps:], '#', u[ps] != '/')
}

// verdictOf is sel's verdict for u, a URL or (path) a path: in Go when
// the selection has d, else one call into C. The caller keeps the Robots
// alive until it returns (d reads the blob's C memory).
func verdictOf(d *dfa, sel unsafe.Pointer, u string, path bool) bool {
	switch {
	case d == nil:
		return matchOne(sel, u, path)
	case path:
		return d.allowedPath(u)
	}
	return d.allowedURL(u)
}

// batchInC is the batch length from which verdictsOf crosses into C even
// when the selection runs in Go: C's loop is faster than this one (about
// 49 against 65 ns a check on the corpus median list), and one crossing
// plus packing the URLs costs about what the Go loop loses on a few URLs.
const batchInC = 8

// verdictsOf writes sel's verdicts of urls into out (as long): one call
// into C for a list of batchInC URLs or more, or when the selection has no
// d; else a loop in Go.
func verdictsOf(d *dfa, sel unsafe.Pointer, out []bool, urls []string) {
	if d == nil || len(urls) >= batchInC {
		matchMany(sel, out, urls)
		return
	}
	for i, u := range urls {
		out[i] = d.allowedURL(u)
	}
}

// allowedPath is rscgo_match_path: the path up to a '#', as it is.
func (d *dfa) allowedPath(path string) bool {
	p := strBytes(path)
	for i, c := range p {
		if c == '#' {
			p = p[:i]
			break
		}
	}
	return d.verdict(p, 0, false)
}

// strBytes views a string's bytes (read only, no copy; Go 1.19 has no
// unsafe.StringData).
func strBytes(s string) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice(*(**byte)(unsafe.Pointer(&s)), len(s))
}
