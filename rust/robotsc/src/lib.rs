// SPDX-License-Identifier: Apache-2.0
//! Google's robots.txt verdicts, compiled.
//!
//! robotsc compiles a robots.txt into a verified automaton (a *blob*) and
//! answers "may this crawler fetch this URL?" from it with no allocation.
//! The semantics are RFC 9309 as Google's reference library reads it
//! (docs/SEMANTICS.md in the repository).
//!
//! ```
//! use robotsc::Robots;
//!
//! let robots = Robots::parse(b"User-agent: *\nDisallow: /private\n").unwrap();
//! assert!(robots.allowed("https://example.com/", "FooBot"));
//! assert!(!robots.allowed("https://example.com/private/x", "FooBot"));
//! let blob = robots.as_bytes().to_vec(); // store it, send it, mmap it...
//! let again = Robots::load(&blob).unwrap(); // ...and load it, verified
//! assert!(!again.allowed("https://example.com/private/x", "FooBot"));
//! ```
//!
//! Every entry point fails closed: bytes that begin with the blob magic are
//! a blob, and a blob that does not verify is an [`Error`], never read as a
//! robots.txt that allows everything.
//!
//! [`Robots`] is `Send` and `Sync`: the C runtime has no mutable state and
//! a verified program is immutable, so one parsed file may be shared by any
//! number of threads (`Arc<Robots>`).
//!
//! [`texting_robots`] has the API of the `texting_robots` crate, so that a
//! crawler switches with one import.

use std::ffi::CStr;
use std::fmt;
use std::mem::MaybeUninit;
use std::os::raw::{c_char, c_int, c_void};
use std::sync::atomic::{AtomicPtr, Ordering};

/// The raw C API (robotsc-sys), for what the safe API does not cover.
pub use robotsc_sys as sys;

pub mod texting_robots;

#[cfg(feature = "store")]
pub mod store;

/// The version of the C library linked ("1.1.0").
pub fn c_version() -> &'static str {
    // SAFETY: rsc_version returns a static NUL-terminated string.
    unsafe { CStr::from_ptr(sys::rsc_version()) }.to_str().unwrap_or("?")
}

fn static_str(p: *const c_char) -> &'static str {
    if p.is_null() {
        return "";
    }
    // SAFETY: the C library's strings here are static and NUL-terminated.
    unsafe { CStr::from_ptr(p) }.to_str().unwrap_or("?")
}

fn strerror(status: c_int) -> &'static str {
    // SAFETY: rsc_strerror takes any int and returns a static string.
    static_str(unsafe { sys::rsc_strerror(status) })
}

/// What went wrong. Every variant says what the C library said.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The bytes are a blob (they begin with its magic) and failed
    /// verification: `status` is the C status (RSC_E_*), `offset` the byte
    /// where verification stopped, `reason` why.
    Blob {
        status: i32,
        offset: usize,
        reason: &'static str,
    },
    /// The bytes look like a damaged blob (its magic with a bit or two
    /// changed): refused rather than read as a robots.txt.
    DamagedBlob(&'static str),
    /// The bytes look binary (gzip, UTF-16, control bytes): refused unless
    /// [`Options::text`] asks to read them as a robots.txt.
    Binary(&'static str),
    /// The agents could not be selected (none given, or more than 32 rule
    /// sets named).
    Select(i32),
    /// Compiling failed (RSC_E_LIMIT: a documented limit was exceeded).
    Compile(i32),
    /// diff failed (different profiles, or a blob whose programs disagree
    /// with its rules).
    Diff(i32),
    /// Allocation failed in the C library.
    NoMemory,
    /// A store operation failed: the store's status and its text.
    #[cfg(feature = "store")]
    Store { status: i32, message: String },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Blob { status, offset, reason } => {
                write!(f, "invalid blob: {} at byte {} ({})", strerror(*status), offset, reason)
            }
            Error::DamagedBlob(what) | Error::Binary(what) => {
                write!(f, "{}, not read as a robots.txt (Options::text reads it as one)", what)
            }
            Error::Select(st) => write!(f, "cannot select agents: {}", strerror(*st)),
            Error::Compile(st) => write!(f, "cannot compile: {}", strerror(*st)),
            Error::Diff(st) => write!(f, "diff failed: {}", strerror(*st)),
            Error::NoMemory => f.write_str("out of memory"),
            #[cfg(feature = "store")]
            Error::Store { message, .. } => write!(f, "store: {}", message),
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// How a robots.txt is read: Google's reference (the default) or RFC 9309
/// strictly (docs/SEMANTICS.md, "The rfc profile").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Profile {
    #[default]
    Google,
    Rfc,
}

impl Profile {
    fn raw(self) -> sys::rsc_profile {
        match self {
            Profile::Google => sys::RSC_PROFILE_GOOGLE,
            Profile::Rfc => sys::RSC_PROFILE_RFC,
        }
    }
}

/// Options of [`Robots::parse_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub profile: Profile,
    /// Read bytes that look binary or like a damaged blob as a robots.txt
    /// anyway (as Google's library would). Bytes that begin with the blob
    /// magic are a blob whatever this says.
    pub text: bool,
}

