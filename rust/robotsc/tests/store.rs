// SPDX-License-Identifier: Apache-2.0
//! The LMDB store through the crate (`--features store`): put, check by
//! URL, get back a verified Robots, delete; a reader sees a snapshot until
//! it renews; a record written by the CLI's `robotsc store` reads here.
#![cfg(feature = "store")]

mod common;
use common::*;

use robotsc::store::{origin_key, Store};
use robotsc::Robots;

#[test]
fn put_check_get_delete() {
    let dir = std::env::temp_dir().join(format!("robotsc-rs-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("s.lmdb");
    let store = Store::open(&path, false).unwrap();
    let r = Robots::parse(SAMPLE.as_bytes()).unwrap();
    assert_eq!(
        origin_key("HTTPS://Example.COM:443/x?y").unwrap(),
        "https://example.com"
    );
    assert!(origin_key("mailto:x@example.com").is_err());
    let mut before = store.reader("FooBot").unwrap();
    store.put("https://example.com", &r, None).unwrap();
    // The reader's snapshot predates the put.
    assert_eq!(before.check("https://example.com/private").unwrap(), None);
    before.renew().unwrap();
    assert_eq!(before.check("https://example.com/private").unwrap(), Some(false));
    drop(before);

    let mut rd = store.reader("FooBot").unwrap();
    for u in [
        "https://example.com/",
        "https://example.com/private/ok",
        "https://example.com/x.pdf",
        "https://EXAMPLE.com:443/tmp/",
    ] {
        assert_eq!(rd.check(u).unwrap(), Some(r.allowed(u, "FooBot")), "{}", u);
    }
    assert_eq!(rd.check("https://other.example/").unwrap(), None);
    assert!(rd.check("mailto:x@example.com").is_err());
    let back = rd.get("https://example.com").unwrap().unwrap();
    assert_eq!(back.as_bytes(), r.as_bytes());
    assert!(rd.get("https://other.example").unwrap().is_none());
    drop(rd);

    assert!(store.put("not a key", &r, None).is_err());
    assert!(store.delete("https://example.com").unwrap());
    assert!(!store.delete("https://example.com").unwrap());
    let mut rd = store.reader("FooBot").unwrap();
    assert_eq!(rd.check("https://example.com/private").unwrap(), None);
    drop(rd);
    drop(store);

    // A store written by the CLI reads here.
    if let Some(cli) = cli() {
        let txt = dir.join("robots.txt");
        std::fs::write(&txt, SAMPLE).unwrap();
        let p2 = dir.join("cli.lmdb");
        let out = std::process::Command::new(&cli)
            .args(["store", "put", "--help"])
            .output()
            .unwrap();
        if out.status.success() {
            run(std::process::Command::new(&cli)
                .arg("store")
                .arg("put")
                .arg(&p2)
                .arg("https://example.com")
                .arg(&txt));
            let s2 = Store::open(&p2, true).unwrap();
            let mut rd = s2.reader("FooBot").unwrap();
            assert_eq!(rd.check("https://example.com/private").unwrap(), Some(false));
            assert_eq!(rd.check("https://example.com/").unwrap(), Some(true));
        } else {
            println!("SKIP: this CLI has no 'store put'");
        }
    } else {
        println!("SKIP: ROBOTSC_CLI is not set: the CLI's store not read");
    }
    std::fs::remove_dir_all(&dir).ok();
}
