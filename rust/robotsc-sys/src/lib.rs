// SPDX-License-Identifier: Apache-2.0
//! Raw bindings to robotsc's C library: the runtime (include/robotsc/runtime.h),
//! the compiler and front end (compiler.h, ir.h) and, with the `store`
//! feature, the LMDB store (store.h). Declared by hand from those headers;
//! csrc/rs_shim.c checks at compile time that every struct here still has
//! the C layout. Use the `robotsc` crate for a safe API.
//!
//! The C library is compiled from this repository's sources by build.rs
//! (or, with the `system` feature, linked from an installed copy).
#![allow(non_camel_case_types)]

use std::os::raw::{c_char, c_double, c_int, c_void};

pub type rsc_status = c_int;
pub const RSC_OK: rsc_status = 0;
pub const RSC_E_ARG: rsc_status = 1;
pub const RSC_E_NOMEM: rsc_status = 2;
pub const RSC_E_LIMIT: rsc_status = 3;
pub const RSC_E_IO: rsc_status = 4;
pub const RSC_E_TRUNCATED: rsc_status = 10;
pub const RSC_E_MAGIC: rsc_status = 11;
pub const RSC_E_VERSION: rsc_status = 12;
pub const RSC_E_CHECKSUM: rsc_status = 13;
pub const RSC_E_CORRUPT: rsc_status = 14;
pub const RSC_E_SIZE: rsc_status = 15;

pub type rsc_input_kind = c_int;
pub const RSC_INPUT_TEXT: rsc_input_kind = 0;
pub const RSC_INPUT_BLOB: rsc_input_kind = 1;
pub const RSC_INPUT_DAMAGED: rsc_input_kind = 2;
pub const RSC_INPUT_BINARY: rsc_input_kind = 3;

pub type rsc_profile = c_int;
pub const RSC_PROFILE_GOOGLE: rsc_profile = 0;
pub const RSC_PROFILE_RFC: rsc_profile = 1;

pub const RSC_MAX_SELECT: usize = 32;
pub const RSC_ALL_ALLOWED: c_int = 1;
pub const RSC_ALL_DISALLOWED: c_int = 0;
pub const RSC_MIXED: c_int = -1;

