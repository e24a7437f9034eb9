// SPDX-License-Identifier: Apache-2.0

// Package store reads and writes robotsc stores: compiled robots.txt
// programs of many origins in one LMDB file (the file `robotsc store build`
// and `robotsc fetch --store` write; docs/CRAWLER.md, "The store"). Any
// number of processes and goroutines read at once; one writes at a time.
// Nothing read from the file is trusted: every blob is verified before it
// gives a verdict, and a damaged record is an error, never a verdict.
//
// It links the store library (LMDB, and crawl/ for origin keys: libcurl and
// libidn2) through pkg-config's robotsc-store; package robotsc alone needs
// none of them.
package store

/*
#cgo pkg-config: robotsc-store
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <robotsc/store.h>

static const char *rscgo_nz(const char *p, size_t len) { return len ? p : ""; }

static int rscgo_check(uintptr_t txn, uintptr_t cache, const char *agent, size_t alen,
                       const char *url, size_t ulen, int64_t now, int *verdict)
{
	rsc_bytes a = {rscgo_nz(agent, alen), alen};
	return rsc_store_check((rsc_store_txn *)txn, (rsc_store_cache *)cache, &a, 1,
	                       rscgo_nz(url, ulen), ulen, now, verdict);
}

// n URLs packed in buf (URL i ends at ends[i]): statuses and verdicts.
static void rscgo_check_many(uintptr_t txn, uintptr_t cache, const char *agent, size_t alen,
                             const char *buf, const size_t *ends, size_t n, int64_t now,
                             unsigned char *status, unsigned char *verdict)
{
	size_t start = 0;
	for (size_t i = 0; i < n; i++) {
		int v = 0;
		status[i] = (unsigned char)rscgo_check(txn, cache, agent, alen, buf + start,
		                                       ends[i] - start, now, &v);
		verdict[i] = (unsigned char)v;
		start = ends[i];
	}
}

static int rscgo_begin(uintptr_t st, uintptr_t *out)
{
	rsc_store_txn *t = NULL;
	int s = rsc_store_begin((rsc_store *)st, &t);
	*out = (uintptr_t)t;
	return s;
}

static int rscgo_open(const char *path, int ro, size_t map, int nosync, uintptr_t *out)
{
	rsc_store_options o;
	memset(&o, 0, sizeof o);
	o.readonly = ro;
	o.map_size = map;
	o.no_sync = nosync;
	rsc_store *st = NULL;
	int s = rsc_store_open(path, &o, &st);
	*out = (uintptr_t)st;
	return s;
}

static int rscgo_put(uintptr_t st, const char *key, size_t klen, const char *url, size_t ulen,
                     int64_t fetched, int64_t expires, int32_t http, int policy,
                     const void *blob, size_t blen)
{
	rsc_store_meta m;
	memset(&m, 0, sizeof m);
	m.fetched_at = fetched;
	m.expires = expires;
	m.http_status = http;
	m.policy = (uint8_t)policy;
	m.has_copy = 1;
	m.source_url.ptr = rscgo_nz(url, ulen);
	m.source_url.len = ulen;
	return rsc_store_put((rsc_store *)st, rscgo_nz(key, klen), klen, &m, blob, blen);
}

// The record of key: its blob copied into *blob (malloc), metadata out.
static int rscgo_get(uintptr_t st, const char *key, size_t klen, void **blob, size_t *blen,
                     int64_t *fetched, int64_t *expires, int32_t *http, int *policy)
{
	rsc_store_txn *t = NULL;
	int s = rsc_store_begin((rsc_store *)st, &t);
	if (s != RSC_STORE_OK)
		return s;
	rsc_store_record rec;
	s = rsc_store_get(t, rscgo_nz(key, klen), klen, &rec, NULL, NULL);
	if (s == RSC_STORE_OK) {
		*blob = malloc(rec.blob_len ? rec.blob_len : 1);
		if (!*blob) {
			s = RSC_STORE_E_NOMEM;
		} else {
			memcpy(*blob, rec.blob, rec.blob_len);
			*blen = rec.blob_len;
			*fetched = rec.meta.fetched_at;
			*expires = rec.meta.expires;
			*http = rec.meta.http_status;
			*policy = rec.meta.policy;
		}
	}
	rsc_store_end(t);
	return s;
}

static int rscgo_del(uintptr_t st, const char *key, size_t klen)
{
	return rsc_store_del((rsc_store *)st, rscgo_nz(key, klen), klen);
}

static int rscgo_origin_key(const char *url, size_t len, char *key, size_t *klen)
{
	return rsc_store_origin_key(rscgo_nz(url, len), len, key, klen);
}

static const char *rscgo_last_error(uintptr_t st) { return rsc_store_last_error((const rsc_store *)st); }
static void rscgo_close(uintptr_t st) { rsc_store_close((rsc_store *)st); }
static void rscgo_end(uintptr_t t) { rsc_store_end((rsc_store_txn *)t); }
static int rscgo_renew(uintptr_t t) { return rsc_store_renew((rsc_store_txn *)t); }
static uintptr_t rscgo_cache_new(size_t slots) { return (uintptr_t)rsc_store_cache_new(slots, 0); }
static void rscgo_cache_free(uintptr_t c) { rsc_store_cache_free((rsc_store_cache *)c); }
*/
import "C"

