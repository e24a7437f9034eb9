// SPDX-License-Identifier: Apache-2.0

package robotsc

// #include "rscgo.h"
import "C"

import (
	"errors"
	"fmt"
)

// Sentinel errors: test for them with errors.Is; the *Error that wraps
// one carries the detail (the C status, and where a blob was refused).
var (
	// ErrBlob: the bytes are a robotsc blob (they begin with its magic) that
	// does not verify: truncated, damaged, of another format version. A
	// damaged blob is never read as a robots.txt (that would allow
	// everything): Parse refuses it too.
	ErrBlob = errors.New("robotsc: invalid blob")
	// ErrNotBlob: Load was given bytes that are not a blob (a robots.txt
	// text: use Parse).
	ErrNotBlob = errors.New("robotsc: not a blob")
	// ErrBinary: Parse was given bytes that look binary (gzip, UTF-16,
	// control bytes), not a robots.txt; ParseText reads them anyway.
	ErrBinary = errors.New("robotsc: binary content, not a robots.txt")
	// ErrLimit: a documented size or state limit was exceeded.
	ErrLimit = errors.New("robotsc: limit exceeded")
	// ErrNoMem: an allocation failed in the C library.
	ErrNoMem = errors.New("robotsc: out of memory")
	// ErrArg: an argument the C library refused (an empty agent list).
	ErrArg = errors.New("robotsc: invalid argument")
	// ErrClosed: the Robots was closed.
	ErrClosed = errors.New("robotsc: closed")
)

// Status is a status code of the C library (rsc_status; its values are ABI).
type Status int

// String is the C library's description of the status (rsc_strerror).
func (s Status) String() string { return C.GoString(C.rsc_strerror(C.int(s))) }

// Error is what this package's functions return: Err is one of the
// sentinel errors above, the other fields say more.
type Error struct {
	Op     string // "parse", "load", "select"
	Err    error  // a sentinel: ErrBlob, ErrNotBlob, ErrBinary, ...
	Status Status // the C status, 0 when the check was the binding's own
	Offset int    // ErrBlob from the verifier: the byte where it failed
	What   string // ErrBlob from the verifier: why; else a detail or ""
}

func (e *Error) Error() string {
	msg := "robotsc: " + e.Op + ": " + e.Err.Error()[len("robotsc: "):]
	if e.Status != 0 {
		msg += " (" + e.Status.String() + ")"
	}
	if e.What != "" {
		if e.Err == ErrBlob && e.Status != 0 {
			msg += fmt.Sprintf(" at byte %d: %s", e.Offset, e.What)
		} else {
			msg += ": " + e.What
		}
	}
	return msg
}

// Unwrap gives the sentinel, for errors.Is.
func (e *Error) Unwrap() error { return e.Err }

// statusErr maps a C status to its sentinel.
func statusErr(op string, st C.rsc_status) error {
	var s error
	switch st {
	case C.RSC_E_LIMIT:
		s = ErrLimit
	case C.RSC_E_NOMEM:
		s = ErrNoMem
	case C.RSC_E_ARG:
		s = ErrArg
	default:
		s = ErrBlob
	}
	return &Error{Op: op, Err: s, Status: Status(st)}
}
