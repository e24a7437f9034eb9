// SPDX-License-Identifier: Apache-2.0
//! Helpers shared by the integration tests: the repository's paths, the
//! conformance data's encodings, and the CLI.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::Command;

/// The repository root (rust/robotsc/../..).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join("..")
}

/// The shared corpus (../shared/corpus next to the repository), if present.
pub fn corpus() -> Option<PathBuf> {
    let c = std::env::var_os("ROBOTSC_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("..").join("shared").join("corpus"));
    c.join("urls-index.tsv").exists().then_some(c)
}

/// The robotsc CLI named by ROBOTSC_CLI, or None (the caller prints why
/// it skips).
pub fn cli() -> Option<PathBuf> {
    let p = PathBuf::from(std::env::var_os("ROBOTSC_CLI")?);
    if p.exists() {
        Some(p)
    } else {
        panic!("ROBOTSC_CLI={} does not exist", p.display());
    }
}

pub fn run(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {:?}: {}", cmd, e));
    assert!(
        out.status.success(),
        "{:?} failed ({}): {}",
        cmd,
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// Standard base64 (the conformance files' robots_b64 column).
pub fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| -> u32 {
        match c {
            b'A'..=b'Z' => (c - b'A') as u32,
            b'a'..=b'z' => (c - b'a' + 26) as u32,
            b'0'..=b'9' => (c - b'0' + 52) as u32,
            b'+' => 62,
            b'/' => 63,
            _ => panic!("bad base64 byte {:?}", c as char),
        }
    };
    let b: Vec<u8> = s.bytes().filter(|&c| c != b'=').collect();
    let mut out = Vec::with_capacity(b.len() * 3 / 4);
    for chunk in b.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= val(c) << (18 - 6 * i);
        }
        let bytes = [(n >> 16) as u8, (n >> 8) as u8, n as u8];
        out.extend_from_slice(&bytes[..chunk.len() - 1]);
    }
    out
}

/// The helper files' C escapes: \\ \" \n \r \t and \ooo.
pub fn unescape(s: &str) -> Vec<u8> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            out.push(b[i]);
            i += 1;
            continue;
        }
        let c = b[i + 1];
        match c {
            b'\\' | b'"' => out.push(c),
            b'n' => out.push(b'\n'),
            b'r' => out.push(b'\r'),
            b't' => out.push(b'\t'),
            b'0'..=b'7' => {
                let o = std::str::from_utf8(&b[i + 1..i + 4]).unwrap();
                out.push(u8::from_str_radix(o, 8).unwrap());
                i += 2;
            }
            _ => panic!("bad escape in {:?}", s),
        }
        i += 2;
    }
    out
}

/// One verdict row of tests/data/conformance/*_cases.tsv.
pub struct Case {
    pub id: String,
    pub body: Vec<u8>,
    pub agent: String,
    pub url: String,
    pub expected: bool,
}

pub fn cases(file: &str) -> Vec<Case> {
    let p = root().join("tests/data/conformance").join(file);
    let text = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {}", p.display(), e));
    let mut v = Vec::new();
    for line in text.split(|&b| b == b'\n').filter(|l| !l.is_empty()) {
        let f: Vec<&[u8]> = line.split(|&b| b == b'\t').collect();
        assert_eq!(f.len(), 5, "{}: a row of {} fields", file, f.len());
        let s = |b: &[u8]| String::from_utf8(b.to_vec()).expect("agent and URL of the verdict files are UTF-8");
        v.push(Case {
            id: s(f[0]),
            body: base64(std::str::from_utf8(f[1]).unwrap()),
            agent: s(f[2]),
            url: s(f[3]),
            expected: match f[4] {
                b"1" => true,
                b"0" => false,
                x => panic!("expected {:?}", x),
            },
        });
    }
    v
}

/// (name, robots.txt, URL list) of the corpus's benchmark lists, as
/// bench/jobs.awk picks them.
pub fn corpus_lists(c: &std::path::Path) -> Vec<(String, PathBuf, PathBuf)> {
    let idx = std::fs::read_to_string(c.join("urls-index.tsv")).unwrap();
    let mut v = Vec::new();
    for line in idx.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let r = if !f[4].is_empty() && f[4] != "-" { f[4] } else { f[5] };
        if r.is_empty() || r == "-" {
            continue;
        }
        v.push((f[1].to_string(), c.join(r), c.join(f[0])));
    }
    v
}

/// A robots.txt with something of everything: groups, wildcards, '$',
/// percent escapes, crawl-delay, sitemaps.
pub const SAMPLE: &str = "User-agent: FooBot\nUser-agent: BarBot\nDisallow: /private\nAllow: /private/ok$\n\
Disallow: /*.pdf$\nCrawl-delay: 2.5\n\nUser-agent: *\nDisallow: /tmp/\nAllow: /tmp/public\nDisallow: /%E2%82%AC\n\
Request-rate: 1/10s\n\nSitemap: https://example.com/sitemap.xml\nSitemap: https://example.com/news.xml\n";