/// The rule that decided a verdict ([`Robots::explain`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Explanation {
    pub allowed: bool,
    /// false when no rule applied (then the URL is allowed).
    pub decided: bool,
    /// The deciding rule's line, 0 when none decided.
    pub line: u32,
    /// `Some(true)` for an allow rule, `Some(false)` for a disallow rule.
    pub allow_rule: Option<bool>,
    /// The rule's priority (its escaped pattern's length, spec E.6).
    pub priority: u32,
    /// The rule's escaped pattern.
    pub pattern: Option<String>,
}

/// A directive the matcher does not use (crawl-delay, host, ...).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Directive {
    pub line: u32,
    pub key: String,
    pub value: String,
}

fn lossy(p: *const c_char, n: usize) -> String {
    if p.is_null() || n == 0 {
        return String::new();
    }
    // SAFETY: (p, n) is a span of the verified blob or of the C library's
    // output, alive for this call.
    String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(p as *const u8, n) }).into_owned()
}

/// The agent whose selection a [`Robots`] keeps: the first one asked for.
struct Cached {
    agent: Box<[u8]>,
    user_agent: bool,
    sel: sys::rsc_selection,
}

/// A cell set once (std's OnceLock needs Rust 1.70; Debian 12's rustc is
/// 1.63): the first `set` wins, `get` is one acquire load.
struct Once<T> {
    p: AtomicPtr<T>,
}

impl<T> Once<T> {
    fn new() -> Self {
        Once {
            p: AtomicPtr::new(std::ptr::null_mut()),
        }
    }

    #[inline]
    fn get(&self) -> Option<&T> {
        // SAFETY: a non-null pointer came from Box::into_raw in `set` and
        // is freed only by Drop, which has &mut self.
        unsafe { self.p.load(Ordering::Acquire).as_ref() }
    }

    fn set(&self, v: T) {
        let b = Box::into_raw(Box::new(v));
        if self
            .p
            .compare_exchange(std::ptr::null_mut(), b, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // Another thread set it first: keep theirs.
            // SAFETY: b is ours and was never shared.
            drop(unsafe { Box::from_raw(b) });
        }
    }
}

impl<T> Drop for Once<T> {
    fn drop(&mut self) {
        let p = *self.p.get_mut();
        if !p.is_null() {
            // SAFETY: from Box::into_raw in `set`, freed once.
            drop(unsafe { Box::from_raw(p) });
        }
    }
}

struct Inner {
    // `prog` points into `blob`, and every selection points to `prog`: both
    // stay at their heap addresses while the Box<Inner> lives.
    prog: sys::rsc_program,
    blob: Box<[u8]>,
    cache: Once<Cached>,
}

/// A verified compiled robots.txt.
///
/// `allowed(url, agent)` keeps the selection of the first agent it is
/// given, so a crawler with one name pays for selection once; for several
/// names, or several agents at once (spec F.7), take a [`Selection`] with
/// [`Robots::select`].
pub struct Robots {
    inner: Box<Inner>,
}

// SAFETY: the C runtime has no mutable global state; a program and its
// selections are immutable after rsc_load/rsc_select and may be read by
// any number of threads (runtime.h, "Thread safety"). The blob is owned
// and never written after verification; the cache is set once, atomically.
unsafe impl Send for Inner {}
unsafe impl Sync for Inner {}
unsafe impl Send for Cached {}
unsafe impl Sync for Cached {}

impl fmt::Debug for Robots {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Robots")
            .field("profile", &self.profile())
            .field("size", &self.inner.blob.len())
            .field("sitemaps", &self.sitemap_count())
            .finish()
    }
}

