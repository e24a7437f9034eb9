// SPDX-License-Identifier: Apache-2.0

//go:build robotsc_fastcall && (amd64 || arm64)

package robotsc

/*
// The link gains an object without a .note.GNU-stack section in this
// build; the stack stays non-executable, as in every other build.
#cgo LDFLAGS: -Wl,-z,noexecstack
#include "rscgo.h"
*/
import "C"

import (
	"runtime"
	"unsafe"
)

// FastCall says whether checks bypass cgo's call path: true in this build
// (tag robotsc_fastcall).
//
// A cgo call tells the scheduler the goroutine may block (entersyscall and
// exitsyscall), which costs more than a check (bench/go/REPORT.md). A check
// never blocks, allocates or calls back into Go, and its time is bounded
// (docs/LIMITS.md), so this build calls it the way the runtime calls its
// own C helpers: runtime.asmcgocall runs it on the thread's system stack.
// That is an internal function of the runtime, reached with go:linkname:
// opt in only with a Go release it was tested with (1.19); a newer release
// may refuse the link.
const FastCall = true

//go:linkname asmcgocall runtime.asmcgocall
//go:noescape
func asmcgocall(fn, arg unsafe.Pointer) int32

var (
	matchFast     = unsafe.Pointer(C.rscgo_match_fast)
	matchManyFast = unsafe.Pointer(C.rscgo_match_many_fast)
)

// A Go string header is a pointer and a length, laid out as rsc_bytes on
// the 64-bit targets of this build: the batch reads the []string as it is.
var _ [unsafe.Sizeof("") - unsafe.Sizeof(C.rsc_bytes{})]byte
var _ [unsafe.Sizeof(C.rsc_bytes{}) - unsafe.Sizeof("")]byte

// matchMany checks urls on the system stack, reading the strings where
// they are (no copy): urls stays alive and no Go code runs on this
// goroutine meanwhile, so nothing can move or free them.
// A garbage collection's stop-the-world waits for a call on the system
// stack to return: a long list is checked in calls of at most fastChunk
// URLs (tens of microseconds each).
func matchMany(sel unsafe.Pointer, out []bool, urls []string) {
	const fastChunk = 512
	for len(urls) > 0 {
		n := len(urls)
		if n > fastChunk {
			n = fastChunk
		}
		a := C.rscgo_fast_many_args{sel: C.uintptr_t(uintptr(sel)), n: C.size_t(n),
			urls: (*C.rsc_bytes)(unsafe.Pointer(&urls[0])), out: (*C.uchar)(unsafe.Pointer(&out[0]))}
		asmcgocall(matchManyFast, unsafe.Pointer(&a))
		runtime.KeepAlive(urls)
		runtime.KeepAlive(out)
		urls, out = urls[n:], out[n:]
	}
}

func matchOne(sel unsafe.Pointer, url string, path bool) bool {
	a := C.rscgo_fast_args{sel: C.uintptr_t(uintptr(sel)), len: C.size_t(len(url))}
	a.url, _ = strArg(url)
	if path {
		a.path = 1
	}
	ok := asmcgocall(matchFast, unsafe.Pointer(&a)) != 0
	runtime.KeepAlive(url)
	return ok
}
