// SPDX-License-Identifier: Apache-2.0
//! The LMDB store (include/robotsc/store.h; the `store` feature): compiled
//! robots.txt files of many origins in one file, shared by crawler workers
//! and by the CLI's `robotsc store` and Python's `robotsc.Store`. Every
//! record read is verified before use; a damaged one is an error for its
//! origin, never a verdict.
//!
//! ```no_run
//! use robotsc::{store::Store, Robots};
//!
//! let store = Store::open("robots.lmdb", false)?;
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n")?;
//! store.put("https://example.com", &robots, None)?;
//! let mut reader = store.reader("FooBot")?;
//! assert_eq!(reader.check("https://example.com/private/x")?, Some(false));
//! # Ok::<(), robotsc::Error>(())
//! ```

use std::ffi::CString;
use std::marker::PhantomData;
use std::os::raw::{c_char, c_int, c_void};
use std::path::Path;

use robotsc_sys as sys;

use crate::{static_str, Error, Result, Robots};

fn store_error(status: c_int, st: *const sys::rsc_store) -> Error {
    // SAFETY: static strings; st is NULL or an open store.
    let what = static_str(unsafe { sys::rsc_store_strerror(status) });
    let detail = static_str(unsafe { sys::rsc_store_last_error(st) });
    let message = if detail.is_empty() {
        what.to_string()
    } else {
        format!("{}: {}", what, detail)
    };
    Error::Store { status, message }
}

/// An open store. `Send` and `Sync`: LMDB takes any number of reader
/// threads and serialises writers.
pub struct Store {
    st: *mut sys::rsc_store,
}

// SAFETY: store.h: any number of reader threads, one writer at a time
// (LMDB's lock, taken inside every write call).
unsafe impl Send for Store {}
unsafe impl Sync for Store {}

impl Drop for Store {
    fn drop(&mut self) {
        // SAFETY: opened by rsc_store_open, closed once; Readers borrow
        // the store, so none is alive here.
        unsafe { sys::rsc_store_close(self.st) }
    }
}

/// The origin key of a URL ("HTTPS://Example.COM:443/x" gives
/// "https://example.com"), as the store keys records.
pub fn origin_key(url: &str) -> Result<String> {
    let mut key = [0u8; sys::RSC_ORIGIN_MAX];
    let mut len = 0usize;
    // SAFETY: key holds RSC_ORIGIN_MAX bytes, as the call needs.
    let st = unsafe {
        sys::rsc_store_origin_key(
            url.as_ptr() as *const c_char,
            url.len(),
            key.as_mut_ptr() as *mut c_char,
            &mut len,
        )
    };
    if st != 0 {
        return Err(Error::Store {
            status: sys::RSC_STORE_E_KEY,
            message: format!("no origin key for {:?}", url),
        });
    }
    Ok(String::from_utf8_lossy(&key[..len]).into_owned())
}

impl Store {
    /// Opens (creating it unless `readonly`) the store file `path` and its
    /// lock file `path`-lock.
    pub fn open<P: AsRef<Path>>(path: P, readonly: bool) -> Result<Store> {
        let p = CString::new(path.as_ref().to_string_lossy().as_bytes()).map_err(|_| Error::Store {
            status: sys::RSC_STORE_E_ARG,
            message: "a path with a NUL byte".into(),
        })?;
        let opt = sys::rsc_store_options {
            readonly: readonly as c_int,
            map_size: 0,
            max_map: 0,
            no_sync: 0,
        };
        let mut st = std::ptr::null_mut();
        // SAFETY: p is NUL-terminated; st is written on success.
        let s = unsafe { sys::rsc_store_open(p.as_ptr(), &opt, &mut st) };
        if s != sys::RSC_STORE_OK {
            return Err(store_error(s, std::ptr::null()));
        }
        Ok(Store { st })
    }