impl Clone for Robots {
    fn clone(&self) -> Self {
        // The copy is verified again: a blob is only ever read after
        // rsc_load said yes to these very bytes at this address.
        Robots::from_vec(self.inner.blob.to_vec()).expect("a verified blob verifies again")
    }
}

impl Robots {
    /// Compiles a robots.txt (Google's profile) and loads the result. What
    /// the bytes are is the C library's rule (`rsc_classify`): bytes that
    /// begin with the blob magic are loaded as a blob ([`Error::Blob`]
    /// when they fail verification, never read as text); bytes that look
    /// like a damaged blob or binary are refused.
    pub fn parse(body: &[u8]) -> Result<Robots> {
        Robots::parse_with(body, &Options::default())
    }

    /// [`Robots::parse`] with a profile, or reading binary-looking bytes.
    pub fn parse_with(body: &[u8], opt: &Options) -> Result<Robots> {
        // SAFETY: (ptr, len) is the slice.
        let kind = unsafe { sys::rsc_classify(body.as_ptr() as *const c_void, body.len()) };
        match kind {
            sys::RSC_INPUT_BLOB => return Robots::load(body),
            sys::RSC_INPUT_DAMAGED if !opt.text => return Err(Error::DamagedBlob(input_what(kind))),
            sys::RSC_INPUT_BINARY if !opt.text => return Err(Error::Binary(input_what(kind))),
            _ => {}
        }
        Robots::from_vec(compile(body, opt.profile)?)
    }

    /// Loads a blob (compiled by any robotsc: the CLI, Python, a store):
    /// verifies it whole and refuses it with [`Error::Blob`] when any rule
    /// of docs/FORMAT.md fails. The bytes are copied (see
    /// [`Robots::from_vec`] to hand over a buffer instead).
    pub fn load(blob: &[u8]) -> Result<Robots> {
        Robots::from_vec(blob.to_vec())
    }

    /// [`Robots::load`] taking ownership of the bytes (no copy).
    pub fn from_vec(blob: Vec<u8>) -> Result<Robots> {
        let mut inner = Box::new(Inner {
            // SAFETY: rsc_program is plain data; all-zero is its "empty"
            // state and rsc_load fills it.
            prog: unsafe { MaybeUninit::zeroed().assume_init() },
            blob: blob.into_boxed_slice(),
            cache: Once::new(),
        });
        let mut err = sys::rsc_load_error {
            offset: 0,
            what: std::ptr::null(),
        };
        let (ptr, len) = (inner.blob.as_ptr(), inner.blob.len());
        // SAFETY: the blob is owned by `inner` and outlives the program.
        let st = unsafe { sys::rsc_load(&mut inner.prog, ptr as *const c_void, len, &mut err) };
        if st != sys::RSC_OK {
            return Err(if st == sys::RSC_E_NOMEM {
                Error::NoMemory
            } else {
                Error::Blob {
                    status: st,
                    offset: err.offset,
                    reason: static_str(err.what),
                }
            });
        }
        Ok(Robots { inner })
    }

    /// The verified blob: the bytes to store or send ([`Robots::load`]
    /// reads them back, as do the CLI and every other binding).
    pub fn as_bytes(&self) -> &[u8] {
        &self.inner.blob
    }

    /// The blob, as an owned buffer.
    pub fn into_bytes(self) -> Vec<u8> {
        let inner = self.inner;
        // The program points into the blob; it goes with `inner`.
        let Inner { blob, .. } = *inner;
        blob.into_vec()
    }

    /// The profile the blob was compiled with.
    pub fn profile(&self) -> Profile {
        // SAFETY: a verified program.
        if unsafe { sys::rsc_program_profile(&self.inner.prog) } != 0 {
            Profile::Rfc
        } else {
            Profile::Google
        }
    }

    fn prog(&self) -> *const sys::rsc_program {
        &self.inner.prog
    }

