// SPDX-License-Identifier: Apache-2.0
//! Fail closed: every truncation and every single-bit flip of a compiled
//! blob is refused by Robots::load and by Robots::parse (which must never
//! read a damaged blob as a robots.txt that allows everything), and so are
//! the bytes that merely look like a damaged blob or like binary data.

mod common;
use common::*;

use robotsc::{Error, InputKind, Options, Robots};

fn blob() -> Vec<u8> {
    Robots::parse(SAMPLE.as_bytes()).unwrap().into_bytes()
}

#[test]
fn every_truncation_is_refused() {
    let b = blob();
    assert!(b.len() > 64, "a blob of {} bytes", b.len());
    for k in 0..b.len() {
        let cut = &b[..k];
        assert!(
            Robots::load(cut).is_err(),
            "load took the first {} of {} bytes",
            k,
            b.len()
        );
        if k > 0 {
            match Robots::parse(cut) {
                Err(Error::Blob { .. }) => {}
                other => panic!("parse of the first {} bytes gave {:?}", k, other.map(|_| "a Robots")),
            }
        }
    }
    // The whole blob loads, and trailing bytes are refused too.
    assert!(Robots::load(&b).is_ok());
    let mut long = b.clone();
    long.push(0);
    assert!(Robots::load(&long).is_err());
}

#[test]
fn every_bit_flip_is_refused() {
    let b = blob();
    let mut n = 0;
    for i in 0..b.len() {
        for bit in 0..8 {
            let mut d = b.clone();
            d[i] ^= 1 << bit;
            let loaded = Robots::load(&d);
            assert!(
                loaded.is_err(),
                "load took the blob with bit {} of byte {} flipped",
                bit,
                i
            );
            assert!(
                Robots::parse(&d).is_err(),
                "parse took the blob with bit {} of byte {} flipped",
                bit,
                i
            );
            n += 1;
        }
    }
    assert_eq!(n, b.len() * 8);
}

#[test]
fn look_alikes_are_refused_unless_asked() {
    let b = blob();
    // The magic with one bit changed: a damaged blob, not a robots.txt.
    let mut d = b[..16].to_vec();
    d[1] ^= 0x04;
    assert_eq!(robotsc::classify(&d), InputKind::DamagedBlob);
    assert!(matches!(Robots::parse(&d), Err(Error::DamagedBlob(_))));
    // Binary (gzip) is refused, and read as text when asked.
    let gz = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03 binary body";
    assert!(matches!(Robots::parse(gz), Err(Error::Binary(_))));
    let r = Robots::parse_with(
        gz,
        &Options {
            text: true,
            ..Options::default()
        },
    )
    .unwrap();
    assert!(r.allowed("https://example.com/x", "FooBot"));
    // Bytes with the magic stay a blob even when text is asked for.
    assert!(matches!(
        Robots::parse_with(
            &b[..b.len() - 1],
            &Options {
                text: true,
                ..Options::default()
            }
        ),
        Err(Error::Blob { .. })
    ));
    // The errors say what happened.
    let e = Robots::load(&b[..b.len() - 1]).unwrap_err();
    assert!(e.to_string().starts_with("invalid blob: "), "{}", e);
    let _: &dyn std::error::Error = &e;
}
