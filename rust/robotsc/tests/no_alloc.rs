// SPDX-License-Identifier: Apache-2.0
//! The call path allocates nothing: `allowed` for the cached agent and for
//! any other, `allowed_user_agent`, and `Selection::allowed` make no heap
//! allocation (counted by this binary's global allocator, on this thread
//! only); `allowed_many` makes one per batch, not one per URL.

mod common;
use common::*;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

// The unsafe blocks inside the unsafe fns: required since Rust 2024,
// "unnecessary" before it.
#[allow(unused_unsafe)]
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, n: usize) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        unsafe { System.realloc(p, l, n) }
    }
}

#[global_allocator]
static A: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.with(|c| c.get())
}

#[test]
fn checks_do_not_allocate() {
    let r = robotsc::Robots::parse(SAMPLE.as_bytes()).unwrap();
    let urls: Vec<String> = (0..200)
        .map(|i| format!("https://example.com/private/{}?q={}", i, i))
        .collect();
    let sel = r.select(&["BarBot"]).unwrap();
    let ua = "Mozilla/5.0 (compatible; FooBot/2.1; +http://foo.example/bot)";
    // The first call caches FooBot's selection (that may allocate).
    assert!(!r.allowed(&urls[0], "FooBot"));
    assert!(!r.allowed_user_agent(&urls[0], ua));
    let before = allocs();
    let mut n = 0;
    for u in &urls {
        n += r.allowed(u, "FooBot") as usize; // the cached agent
        n += r.allowed(u, "OtherBot") as usize; // selected per call
        n += r.allowed_user_agent(u, ua) as usize;
        n += sel.allowed(u) as usize;
    }
    let during = allocs() - before;
    assert_eq!(during, 0, "{} allocations in {} checks", during, urls.len() * 4);
    assert_eq!(n, urls.len()); // only OtherBot may fetch /private/...
    let mut out = vec![false; urls.len()];
    let before = allocs();
    r.allowed_many(&urls, "FooBot", &mut out);
    assert!(
        allocs() - before <= 1,
        "allowed_many allocated {} times",
        allocs() - before
    );
    assert!(out.iter().all(|v| !v));
}