    /// The selection for one agent name: the cached one when it is the
    /// first agent this Robots was asked about, else `tmp` filled in.
    #[inline]
    fn sel<'a>(
        &'a self,
        agent: &[u8],
        ua: bool,
        tmp: &'a mut MaybeUninit<sys::rsc_selection>,
    ) -> Option<&'a sys::rsc_selection> {
        if let Some(c) = self.inner.cache.get() {
            if c.user_agent == ua && *c.agent == *agent {
                return Some(&c.sel);
            }
        }
        self.sel_slow(agent, ua, tmp)
    }

    #[cold]
    fn sel_slow<'a>(
        &'a self,
        agent: &[u8],
        ua: bool,
        tmp: &'a mut MaybeUninit<sys::rsc_selection>,
    ) -> Option<&'a sys::rsc_selection> {
        let name = if ua { agent_token(agent) } else { agent };
        let s = select_raw(self.prog(), &[name]).ok()?;
        if self.inner.cache.get().is_none() {
            self.inner.cache.set(Cached {
                agent: agent.into(),
                user_agent: ua,
                sel: s,
            });
            if let Some(c) = self.inner.cache.get() {
                if c.user_agent == ua && *c.agent == *agent {
                    return Some(&c.sel);
                }
            }
        }
        Some(tmp.write(s))
    }

    /// Google's verdict: may `agent` (the crawler's name, a product token
    /// such as "Googlebot", matched as Google's library matches it: never
    /// cut, case-insensitive) fetch `url`? The URL is borrowed, never
    /// copied; the selection of the first agent asked for is kept.
    #[inline]
    pub fn allowed(&self, url: &str, agent: &str) -> bool {
        self.allowed_bytes(url.as_bytes(), agent.as_bytes())
    }

    /// [`Robots::allowed`] on bytes (a URL as it came off the wire).
    #[inline]
    pub fn allowed_bytes(&self, url: &[u8], agent: &[u8]) -> bool {
        let mut tmp = MaybeUninit::uninit();
        match self.sel(agent, false, &mut tmp) {
            // SAFETY: a selection of this verified program; (ptr, len) is the URL.
            Some(s) => unsafe {
                sys::rsc_match_url(s, url.as_ptr() as *const c_char, url.len(), std::ptr::null_mut()) != 0
            },
            None => false, // fail closed
        }
    }

    /// The verdict for a whole User-Agent header ("Mozilla/5.0 (compatible;
    /// Googlebot/2.1; +http://...)"): its product token is the agent.
    pub fn allowed_user_agent(&self, url: &str, user_agent: &str) -> bool {
        let mut tmp = MaybeUninit::uninit();
        match self.sel(user_agent.as_bytes(), true, &mut tmp) {
            // SAFETY: as in allowed_bytes.
            Some(s) => unsafe {
                sys::rsc_match_url(s, url.as_ptr() as *const c_char, url.len(), std::ptr::null_mut()) != 0
            },
            None => false,
        }
    }

    /// Verdicts for many URLs of one agent, in one call into C: `out[i]` is
    /// the verdict of `urls[i]`. Returns how many are allowed. Panics when
    /// `out` is shorter than `urls`.
    pub fn allowed_many<S: AsRef<str>>(&self, urls: &[S], agent: &str, out: &mut [bool]) -> usize {
        let mut tmp = MaybeUninit::uninit();
        match self.sel(agent.as_bytes(), false, &mut tmp) {
            Some(s) => match_many(s, urls, out),
            None => {
                out[..urls.len()].fill(false);
                0
            }
        }
    }

    /// The verdict and the rule that decided it.
    pub fn explain(&self, url: &str, agent: &str) -> Explanation {
        let mut tmp = MaybeUninit::uninit();
        match self.sel(agent.as_bytes(), false, &mut tmp) {
            Some(s) => explain_raw(s, url.as_bytes()),
            None => Explanation {
                allowed: false,
                decided: false,
                line: 0,
                allow_rule: None,
                priority: 0,
                pattern: None,
            },
        }
    }

    /// The rule sets for one or several agent names (spec F.7: a crawler
    /// that answers to several names), to check many URLs with.
    pub fn select<S: AsRef<str>>(&self, agents: &[S]) -> Result<Selection<'_>> {
        let names: Vec<&[u8]> = agents.iter().map(|a| a.as_ref().as_bytes()).collect();
        Ok(Selection {
            sel: select_raw(self.prog(), &names)?,
            _robots: std::marker::PhantomData,
        })
    }

    /// [`Robots::select`] for a whole User-Agent header (its product token).
    pub fn select_user_agent(&self, user_agent: &str) -> Result<Selection<'_>> {
        let t = agent_token(user_agent.as_bytes());
        Ok(Selection {
            sel: select_raw(self.prog(), &[t])?,
            _robots: std::marker::PhantomData,
        })
    }

    /// Crawl-delay in seconds of the groups that apply to `agent` (the
    /// global groups when none names it), when there is a valid one.
    pub fn crawl_delay(&self, agent: &str) -> Option<f64> {
        let mut tmp = MaybeUninit::uninit();
        self.sel(agent.as_bytes(), false, &mut tmp).and_then(crawl_delay_raw)
    }

    /// Request-rate of the groups that apply to `agent`, as (requests,
    /// seconds).
    pub fn request_rate(&self, agent: &str) -> Option<(u32, f64)> {
        let mut tmp = MaybeUninit::uninit();
        self.sel(agent.as_bytes(), false, &mut tmp).and_then(request_rate_raw)
    }

    fn sitemap_count(&self) -> usize {
        // SAFETY: a verified program.
        unsafe { sys::rsc_sitemap_count(self.prog()) }
    }

    /// Sitemap URLs, in file order (for every crawler).
    pub fn sitemaps(&self) -> Vec<String> {
        (0..self.sitemap_count())
            .map(|i| {
                let mut line = 0u32;
                let mut b = sys::rsc_bytes {
                    ptr: std::ptr::null(),
                    len: 0,
                };
                // SAFETY: i < count; b points into the blob.
                unsafe { sys::rsc_sitemap_get(self.prog(), i, &mut line, &mut b) };
                lossy(b.ptr, b.len)
            })
            .collect()
    }

    /// The sitemap URLs as bytes, as the file has them.
    pub(crate) fn sitemaps_raw(&self) -> Vec<(u32, &[u8])> {
        (0..self.sitemap_count())
            .map(|i| {
                let mut line = 0u32;
                let mut b = sys::rsc_bytes {
                    ptr: std::ptr::null(),
                    len: 0,
                };
                // SAFETY: i < count; b points into the blob, which lives as
                // long as &self.
                unsafe { sys::rsc_sitemap_get(self.prog(), i, &mut line, &mut b) };
                if b.ptr.is_null() || b.len == 0 {
                    (line, &[][..])
                } else {
                    (line, unsafe { std::slice::from_raw_parts(b.ptr as *const u8, b.len) })
                }
            })
            .collect()
    }

    /// A human-readable disassembly of the blob (what `robotsc dump`
    /// prints): header, sections, agents, programs, rules, sitemaps.
    pub fn dump(&self) -> String {
        #[allow(unused_unsafe)] // explicit blocks: required since Rust 2024
        unsafe extern "C" fn w(ud: *mut c_void, s: *const c_char, n: usize) {
            // SAFETY: ud is the Vec below; (s, n) lives during the call.
            let v = unsafe { &mut *(ud as *mut Vec<u8>) };
            if n > 0 {
                v.extend_from_slice(unsafe { std::slice::from_raw_parts(s as *const u8, n) });
            }
        }
        let mut v: Vec<u8> = Vec::new();
        // SAFETY: a verified program; the callback only appends to v.
        unsafe { sys::rsc_dump(self.prog(), Some(w), &mut v as *mut Vec<u8> as *mut c_void) };
        String::from_utf8_lossy(&v).into_owned()
    }

    /// Directives the matcher does not use (crawl-delay, host, ...), in
    /// file order.
    pub fn directives(&self) -> Vec<Directive> {
        // SAFETY: a verified program.
        let n = unsafe { sys::rsc_directive_count(self.prog()) };
        (0..n)
            .map(|i| {
                let mut line = 0u32;
                let mut k = sys::rsc_bytes {
                    ptr: std::ptr::null(),
                    len: 0,
                };
                let mut v = k;
                // SAFETY: i < count; k and v point into the blob.
                unsafe { sys::rsc_directive_get(self.prog(), i, &mut line, &mut k, &mut v) };
                Directive {
                    line,
                    key: lossy(k.ptr, k.len),
                    value: lossy(v.ptr, v.len),
                }
            })
            .collect()
    }

    /// Which paths change verdict between `self` (old) and `other` (new),
    /// for each agent of `agents` (None: every agent either file names,
    /// then "*" for any other). Exact under a budget of `max_states` (0:
    /// the library's default): past it an agent's outcome is `Unknown`.
    pub fn diff(&self, other: &Robots, agents: Option<&[&str]>, witnesses: usize, max_states: usize) -> Result<Diff> {
        diff::diff(self, other, agents, witnesses, max_states)
    }

    /// Lint warnings of a robots.txt: the syntax ones (typos, missing
    /// colons, ...) and, with `semantic`, rules that can never decide,
    /// unselectable groups, bad crawl-delays and the like.
    pub fn lint(body: &[u8], profile: Profile, semantic: bool) -> Result<Vec<Diagnostic>> {
        diff::lint(body, profile, semantic)
    }
}