pub const RSC_DIFF_SAME: c_int = 0;
pub const RSC_DIFF_DIFFERENT: c_int = 1;
pub const RSC_DIFF_UNKNOWN: c_int = 2;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rsc_load_error {
    pub offset: usize,
    pub what: *const c_char,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct rsc_program {
    pub base: *const u8,
    pub size: usize,
    pub flags: u32,
    pub priv_: [u32; 40],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rsc_bytes {
    pub ptr: *const c_char,
    pub len: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct rsc_selection {
    pub prog: *const rsc_program,
    pub n_sets: u32,
    pub named: u32,
    pub sets: [u32; RSC_MAX_SELECT],
    pub n_agents: u32,
    pub agents: [u32; RSC_MAX_SELECT],
    pub n_roots: u32,
    pub roots: [u32; RSC_MAX_SELECT],
    pub accel: *const c_void,
    pub not_tokens: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rsc_match {
    pub allowed: c_int,
    pub decided: c_int,
    pub line: u32,
    pub rule_allow: c_int,
    pub priority: u32,
    pub pattern: *const c_char,
    pub pattern_len: usize,
}

/// Lua-style allocator (ir.h); None means realloc/free.
pub type rsc_alloc_fn =
    Option<unsafe extern "C" fn(ud: *mut c_void, ptr: *mut c_void, osize: usize, nsize: usize) -> *mut c_void>;

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rsc_diagnostic {
    pub warning: c_int,
    pub line: u32,
    pub detail: *const c_char,
    pub detail_len: usize,
}

pub type rsc_diag_fn = Option<unsafe extern "C" fn(ud: *mut c_void, d: *const rsc_diagnostic)>;

#[repr(C)]
#[derive(Clone, Copy)]
pub struct rsc_compile_options {
    pub profile: rsc_profile,
    pub alloc: rsc_alloc_fn,
    pub alloc_ud: *mut c_void,
    pub diag: rsc_diag_fn,
    pub diag_ud: *mut c_void,
    pub no_prune: c_int,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rsc_blob {
    pub data: *mut u8,
    pub size: usize,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct rsc_parse_options {
    pub profile: rsc_profile,
    pub alloc: rsc_alloc_fn,
    pub alloc_ud: *mut c_void,
}

/// The parser's IR (ir.h): only handled through pointers here.
#[repr(C)]
pub struct rsc_ir {
    _private: [u8; 0],
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct rsc_explore_options {
    pub max_states: usize,
    pub max_words: usize,
    pub alloc: rsc_alloc_fn,
    pub alloc_ud: *mut c_void,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rsc_flip {
    pub path: *const c_char,
    pub len: usize,
    pub old_allowed: c_int,
    pub new_allowed: c_int,
    pub old_line: u32,
    pub new_line: u32,
}

#[repr(C)]
#[derive(Clone, Copy)]
pub struct rsc_diff_result {
    pub outcome: c_int,
    pub complete: c_int,
    pub states: usize,
    pub n_flips: usize,
    pub flips: *mut rsc_flip,
    pub more: c_int,
    pub priv_paths: *mut c_char,
    pub priv_cap: usize,
    pub priv_flips_cap: usize,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct rsc_semdiag {
    pub code: c_int,
    pub line: u32,
    pub other: u32,
    pub detail: *const c_char,
    pub detail_len: usize,
}

/// Output callback of the text writers (rsc_dump).
pub type rsc_write_fn = Option<unsafe extern "C" fn(ud: *mut c_void, s: *const c_char, n: usize)>;

pub type rsc_semdiag_fn = Option<unsafe extern "C" fn(ud: *mut c_void, d: *const rsc_semdiag)>;

extern "C" {
    // runtime.h
    pub fn rsc_version() -> *const c_char;
    pub fn rsc_strerror(status: c_int) -> *const c_char;
    pub fn rsc_load(prog: *mut rsc_program, blob: *const c_void, size: usize, err: *mut rsc_load_error) -> rsc_status;
    pub fn rsc_classify(data: *const c_void, len: usize) -> rsc_input_kind;
    pub fn rsc_input_kind_what(kind: c_int) -> *const c_char;
    pub fn rsc_program_profile(prog: *const rsc_program) -> c_int;
    pub fn rsc_select(
        prog: *const rsc_program,
        agents: *const rsc_bytes,
        n: usize,
        sel: *mut rsc_selection,
    ) -> rsc_status;
    pub fn rsc_agent_is_token(name: *const c_char, len: usize) -> c_int;
    pub fn rsc_selection_uniform(sel: *const rsc_selection) -> c_int;
    pub fn rsc_match_path(sel: *const rsc_selection, path: *const c_char, len: usize, m: *mut rsc_match) -> c_int;
    pub fn rsc_match_url(sel: *const rsc_selection, url: *const c_char, len: usize, m: *mut rsc_match) -> c_int;
    pub fn rsc_url_path(url: *const c_char, len: usize, off: *mut usize, plen: *mut usize, slash: *mut c_int);
    pub fn rsc_sitemap_count(prog: *const rsc_program) -> usize;
    pub fn rsc_sitemap_get(prog: *const rsc_program, i: usize, line: *mut u32, url: *mut rsc_bytes) -> c_int;
    pub fn rsc_directive_count(prog: *const rsc_program) -> usize;
    pub fn rsc_directive_get(
        prog: *const rsc_program,
        i: usize,
        line: *mut u32,
        key: *mut rsc_bytes,
        value: *mut rsc_bytes,
    ) -> c_int;
    pub fn rsc_group_directive(
        sel: *const rsc_selection,
        key: *const c_char,
        value: *mut rsc_bytes,
        line: *mut u32,
    ) -> c_int;
    pub fn rsc_agent_token(ua: *const c_char, len: usize, token: *mut rsc_bytes, changed: *mut c_int) -> rsc_status;
    pub fn rsc_crawl_delay(sel: *const rsc_selection, seconds: *mut c_double) -> c_int;
    pub fn rsc_request_rate(sel: *const rsc_selection, requests: *mut u32, seconds: *mut c_double) -> c_int;

    // ir.h
    pub fn rsc_parse(
        body: *const c_void,
        len: usize,
        opt: *const rsc_parse_options,
        out: *mut *mut rsc_ir,
    ) -> rsc_status;
    pub fn rsc_ir_free(ir: *mut rsc_ir);
    pub fn rsc_extract_agent(value: *const c_char, len: usize) -> usize;
    pub fn rsc_is_valid_agent(agent: *const c_char, len: usize) -> c_int;
    pub fn rsc_escape_pattern(src: *const c_char, len: usize, dst: *mut c_char) -> usize;

    // compiler.h
    pub fn rsc_warning_name(w: c_int) -> *const c_char;
    pub fn rsc_warning_message(w: c_int) -> *const c_char;
    pub fn rsc_lint(ir: *const rsc_ir, f: rsc_diag_fn, ud: *mut c_void);
    pub fn rsc_compile(
        body: *const c_void,
        len: usize,
        opt: *const rsc_compile_options,
        out: *mut rsc_blob,
    ) -> rsc_status;
    pub fn rsc_compile_ir(ir: *const rsc_ir, opt: *const rsc_compile_options, out: *mut rsc_blob) -> rsc_status;
    pub fn rsc_blob_free(b: *mut rsc_blob, opt: *const rsc_compile_options);
    pub fn rsc_dump(prog: *const rsc_program, w: rsc_write_fn, ud: *mut c_void) -> rsc_status;
    pub fn rsc_diff(
        old_sel: *const rsc_selection,
        new_sel: *const rsc_selection,
        max_witnesses: usize,
        opt: *const rsc_explore_options,
        out: *mut rsc_diff_result,
    ) -> rsc_status;
    pub fn rsc_diff_result_free(r: *mut rsc_diff_result, opt: *const rsc_explore_options);
    pub fn rsc_blob_agent(prog: *const rsc_program, i: usize, token: *mut rsc_bytes) -> c_int;
    pub fn rsc_semlint_name(code: c_int) -> *const c_char;
    pub fn rsc_semlint_message(code: c_int) -> *const c_char;
    pub fn rsc_semlint_severity(code: c_int) -> c_int;
    pub fn rsc_semlint(
        ir: *const rsc_ir,
        opt: *const rsc_explore_options,
        f: rsc_semdiag_fn,
        ud: *mut c_void,
    ) -> rsc_status;

    // csrc/rs_shim.c
    /// Verdicts of urls[0..n) into out[0..n) (1/0) in one call; returns the
    /// number allowed.
    pub fn rsc_rs_match_many(sel: *const rsc_selection, urls: *const rsc_bytes, n: usize, out: *mut u8) -> usize;
}

#[cfg(feature = "store")]
pub use store::*;

#[cfg(feature = "store")]
mod store {
    use std::os::raw::{c_char, c_int, c_void};

    use super::{rsc_bytes, rsc_load_error, rsc_program};

    pub type rsc_store_status = c_int;
    pub const RSC_STORE_OK: rsc_store_status = 0;
    pub const RSC_STORE_NOTFOUND: rsc_store_status = 1;
    pub const RSC_STORE_E_ARG: rsc_store_status = 2;
    pub const RSC_STORE_E_KEY: rsc_store_status = 3;
    pub const RSC_STORE_E_DAMAGED: rsc_store_status = 4;
    pub const RSC_STORE_E_BLOB: rsc_store_status = 5;
    pub const RSC_STORE_E_STALE: rsc_store_status = 6;
    pub const RSC_STORE_E_FULL: rsc_store_status = 7;
    pub const RSC_STORE_E_IO: rsc_store_status = 8;
    pub const RSC_STORE_E_NOMEM: rsc_store_status = 9;
    pub const RSC_STORE_E_TOOBIG: rsc_store_status = 10;
    pub const RSC_STORE_E_NOTBLOB: rsc_store_status = 11;
    pub const RSC_STORE_NEVER: i64 = i64::MAX;
    pub const RSC_STORE_DISALLOW: c_int = 0;
    pub const RSC_STORE_ALLOW: c_int = 1;
    pub const RSC_ORIGIN_MAX: usize = 270;

    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct rsc_store_meta {
        pub fetched_at: i64,
        pub expires: i64,
        pub error_since: i64,
        pub http_status: i32,
        pub fetch_error: u8,
        pub policy: u8,
        pub has_copy: u8,
        pub profile: u8,
        pub format: u8,
        pub source_size: u64,
        pub source_hash: u64,
        pub source_url: rsc_bytes,
        pub etag: rsc_bytes,
        pub last_modified: rsc_bytes,
        pub lifetime: i64,
    }

    #[repr(C)]
    pub struct rsc_store {
        _private: [u8; 0],
    }
    #[repr(C)]
    pub struct rsc_store_txn {
        _private: [u8; 0],
    }
    #[repr(C)]
    pub struct rsc_store_cache {
        _private: [u8; 0],
    }

    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct rsc_store_options {
        pub readonly: c_int,
        pub map_size: usize,
        pub max_map: usize,
        pub no_sync: c_int,
    }

    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct rsc_store_record {
        pub meta: rsc_store_meta,
        pub blob: *const u8,
        pub blob_len: usize,
        pub record_len: usize,
    }

    #[repr(C)]
    #[derive(Clone, Copy)]
    pub struct rsc_store_item {
        pub key: *const c_char,
        pub key_len: usize,
        pub meta: *const rsc_store_meta,
        pub blob: *const c_void,
        pub blob_len: usize,
        pub verified: c_int,
    }

    extern "C" {
        pub fn rsc_store_strerror(status: c_int) -> *const c_char;
        pub fn rsc_store_hash(data: *const c_void, len: usize) -> u64;
        pub fn rsc_store_open(
            path: *const c_char,
            opt: *const rsc_store_options,
            out: *mut *mut rsc_store,
        ) -> rsc_store_status;
        pub fn rsc_store_close(st: *mut rsc_store);
        pub fn rsc_store_last_error(st: *const rsc_store) -> *const c_char;
        pub fn rsc_store_key_valid(key: *const c_char, len: usize) -> c_int;
        pub fn rsc_store_origin_key(url: *const c_char, len: usize, key: *mut c_char, key_len: *mut usize) -> c_int;
        pub fn rsc_store_put_many(
            st: *mut rsc_store,
            items: *const rsc_store_item,
            n: usize,
            bad: *mut usize,
        ) -> rsc_store_status;
        pub fn rsc_store_put(
            st: *mut rsc_store,
            key: *const c_char,
            key_len: usize,
            meta: *const rsc_store_meta,
            blob: *const c_void,
            blob_len: usize,
        ) -> rsc_store_status;
        pub fn rsc_store_del(st: *mut rsc_store, key: *const c_char, key_len: usize) -> rsc_store_status;
        pub fn rsc_store_gc(st: *mut rsc_store, before: i64, removed: *mut usize) -> rsc_store_status;
        pub fn rsc_store_begin(st: *mut rsc_store, out: *mut *mut rsc_store_txn) -> rsc_store_status;
        pub fn rsc_store_renew(t: *mut rsc_store_txn) -> rsc_store_status;
        pub fn rsc_store_end(t: *mut rsc_store_txn);
        pub fn rsc_store_get(
            t: *mut rsc_store_txn,
            key: *const c_char,
            key_len: usize,
            rec: *mut rsc_store_record,
            prog: *mut rsc_program,
            err: *mut rsc_load_error,
        ) -> rsc_store_status;
        pub fn rsc_store_cache_new(slots: usize, max_age: i64) -> *mut rsc_store_cache;
        pub fn rsc_store_cache_free(c: *mut rsc_store_cache);
        pub fn rsc_store_check(
            t: *mut rsc_store_txn,
            cache: *mut rsc_store_cache,
            agents: *const rsc_bytes,
            n: usize,
            url: *const c_char,
            len: usize,
            now: i64,
            verdict: *mut c_int,
        ) -> rsc_store_status;
    }
}
