// SPDX-License-Identifier: Apache-2.0
//! A sample of the shared corpus's real URL lists (every 8th list, the
//! robots.txt bench/jobs.awk pairs with it; every list with
//! ROBOTSC_CORPUS_ALL=1): the crate's verdicts equal the CLI's on every
//! URL, for Googlebot and for a crawler no file names.
//! Needs ../shared/corpus and ROBOTSC_CLI; without them it prints why and
//! passes.

mod common;
use common::*;

use std::io::Write;
use std::process::{Command, Stdio};

use robotsc::{Options, Robots};

#[test]
fn corpus_sample_equals_cli() {
    let c = match corpus() {
        Some(x) => x,
        None => {
            println!("SKIP: ../shared/corpus is absent: corpus sample not tested");
            return;
        }
    };
    let cli = match cli() {
        Some(x) => x,
        None => {
            println!("SKIP: ROBOTSC_CLI is not set: corpus sample not compared with the CLI");
            return;
        }
    };
    let lists = corpus_lists(&c);
    assert!(lists.len() > 300, "{} lists", lists.len());
    let (mut n_lists, mut n_urls, mut n_disallowed) = (0, 0, 0);
    let step = if std::env::var_os("ROBOTSC_CORPUS_ALL").is_some() {
        1
    } else {
        8
    };
    for (name, robots, urls) in lists.iter().step_by(step) {
        let body = std::fs::read(robots).unwrap();
        let text = std::fs::read(urls).unwrap();
        let list: Vec<&[u8]> = text
            .split(|&b| b == b'\n')
            .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
            .filter(|l| !l.is_empty())
            .collect();
        // --text and Options::text: read the bytes as Google does, even
        // the few that look binary.
        let r = Robots::parse_with(
            &body,
            &Options {
                text: true,
                ..Options::default()
            },
        )
        .unwrap();
        for agent in ["Googlebot", "ExampleBot"] {
            let mut child = Command::new(&cli)
                .args(["check", "--text", "--agent", agent])
                .arg(robots)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let mut stdin = child.stdin.take().unwrap();
            let input = text.clone();
            let w = std::thread::spawn(move || stdin.write_all(&input));
            let out = child.wait_with_output().unwrap();
            w.join().unwrap().unwrap();
            assert!(
                out.status.code().map_or(false, |c| c < 2),
                "{}: robotsc check failed",
                name
            );
            let verdicts: Vec<bool> = out
                .stdout
                .split(|&b| b == b'\n')
                .filter(|l| !l.is_empty())
                .map(|l| l.starts_with(b"allow\t"))
                .collect();
            assert_eq!(
                verdicts.len(),
                list.len(),
                "{}: the CLI answered {} of {} URLs",
                name,
                verdicts.len(),
                list.len()
            );
            for (u, want) in list.iter().zip(&verdicts) {
                assert_eq!(
                    r.allowed_bytes(u, agent.as_bytes()),
                    *want,
                    "{} {}: {}",
                    name,
                    agent,
                    String::from_utf8_lossy(u)
                );
                n_disallowed += !*want as usize;
            }
            n_urls += list.len();
        }
        n_lists += 1;
    }
    println!(
        "corpus sample: {} lists, {} checks equal to the CLI ({} disallowed)",
        n_lists, n_urls, n_disallowed
    );
    assert!(n_lists >= 40 && n_disallowed > 0);
}