import (
	"errors"
	"runtime"
	"sync"
	"unsafe"

	robotsc "github.com/robotsc/robotsc/go"
)

// Sentinel errors (errors.Is); *Error carries the store's status and text.
var (
	ErrNotFound = errors.New("store: no record for the origin (or it expired)")
	ErrNoRobots = errors.New("store: the URL has no robots.txt origin (not http, https or ftp)")
	ErrKey      = errors.New("store: not a canonical origin key")
	ErrDamaged  = errors.New("store: damaged record")
	ErrStale    = errors.New("store: blob format this library does not read")
	ErrNotBlob  = errors.New("store: not a blob (compile the robots.txt first)")
	ErrFull     = errors.New("store: the map cannot grow")
	ErrIO       = errors.New("store: I/O error")
	ErrClosed   = errors.New("store: closed")
	ErrOther    = errors.New("store: error")
)

// Error is a store status with the library's message.
type Error struct {
	Op     string
	Err    error // a sentinel above
	Status int   // rsc_store_status
	Detail string
}

func (e *Error) Error() string {
	msg := "store: " + e.Op + ": " + C.GoString(C.rsc_store_strerror(C.int(e.Status)))
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

func (e *Error) Unwrap() error { return e.Err }

func storeErr(op string, st C.int, detail string) error {
	var s error
	switch st {
	case C.RSC_STORE_NOTFOUND:
		s = ErrNotFound
	case C.RSC_STORE_E_KEY:
		s = ErrKey
	case C.RSC_STORE_E_DAMAGED, C.RSC_STORE_E_BLOB:
		s = ErrDamaged
	case C.RSC_STORE_E_STALE:
		s = ErrStale
	case C.RSC_STORE_E_FULL:
		s = ErrFull
	case C.RSC_STORE_E_IO:
		s = ErrIO
	case 11: // RSC_STORE_E_NOTBLOB (store.h, 1.1)
		s = ErrNotBlob
	default:
		s = ErrOther
	}
	return &Error{Op: op, Err: s, Status: int(st), Detail: detail}
}

// Options for Open; the zero value opens read-write with the defaults.
type Options struct {
	ReadOnly bool
	MapSize  int  // initial map size (0: 64 MiB; the map grows)
	NoSync   bool // no fsync per commit
}

// Store is an open store file. Its methods are safe for concurrent use;
// Close it when no other goroutine uses it.
type Store struct {
	mu sync.Mutex // guards st against Close
	st C.uintptr_t
}

// Open opens (creating unless ReadOnly) the store at path and its lock
// file path-lock. opt may be nil.
func Open(path string, opt *Options) (*Store, error) {
	if opt == nil {
		opt = &Options{}
	}
	p := C.CString(path)
	defer C.free(unsafe.Pointer(p))
	var st C.uintptr_t
	ro, nosync := C.int(0), C.int(0)
	if opt.ReadOnly {
		ro = 1
	}
	if opt.NoSync {
		nosync = 1
	}
	if s := C.rscgo_open(p, ro, C.size_t(opt.MapSize), nosync, &st); s != 0 {
		return nil, storeErr("open", s, C.GoString(C.rscgo_last_error(0)))
	}
	s := &Store{st: st}
	runtime.SetFinalizer(s, (*Store).Close)
	return s, nil
}

// Close closes the store.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st != 0 {
		runtime.SetFinalizer(s, nil)
		C.rscgo_close(s.st)
		s.st = 0
	}
	return nil
}

