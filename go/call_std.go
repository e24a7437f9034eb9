// SPDX-License-Identifier: Apache-2.0

//go:build !robotsc_fastcall || !(amd64 || arm64)

package robotsc

// #include "rscgo.h"
import "C"

import "unsafe"

// FastCall says whether checks bypass cgo's call path (build tag
// robotsc_fastcall, fastcall.go).
const FastCall = false

// matchOne is one check through cgo: the URL's bytes are passed where they
// are (strArg), the selection as an address in C memory.
func matchOne(sel unsafe.Pointer, url string, path bool) bool {
	u, n := strArg(url)
	if path {
		return C.rscgo_match_path(C.uintptr_t(uintptr(sel)), u, n) != 0
	}
	return C.rscgo_match(C.uintptr_t(uintptr(sel)), u, n) != 0
}

// matchMany checks urls in one cgo call: the URLs are packed into one
// buffer first (a []string holds Go pointers, which cgo's rules keep from C).
func matchMany(sel unsafe.Pointer, out []bool, urls []string) {
	matchManyPacked(sel, out, urls)
}