mod diff;
pub use diff::{AgentDiff, Diagnostic, Diff, DiffOutcome, Flip, Severity};

fn input_what(kind: c_int) -> &'static str {
    // SAFETY: any int is accepted; the string is static.
    static_str(unsafe { sys::rsc_input_kind_what(kind) })
}

/// The product token of a User-Agent header (rsc_agent_token), or the
/// header as given when it has none (then it can only select '*').
fn agent_token(ua: &[u8]) -> &[u8] {
    let mut t = sys::rsc_bytes {
        ptr: std::ptr::null(),
        len: 0,
    };
    let mut changed = 0;
    // SAFETY: (ptr, len) is the slice; the token points into it.
    let st = unsafe { sys::rsc_agent_token(ua.as_ptr() as *const c_char, ua.len(), &mut t, &mut changed) };
    if st != sys::RSC_OK || t.ptr.is_null() {
        return ua;
    }
    let off = t.ptr as usize - ua.as_ptr() as usize;
    &ua[off..off + t.len]
}

/// The product token of a User-Agent header ("Mozilla/5.0 (compatible;
/// Googlebot/2.1; +http://www.google.com/bot.html)" gives "Googlebot"), or
/// None when it holds none.
pub fn user_agent_token(user_agent: &str) -> Option<&str> {
    let t = agent_token(user_agent.as_bytes());
    if t.as_ptr() == user_agent.as_ptr() && t.len() == user_agent.len() && !is_product_token(user_agent) {
        return None;
    }
    std::str::from_utf8(t).ok()
}

