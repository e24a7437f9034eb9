// SPDX-License-Identifier: Apache-2.0
//! Every real URL list of the shared corpus (373 lists with a robots.txt,
//! with the robots.txt bench/jobs.awk pairs with each): the crate's
//! verdicts equal the CLI's on every URL, for Googlebot and for a crawler
//! no file names, through allowed_bytes, allowed, allowed_many and
//! allowed_user_agent. The CLI's start-up is most of the time (one run per
//! list and agent), so its runs go in parallel, one per CPU.
//! ROBOTSC_CORPUS_SAMPLE=N checks every Nth list only (while developing).
//! Needs ../shared/corpus and ROBOTSC_CLI; without them it prints why and
//! passes.

mod common;
use common::*;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use robotsc::{Options, Robots};

/// The crawlers: the name given to --agent, and a User-Agent header whose
/// product token is that name, for allowed_user_agent (the CLI's
/// --user-agent reduces it to the same token, so the same verdicts apply).
const AGENTS: [(&str, &str); 2] = [
    (
        "Googlebot",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    ),
    ("ExampleBot", "ExampleBot/1.0 (+https://example.com/bot)"),
];

/// Counts of one list: URLs, CLI verdicts, crate checks, disallowed verdicts.
#[derive(Default)]
struct Counts {
    urls: usize,
    verdicts: usize,
    checks: usize,
    disallowed: usize,
}

/// The CLI's verdicts (`robotsc check --text --agent AGENT ROBOTS` with
/// the list on standard input: it skips blank lines, drops a trailing CR).
fn cli_verdicts(cli: &Path, robots: &Path, agent: &str, text: &[u8]) -> Vec<bool> {
    let mut child = Command::new(cli)
        .args(["check", "--text", "--agent", agent])
        .arg(robots)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = text.to_vec();
    let w = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().unwrap();
    w.join().unwrap().unwrap();
    assert!(
        out.status.code().map_or(false, |c| c < 2),
        "{}: robotsc check failed: {}",
        robots.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| {
            assert!(
                l.starts_with(b"allow\t") || l.starts_with(b"disallow\t"),
                "CLI line {:?}",
                String::from_utf8_lossy(l)
            );
            l.starts_with(b"allow\t")
        })
        .collect()
}

fn check_list(cli: &Path, name: &str, robots: &Path, urls: &Path) -> Counts {
    let body = std::fs::read(robots).unwrap();
    let text = std::fs::read(urls).unwrap();
    let list: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| !l.is_empty())
        .collect();
    assert!(!list.is_empty(), "{}: an empty URL list", name);
    // The str entry points take the URLs that are UTF-8 (all of the
    // corpus's, today); allowed_bytes takes every one.
    let strs: Vec<&str> = list.iter().filter_map(|u| std::str::from_utf8(u).ok()).collect();
    // --text and Options::text: read the bytes as Google does, even the
    // few that look binary.
    let r = Robots::parse_with(
        &body,
        &Options {
            text: true,
            ..Options::default()
        },
    )
    .unwrap();
    let mut c = Counts {
        urls: list.len(),
        ..Counts::default()
    };
    for (agent, header) in AGENTS {
        let verdicts = cli_verdicts(cli, robots, agent, &text);
        assert_eq!(
            verdicts.len(),
            list.len(),
            "{}: the CLI answered {} of {} URLs",
            name,
            verdicts.len(),
            list.len()
        );
        let mut many = vec![false; strs.len()];
        r.allowed_many(&strs, agent, &mut many);
        let mut k = 0;
        for (u, want) in list.iter().zip(&verdicts) {
            let shown = String::from_utf8_lossy(u);
            assert_eq!(
                r.allowed_bytes(u, agent.as_bytes()),
                *want,
                "{} {}: allowed_bytes {}",
                name,
                agent,
                shown
            );
            c.checks += 1;
            if let Ok(s) = std::str::from_utf8(u) {
                assert_eq!(r.allowed(s, agent), *want, "{} {}: allowed {}", name, agent, s);
                assert_eq!(many[k], *want, "{} {}: allowed_many {}", name, agent, s);
                assert_eq!(
                    r.allowed_user_agent(s, header),
                    *want,
                    "{} {:?}: allowed_user_agent {}",
                    name,
                    header,
                    s
                );
                c.checks += 3;
                k += 1;
            }
            c.disallowed += !*want as usize;
        }
        c.verdicts += list.len();
    }
    c
}

#[test]
fn corpus_every_list_equals_cli() {
    let c = match corpus() {
        Some(x) => x,
        None => {
            println!("SKIP: ../shared/corpus is absent: the corpus lists are not tested");
            return;
        }
    };
    let cli = match cli() {
        Some(x) => x,
        None => {
            println!("SKIP: ROBOTSC_CLI is not set: the corpus lists are not compared with the CLI");
            return;
        }
    };
    let lists = corpus_lists(&c);
    assert!(lists.len() > 300, "{} lists", lists.len());
    let step = match std::env::var("ROBOTSC_CORPUS_SAMPLE") {
        Ok(s) => s
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .unwrap_or_else(|| panic!("ROBOTSC_CORPUS_SAMPLE={:?}: a positive number is needed", s)),
        Err(_) => 1,
    };
    let jobs: Vec<&(String, PathBuf, PathBuf)> = lists.iter().step_by(step).collect();
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Counts::default());
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    // A failed assertion panics its worker, and the scope then panics.
    std::thread::scope(|s| {
        for _ in 0..workers {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                // (no let-else: Debian's rustc 1.63 has none)
                let (name, robots, urls) = match jobs.get(i) {
                    Some(j) => j,
                    None => break,
                };
                let n = check_list(&cli, name, robots, urls);
                let mut t = total.lock().unwrap();
                t.urls += n.urls;
                t.verdicts += n.verdicts;
                t.checks += n.checks;
                t.disallowed += n.disallowed;
            });
        }
    });
    let t = total.into_inner().unwrap();
    println!(
        "corpus: {} of {} lists, {} URLs, {} CLI verdicts ({} agents; {} disallow), {} crate checks equal to the CLI",
        jobs.len(),
        lists.len(),
        t.urls,
        t.verdicts,
        AGENTS.len(),
        t.disallowed,
        t.checks
    );
    // Links found on pages are mostly allowed, but not all: a comparison
    // that never sees a disallow would prove little.
    assert!(t.disallowed > 0 && t.disallowed < t.verdicts);
    assert_eq!(t.verdicts, t.urls * AGENTS.len());
}