func strArg(v string) (*C.char, C.size_t) {
	return *(**C.char)(unsafe.Pointer(&v)), C.size_t(len(v))
}

// OriginKey is the store key of a URL's origin ("https://www.example.com"),
// as the CLI and the other bindings write it.
func OriginKey(url string) (string, error) {
	u, n := strArg(url)
	var key [1024]C.char
	var klen C.size_t
	if C.rscgo_origin_key(u, n, &key[0], &klen) != 0 || int(klen) > len(key) {
		return "", &Error{Op: "origin", Err: ErrNoRobots, Status: int(C.RSC_STORE_E_KEY)}
	}
	return C.GoStringN(&key[0], C.int(klen)), nil
}

// Meta is a record's metadata (the part a Go writer sets and reads).
type Meta struct {
	SourceURL  string // where the robots.txt came from
	FetchedAt  int64  // Unix seconds
	Expires    int64  // refetch at or after this (Never: never)
	HTTPStatus int
	Policy     int // 0 parse, 1 allow all, 2 disallow all (rsc_policy)
}

// Never is Meta.Expires for a record that never expires.
const Never = int64(C.RSC_STORE_NEVER)

// Put writes r's blob for the origin key (one transaction: readers see the
// old record or the new one). A zero Expires is Never.
func (s *Store) Put(key string, r *robotsc.Robots, m Meta) error {
	blob := r.Bytes()
	if blob == nil {
		return &Error{Op: "put", Err: ErrClosed}
	}
	return s.PutBlob(key, blob, m)
}

// PutBlob writes a blob (from Robots.Bytes or `robotsc compile`); bytes
// that do not verify are refused.
func (s *Store) PutBlob(key string, blob []byte, m Meta) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st == 0 {
		return &Error{Op: "put", Err: ErrClosed}
	}
	if m.Expires == 0 {
		m.Expires = Never
	}
	k, kn := strArg(key)
	u, un := strArg(m.SourceURL)
	var bp unsafe.Pointer
	if len(blob) > 0 {
		bp = unsafe.Pointer(&blob[0])
	} else {
		// NULL with length 0 would delete the key: refuse an empty blob.
		return &Error{Op: "put", Err: ErrNotBlob, Status: 11}
	}
	st := C.rscgo_put(s.st, k, kn, u, un, C.int64_t(m.FetchedAt), C.int64_t(m.Expires),
		C.int32_t(m.HTTPStatus), C.int(m.Policy), bp, C.size_t(len(blob)))
	runtime.KeepAlive(blob)
	if st != 0 {
		return storeErr("put", st, C.GoString(C.rscgo_last_error(s.st)))
	}
	return nil
}

// Get reads the record of an origin key: a Robots over a verified copy
// of its blob, and its metadata. ErrNotFound when there is none.
func (s *Store) Get(key string) (*robotsc.Robots, Meta, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st == 0 {
		return nil, Meta{}, &Error{Op: "get", Err: ErrClosed}
	}
	k, kn := strArg(key)
	var blob unsafe.Pointer
	var blen C.size_t
	var fetched, expires C.int64_t
	var http C.int32_t
	var policy C.int
	if st := C.rscgo_get(s.st, k, kn, &blob, &blen, &fetched, &expires, &http, &policy); st != 0 {
		return nil, Meta{}, storeErr("get", st, "")
	}
	b := C.GoBytes(blob, C.int(blen))
	C.free(blob)
	r, err := robotsc.Load(b)
	if err != nil {
		return nil, Meta{}, &Error{Op: "get", Err: ErrDamaged, Status: int(C.RSC_STORE_E_BLOB), Detail: err.Error()}
	}
	return r, Meta{FetchedAt: int64(fetched), Expires: int64(expires), HTTPStatus: int(http), Policy: int(policy)}, nil
}

// Delete removes an origin's record (ErrNotFound when there was none).
func (s *Store) Delete(key string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st == 0 {
		return &Error{Op: "delete", Err: ErrClosed}
	}
	k, kn := strArg(key)
	if st := C.rscgo_del(s.st, k, kn); st != 0 {
		return storeErr("delete", st, "")
	}
	return nil
}