/// Whether `name` is a product token as Google's library says (non-empty,
/// only `[A-Za-z_-]`): only such a name can be named by a user-agent line.
pub fn is_product_token(name: &str) -> bool {
    // SAFETY: (ptr, len) is the str.
    unsafe { sys::rsc_agent_is_token(name.as_ptr() as *const c_char, name.len()) != 0 }
}

fn select_raw(prog: *const sys::rsc_program, names: &[&[u8]]) -> Result<sys::rsc_selection> {
    let span = |n: &&[u8]| sys::rsc_bytes {
        ptr: n.as_ptr() as *const c_char,
        len: n.len(),
    };
    // One name (every check of an agent other than the cached one) on the
    // stack: no allocation per check.
    let one: [sys::rsc_bytes; 1];
    let many: Vec<sys::rsc_bytes>;
    let spans: &[sys::rsc_bytes] = if names.len() == 1 {
        one = [span(&names[0])];
        &one
    } else {
        many = names.iter().map(span).collect();
        &many
    };
    let mut sel = MaybeUninit::<sys::rsc_selection>::uninit();
    // SAFETY: prog is verified; spans live for the call; rsc_select fills
    // sel whole (on failure too: prog NULL, which matches nothing).
    let st = unsafe { sys::rsc_select(prog, spans.as_ptr(), spans.len(), sel.as_mut_ptr()) };
    if st != sys::RSC_OK {
        return Err(Error::Select(st));
    }
    // SAFETY: filled by rsc_select on RSC_OK.
    Ok(unsafe { sel.assume_init() })
}

fn match_many<S: AsRef<str>>(s: &sys::rsc_selection, urls: &[S], out: &mut [bool]) -> usize {
    let out = &mut out[..urls.len()];
    let spans: Vec<sys::rsc_bytes> = urls
        .iter()
        .map(|u| {
            let u = u.as_ref();
            sys::rsc_bytes {
                ptr: u.as_ptr() as *const c_char,
                len: u.len(),
            }
        })
        .collect();
    // SAFETY: bool has the size and alignment of u8 and C writes only 0 or
    // 1, both valid bools; spans borrow the URLs for the call.
    unsafe { sys::rsc_rs_match_many(s, spans.as_ptr(), spans.len(), out.as_mut_ptr() as *mut u8) }
}

