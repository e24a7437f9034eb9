// SPDX-License-Identifier: Apache-2.0
//! One parsed file shared by many threads (Robots is Send + Sync): the
//! verdicts under contention are the single-threaded ones, whichever
//! agent each thread asks for first (the cached selection is the first
//! one set, the others select per call).

mod common;
use common::*;

use std::sync::Arc;

use robotsc::Robots;

fn urls() -> Vec<String> {
    let mut v = Vec::new();
    for p in [
        "",
        "private",
        "private/ok",
        "private/ok?q",
        "x.pdf",
        "x.pdf?y",
        "tmp/",
        "tmp/public/1",
        "%E2%82%AC",
        "\u{20ac}",
    ] {
        for h in ["http://example.com/", "https://example.com/a/../"] {
            v.push(format!("{}{}", h, p));
        }
    }
    v
}

#[test]
fn threads_share_one_robots() {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Robots>();
    assert_send_sync::<robotsc::Selection<'static>>();
    assert_send_sync::<robotsc::texting_robots::Robot>();

    let agents = ["FooBot", "BarBot", "OtherBot", "foobot"];
    let urls = urls();
    // Expected verdicts, each from a Robots of its own (fresh caches).
    let want: Vec<Vec<bool>> = agents
        .iter()
        .map(|a| {
            let r = Robots::parse(SAMPLE.as_bytes()).unwrap();
            urls.iter().map(|u| r.allowed(u, a)).collect()
        })
        .collect();
    // Not all the same: the test can tell agents apart.
    assert_ne!(want[0], want[2]);
    assert_eq!(want[0], want[3]);

    let shared = Arc::new(Robots::parse(SAMPLE.as_bytes()).unwrap());
    let handles: Vec<_> = (0..8)
        .map(|t| {
            let r = Arc::clone(&shared);
            let urls = urls.clone();
            let want = want.clone();
            std::thread::spawn(move || {
                for round in 0..200 {
                    let k = (t + round) % agents.len();
                    for (u, w) in urls.iter().zip(&want[k]) {
                        assert_eq!(r.allowed(u, agents[k]), *w, "thread {} {} {}", t, agents[k], u);
                    }
                    let mut out = vec![false; urls.len()];
                    r.allowed_many(&urls, agents[k], &mut out);
                    assert_eq!(&out, &want[k]);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().unwrap();
    }

    // A Selection borrowed by scoped threads.
    let sel = shared.select(&["BarBot"]).unwrap();
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(|| {
                for (u, w) in urls.iter().zip(&want[1]) {
                    assert_eq!(sel.allowed(u), *w);
                }
            });
        }
    });
}