// Allowed routes url to its origin's record and gives the verdict for
// agent (as robotsc's Allowed takes it), in a read transaction of its own.
// now (Unix seconds, 0: not checked) makes an expired record ErrNotFound.
// For many checks use a Reader.
func (s *Store) Allowed(url, agent string, now int64) (bool, error) {
	rd, err := s.Reader(agent)
	if err != nil {
		return false, err
	}
	defer rd.Close()
	return rd.Allowed(url, now)
}

// Reader is a read transaction and a cache of verified programs, for one
// goroutine at a time (a crawler worker's): checks of one agent.
type Reader struct {
	s     *Store
	agent string
	txn   C.uintptr_t
	cache C.uintptr_t
}

// Reader begins a read transaction (a snapshot: Renew sees newer commits)
// with a cache of 256 origins' programs, for agent.
func (s *Store) Reader(agent string) (*Reader, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.st == 0 {
		return nil, &Error{Op: "begin", Err: ErrClosed}
	}
	var t C.uintptr_t
	if st := C.rscgo_begin(s.st, &t); st != 0 {
		return nil, storeErr("begin", st, C.GoString(C.rscgo_last_error(s.st)))
	}
	rd := &Reader{s: s, agent: agent, txn: t, cache: C.rscgo_cache_new(256)}
	runtime.SetFinalizer(rd, (*Reader).Close)
	return rd, nil
}

// Renew moves the reader's snapshot to the latest commit.
func (rd *Reader) Renew() error {
	if rd.txn == 0 {
		return &Error{Op: "renew", Err: ErrClosed}
	}
	if st := C.rscgo_renew(rd.txn); st != 0 {
		return storeErr("renew", st, "")
	}
	return nil
}

// Close ends the transaction and frees the cache.
func (rd *Reader) Close() {
	if rd.txn != 0 {
		runtime.SetFinalizer(rd, nil)
		C.rscgo_end(rd.txn)
		C.rscgo_cache_free(rd.cache)
		rd.txn, rd.cache = 0, 0
	}
}

// Allowed is the verdict for url from its origin's record.
func (rd *Reader) Allowed(url string, now int64) (bool, error) {
	if rd.txn == 0 {
		return false, &Error{Op: "check", Err: ErrClosed}
	}
	a, an := strArg(rd.agent)
	u, un := strArg(url)
	var v C.int
	st := C.rscgo_check(rd.txn, rd.cache, a, an, u, un, C.int64_t(now), &v)
	runtime.KeepAlive(rd)
	if st != 0 {
		if st == C.RSC_STORE_E_KEY {
			return false, &Error{Op: "check", Err: ErrNoRobots, Status: int(st)}
		}
		return false, storeErr("check", st, "")
	}
	return v == C.RSC_STORE_ALLOW, nil
}

// AllowedMany checks urls (any origins) in one call into C. errs[i] is nil
// when verdicts[i] is one (errs is nil when every URL had a verdict).
func (rd *Reader) AllowedMany(urls []string, now int64) (verdicts []bool, errs []error) {
	verdicts = make([]bool, len(urls))
	if len(urls) == 0 {
		return verdicts, nil
	}
	status := make([]byte, len(urls))
	if rd.txn == 0 {
		errs = make([]error, len(urls))
		for i := range errs {
			errs[i] = &Error{Op: "check", Err: ErrClosed}
		}
		return verdicts, errs
	}
	var buf []byte
	ends := make([]C.size_t, len(urls))
	for i, u := range urls {
		buf = append(buf, u...)
		ends[i] = C.size_t(len(buf))
	}
	buf = append(buf, 0)
	a, an := strArg(rd.agent)
	C.rscgo_check_many(rd.txn, rd.cache, a, an, (*C.char)(unsafe.Pointer(&buf[0])), &ends[0],
		C.size_t(len(urls)), C.int64_t(now), (*C.uchar)(unsafe.Pointer(&status[0])),
		(*C.uchar)(unsafe.Pointer(&verdicts[0])))
	runtime.KeepAlive(rd)
	for i, st := range status {
		if st != 0 {
			if errs == nil {
				errs = make([]error, len(urls))
			}
			if st == C.RSC_STORE_E_KEY {
				errs[i] = &Error{Op: "check", Err: ErrNoRobots, Status: int(st)}
			} else {
				errs[i] = storeErr("check", C.int(st), "")
			}
		}
	}
	return verdicts, errs
}