fn explain_raw(s: &sys::rsc_selection, url: &[u8]) -> Explanation {
    let mut m = MaybeUninit::<sys::rsc_match>::zeroed();
    // SAFETY: a selection of a verified program; m is written by the call.
    let ok = unsafe { sys::rsc_match_url(s, url.as_ptr() as *const c_char, url.len(), m.as_mut_ptr()) };
    // SAFETY: zeroed is a valid rsc_match, and rsc_match_url fills it.
    let m = unsafe { m.assume_init() };
    let decided = m.decided != 0;
    Explanation {
        allowed: ok != 0,
        decided,
        line: if decided { m.line } else { 0 },
        allow_rule: if decided { Some(m.rule_allow != 0) } else { None },
        priority: if decided { m.priority } else { 0 },
        pattern: if decided && !m.pattern.is_null() {
            Some(lossy(m.pattern, m.pattern_len))
        } else {
            None
        },
    }
}

fn crawl_delay_raw(s: &sys::rsc_selection) -> Option<f64> {
    let mut secs = 0.0;
    // SAFETY: a selection of a verified program.
    (unsafe { sys::rsc_crawl_delay(s, &mut secs) } == 1).then_some(secs)
}

fn request_rate_raw(s: &sys::rsc_selection) -> Option<(u32, f64)> {
    let (mut n, mut secs) = (0u32, 0.0);
    // SAFETY: a selection of a verified program.
    (unsafe { sys::rsc_request_rate(s, &mut n, &mut secs) } == 1).then_some((n, secs))
}

/// The rule sets that apply to one crawler ([`Robots::select`]): check
/// many URLs without selecting again. Borrows its [`Robots`]; `Copy`,
/// `Send` and `Sync`.
#[derive(Clone, Copy)]
pub struct Selection<'r> {
    sel: sys::rsc_selection,
    _robots: std::marker::PhantomData<&'r Robots>,
}

// SAFETY: an rsc_selection is immutable and shareable (runtime.h); it
// points into a Robots that this borrow keeps alive and unchanged.
unsafe impl Send for Selection<'_> {}
unsafe impl Sync for Selection<'_> {}

impl fmt::Debug for Selection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Selection")
            .field("rule_sets", &self.sel.n_sets)
            .field("named", &(self.sel.named != 0))
            .finish()
    }
}

impl Selection<'_> {
    /// The verdict for `url` (borrowed, never copied).
    #[inline]
    pub fn allowed(&self, url: &str) -> bool {
        // SAFETY: as in Robots::allowed_bytes.
        unsafe {
            sys::rsc_match_url(
                &self.sel,
                url.as_ptr() as *const c_char,
                url.len(),
                std::ptr::null_mut(),
            ) != 0
        }
    }

    /// Verdicts for many URLs in one call into C; see [`Robots::allowed_many`].
    pub fn allowed_many<S: AsRef<str>>(&self, urls: &[S], out: &mut [bool]) -> usize {
        match_many(&self.sel, urls, out)
    }

    pub fn explain(&self, url: &str) -> Explanation {
        explain_raw(&self.sel, url.as_bytes())
    }

    pub fn crawl_delay(&self) -> Option<f64> {
        crawl_delay_raw(&self.sel)
    }

    pub fn request_rate(&self) -> Option<(u32, f64)> {
        request_rate_raw(&self.sel)
    }

    /// The value of the first directive named `key` (case-insensitive) in
    /// the groups that apply.
    pub fn group_directive(&self, key: &str) -> Option<String> {
        let k = std::ffi::CString::new(key).ok()?;
        let mut v = sys::rsc_bytes {
            ptr: std::ptr::null(),
            len: 0,
        };
        let mut line = 0u32;
        // SAFETY: k is NUL-terminated; v points into the blob.
        (unsafe { sys::rsc_group_directive(&self.sel, k.as_ptr(), &mut v, &mut line) } == 1)
            .then(|| lossy(v.ptr, v.len))
    }

    /// [`Selection::group_directive`] with the directive's line.
    pub fn group_directive_line(&self, key: &str) -> Option<(u32, String)> {
        let k = std::ffi::CString::new(key).ok()?;
        let mut v = sys::rsc_bytes {
            ptr: std::ptr::null(),
            len: 0,
        };
        let mut line = 0u32;
        // SAFETY: k is NUL-terminated; v points into the blob.
        (unsafe { sys::rsc_group_directive(&self.sel, k.as_ptr(), &mut v, &mut line) } == 1)
            .then(|| (line, lossy(v.ptr, v.len)))
    }

    /// Some(true) when every URL is allowed, Some(false) when every URL is
    /// disallowed, None when verdicts depend on the URL.
    pub fn uniform(&self) -> Option<bool> {
        // SAFETY: a selection of a verified program.
        match unsafe { sys::rsc_selection_uniform(&self.sel) } {
            sys::RSC_ALL_ALLOWED => Some(true),
            sys::RSC_ALL_DISALLOWED => Some(false),
            _ => None,
        }
    }

    /// Whether a name the crawler gave is not a product token (it can then
    /// only get the '*' group, as in Google's library).
    pub fn has_non_token_agents(&self) -> bool {
        self.sel.not_tokens != 0
    }

    /// The C selection, for calls into [`sys`] (it borrows the Robots).
    pub fn as_raw(&self) -> &sys::rsc_selection {
        &self.sel
    }
}

