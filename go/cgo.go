// SPDX-License-Identifier: Apache-2.0

package robotsc

/*
#cgo pkg-config: robotsc
#include "rscgo.h"
*/
import "C"

import "unsafe"

// strArg gives a string's bytes to C without a copy: the pointer into the
// string (Go memory without Go pointers, which C does not keep: cgo's
// rules). Go 1.19 has no unsafe.StringData: read the header's first word.
func strArg(s string) (*C.char, C.size_t) {
	return *(**C.char)(unsafe.Pointer(&s)), C.size_t(len(s))
}

// bytesArg is strArg for a slice.
func bytesArg(b []byte) (*C.char, C.size_t) {
	if len(b) == 0 {
		return nil, 0
	}
	return (*C.char)(unsafe.Pointer(&b[0])), C.size_t(len(b))
}

func goBytes(b C.rsc_bytes) string {
	if b.len == 0 {
		return ""
	}
	return C.GoStringN(b.ptr, C.int(b.len))
}
