// SPDX-License-Identifier: Apache-2.0
//! Blobs cross between the CLI and the crate both ways: the CLI's blob
//! loads here with the CLI's verdicts, the crate's blob is the CLI's byte
//! for byte and the CLI checks it with the crate's verdicts, and a damaged
//! blob is refused on both sides. The CLI is ROBOTSC_CLI (the coordinator's
//! build); without it these tests print why and pass.

mod common;
use common::*;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use robotsc::Robots;

const URLS: &[&str] = &[
    "https://example.com/",
    "https://example.com/private",
    "https://example.com/private/ok",
    "https://example.com/private/ok?x",
    "https://example.com/a/b.pdf",
    "https://example.com/a/b.pdf?x",
    "https://example.com/tmp/",
    "https://example.com/tmp/public/x",
    "https://example.com/%E2%82%AC/x",
    "https://example.com/\u{20ac}/x",
    "http://example.com",
];

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("robotsc-rs-{}-{}", tag, std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The CLI's verdicts for urls: `robotsc check --agent AGENT SOURCE` with
/// the URLs on standard input.
fn cli_check(cli: &Path, source: &Path, agent: &str, urls: &[&str]) -> Vec<bool> {
    let mut child = Command::new(cli)
        .args(["check", "--agent", agent])
        .arg(source)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = Vec::new();
    for u in urls {
        input.extend_from_slice(u.as_bytes());
        input.push(b'\n');
    }
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    // Exit 0 or 1 by the last verdict; 2 is an error.
    assert!(
        out.status.code().map_or(false, |c| c < 2),
        "robotsc check failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let v: Vec<bool> = text
        .lines()
        .map(|l| match l.split('\t').next() {
            Some("allow") => true,
            Some("disallow") => false,
            x => panic!("robotsc check printed {:?}", x),
        })
        .collect();
    assert_eq!(
        v.len(),
        urls.len(),
        "robotsc check answered {} of {} URLs",
        v.len(),
        urls.len()
    );
    v
}

#[test]
fn cli_blob_loads_here() {
    let cli = match cli() {
        Some(x) => x,
        None => {
            println!("SKIP: ROBOTSC_CLI is not set (the path of a built robotsc): blob interchange not tested");
            return;
        }
    };
    let d = tmpdir("cli2rs");
    let txt = d.join("robots.txt");
    let rbc = d.join("robots.rbc");
    std::fs::write(&txt, SAMPLE).unwrap();
    run(Command::new(&cli).arg("compile").arg(&txt).arg("-o").arg(&rbc));
    let blob = std::fs::read(&rbc).unwrap();
    let from_cli = Robots::load(&blob).unwrap();
    let here = Robots::parse(SAMPLE.as_bytes()).unwrap();
    assert_eq!(
        here.as_bytes(),
        &blob[..],
        "the crate and the CLI compile the same file to different blobs"
    );
    for agent in ["FooBot", "barbot", "OtherBot", "Foo Bot"] {
        let cli_v = cli_check(&cli, &txt, agent, URLS);
        for (u, want) in URLS.iter().zip(&cli_v) {
            assert_eq!(from_cli.allowed(u, agent), *want, "{} {}", agent, u);
        }
    }
    assert_eq!(
        from_cli.sitemaps(),
        vec!["https://example.com/sitemap.xml", "https://example.com/news.xml"]
    );
    assert_eq!(from_cli.crawl_delay("FooBot"), Some(2.5));
    std::fs::remove_dir_all(&d).ok();
}

#[test]
fn crate_blob_checks_in_cli() {
    let cli = match cli() {
        Some(x) => x,
        None => {
            println!("SKIP: ROBOTSC_CLI is not set: blob interchange not tested");
            return;
        }
    };
    let d = tmpdir("rs2cli");
    let rbc = d.join("rust.rbc");
    let r = Robots::parse(SAMPLE.as_bytes()).unwrap();
    std::fs::write(&rbc, r.as_bytes()).unwrap();
    for agent in ["FooBot", "BarBot", "OtherBot"] {
        let cli_v = cli_check(&cli, &rbc, agent, URLS);
        let mut mine = vec![false; URLS.len()];
        r.allowed_many(URLS, agent, &mut mine);
        assert_eq!(mine, cli_v, "{}", agent);
    }
    run(Command::new(&cli).arg("dump").arg(&rbc));
    // A damaged copy of the crate's blob is refused by the CLI too (exit 2),
    // not read as a robots.txt.
    let mut bad = r.as_bytes().to_vec();
    let mid = bad.len() / 2;
    bad[mid] ^= 0x10;
    let bad_path = d.join("bad.rbc");
    std::fs::write(&bad_path, &bad).unwrap();
    let out = Command::new(&cli)
        .args(["check", "--agent", "FooBot"])
        .arg(&bad_path)
        .arg("https://example.com/")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "the CLI took a damaged blob");
    assert!(Robots::load(&bad).is_err() && Robots::parse(&bad).is_err());
    std::fs::remove_dir_all(&d).ok();
}