/// Compiles a robots.txt into a blob (the bytes [`Robots::load`] reads),
/// whatever the bytes are (as Google's library reads any bytes).
pub fn compile(body: &[u8], profile: Profile) -> Result<Vec<u8>> {
    // SAFETY: rsc_compile_options is plain data; zero means defaults.
    let mut opt: sys::rsc_compile_options = unsafe { MaybeUninit::zeroed().assume_init() };
    opt.profile = profile.raw();
    let mut blob = sys::rsc_blob {
        data: std::ptr::null_mut(),
        size: 0,
    };
    // SAFETY: (ptr, len) is the body; blob is filled on success.
    let st = unsafe { sys::rsc_compile(body.as_ptr() as *const c_void, body.len(), &opt, &mut blob) };
    if st != sys::RSC_OK {
        return Err(if st == sys::RSC_E_NOMEM {
            Error::NoMemory
        } else {
            Error::Compile(st)
        });
    }
    // SAFETY: the compiler's blob, freed right after the copy.
    let v = unsafe { std::slice::from_raw_parts(blob.data, blob.size) }.to_vec();
    unsafe { sys::rsc_blob_free(&mut blob, &opt) };
    Ok(v)
}

/// What kind of bytes these are, by the C library's rule (`rsc_classify`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Text,
    Blob,
    DamagedBlob,
    Binary,
}

pub fn classify(bytes: &[u8]) -> InputKind {
    // SAFETY: (ptr, len) is the slice.
    match unsafe { sys::rsc_classify(bytes.as_ptr() as *const c_void, bytes.len()) } {
        sys::RSC_INPUT_BLOB => InputKind::Blob,
        sys::RSC_INPUT_DAMAGED => InputKind::DamagedBlob,
        sys::RSC_INPUT_BINARY => InputKind::Binary,
        _ => InputKind::Text,
    }
}

/// The path, params and query Google's matcher reads from a URL (spec G):
/// "http://a.com/x?y#z" gives "/x?y".
pub fn url_path(url: &str) -> std::borrow::Cow<'_, str> {
    let (mut off, mut len, mut slash): (usize, usize, c_int) = (0, 0, 0);
    // SAFETY: (ptr, len) is the str; the span is within it.
    unsafe { sys::rsc_url_path(url.as_ptr() as *const c_char, url.len(), &mut off, &mut len, &mut slash) };
    let b = &url.as_bytes()[off..off + len];
    let s = String::from_utf8_lossy(b);
    if slash != 0 {
        std::borrow::Cow::Owned(format!("/{}", s))
    } else {
        s
    }
}

/// Spec F.2: the part of a user-agent line's value compared with the
/// crawler's name ("Googlebot/2.1" gives "Googlebot").
pub fn extract_agent(value: &[u8]) -> &[u8] {
    // SAFETY: (ptr, len) is the slice; the result is a length within it.
    let n = unsafe { sys::rsc_extract_agent(value.as_ptr() as *const c_char, value.len()) };
    &value[..n.min(value.len())]
}

/// Spec D: a pattern as the matcher stores it (non-ASCII bytes and some
/// others percent-encoded).
pub fn escape_pattern(pattern: &[u8]) -> Vec<u8> {
    let mut out = vec![0u8; pattern.len() * 3];
    // SAFETY: dst holds 3*len bytes, as rsc_escape_pattern needs.
    let n = unsafe {
        sys::rsc_escape_pattern(
            pattern.as_ptr() as *const c_char,
            pattern.len(),
            out.as_mut_ptr() as *mut c_char,
        )
    };
    out.truncate(n);
    out
}