    /// Writes (or replaces) the record of origin `key` ("https://example.com"):
    /// the blob of `robots`, fetched now, expiring at `expires` (Unix
    /// seconds; None: never).
    pub fn put(&self, key: &str, robots: &Robots, expires: Option<i64>) -> Result<()> {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs() as i64);
        let empty = sys::rsc_bytes {
            ptr: std::ptr::null(),
            len: 0,
        };
        let meta = sys::rsc_store_meta {
            fetched_at: now,
            expires: expires.unwrap_or(sys::RSC_STORE_NEVER),
            error_since: 0,
            http_status: 200,
            fetch_error: 0,
            policy: 0,
            has_copy: 1,
            profile: (robots.profile() == crate::Profile::Rfc) as u8,
            format: 0,
            source_size: 0,
            source_hash: 0,
            source_url: empty,
            etag: empty,
            last_modified: empty,
            lifetime: 0,
        };
        let b = robots.as_bytes();
        // SAFETY: the key, meta and blob live for the call.
        let s = unsafe {
            sys::rsc_store_put(
                self.st,
                key.as_ptr() as *const c_char,
                key.len(),
                &meta,
                b.as_ptr() as *const c_void,
                b.len(),
            )
        };
        if s != sys::RSC_STORE_OK {
            return Err(store_error(s, self.st));
        }
        Ok(())
    }

    /// Deletes the record of `key`; false when there was none.
    pub fn delete(&self, key: &str) -> Result<bool> {
        // SAFETY: the key lives for the call.
        match unsafe { sys::rsc_store_del(self.st, key.as_ptr() as *const c_char, key.len()) } {
            sys::RSC_STORE_OK => Ok(true),
            sys::RSC_STORE_NOTFOUND => Ok(false),
            s => Err(store_error(s, self.st)),
        }
    }

    /// A read transaction (a consistent snapshot) with a per-reader cache
    /// of verified programs, for the crawler named `agent`. One per
    /// thread: a Reader is neither Send nor Sync (LMDB's rule for read
    /// transactions).
    pub fn reader(&self, agent: &str) -> Result<Reader<'_>> {
        let mut t = std::ptr::null_mut();
        // SAFETY: an open store; t is written on success.
        let s = unsafe { sys::rsc_store_begin(self.st, &mut t) };
        if s != sys::RSC_STORE_OK {
            return Err(store_error(s, self.st));
        }
        // SAFETY: plain constructor; NULL on failure, checked.
        let cache = unsafe { sys::rsc_store_cache_new(64, 0) };
        if cache.is_null() {
            unsafe { sys::rsc_store_end(t) };
            return Err(Error::NoMemory);
        }
        Ok(Reader {
            store: self,
            t,
            cache,
            agent: agent.as_bytes().to_vec(),
            _not_send: PhantomData,
        })
    }
}

/// A read transaction of a [`Store`] for one crawler ([`Store::reader`]).
pub struct Reader<'s> {
    store: &'s Store,
    t: *mut sys::rsc_store_txn,
    cache: *mut sys::rsc_store_cache,
    agent: Vec<u8>,
    _not_send: PhantomData<*const ()>,
}

impl Drop for Reader<'_> {
    fn drop(&mut self) {
        // SAFETY: made by Store::reader, freed once.
        unsafe {
            sys::rsc_store_cache_free(self.cache);
            sys::rsc_store_end(self.t);
        }
    }
}

impl Reader<'_> {
    /// Sees the commits made since the transaction began (cheap).
    pub fn renew(&mut self) -> Result<()> {
        // SAFETY: an open transaction.
        let s = unsafe { sys::rsc_store_renew(self.t) };
        if s != sys::RSC_STORE_OK {
            return Err(store_error(s, self.store.st));
        }
        Ok(())
    }

    /// The verdict for `url` from its origin's record: Some(verdict), or
    /// None when the store holds no record for the origin. A damaged
    /// record is an error, never a verdict.
    pub fn check(&mut self, url: &str) -> Result<Option<bool>> {
        let a = sys::rsc_bytes {
            ptr: self.agent.as_ptr() as *const c_char,
            len: self.agent.len(),
        };
        let mut v: c_int = 0;
        // SAFETY: an open transaction and cache; the agent (the same at
        // every call, as the cache needs) and the URL live for the call.
        let s = unsafe {
            sys::rsc_store_check(
                self.t,
                self.cache,
                &a,
                1,
                url.as_ptr() as *const c_char,
                url.len(),
                0,
                &mut v,
            )
        };
        match s {
            sys::RSC_STORE_OK => Ok(Some(v == sys::RSC_STORE_ALLOW)),
            sys::RSC_STORE_NOTFOUND => Ok(None),
            s => Err(store_error(s, self.store.st)),
        }
    }

    /// The record of origin `key` as a [`Robots`] (a verified copy of its
    /// blob), or None when there is none.
    pub fn get(&self, key: &str) -> Result<Option<Robots>> {
        // SAFETY: plain data, filled by the call.
        let mut rec: sys::rsc_store_record = unsafe { std::mem::zeroed() };
        let s = unsafe {
            sys::rsc_store_get(
                self.t,
                key.as_ptr() as *const c_char,
                key.len(),
                &mut rec,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
            )
        };
        match s {
            sys::RSC_STORE_OK => {
                // SAFETY: the blob is in the map, valid while the
                // transaction is; copied (and verified) right away.
                let b = unsafe { std::slice::from_raw_parts(rec.blob, rec.blob_len) };
                Robots::load(b).map(Some)
            }
            sys::RSC_STORE_NOTFOUND => Ok(None),
            s => Err(store_error(s, self.store.st)),
        }
    }
}
