// SPDX-License-Identifier: Apache-2.0
//! bench/rust: the Rust binding against C, in one process, on the corpus's
//! URL lists (the pairs bench/jobs.awk picks). Per list and mode, the
//! median of ROUNDS rounds of at least MIN_MS of the thread's CPU time
//! each (the machine may be shared: time descheduled is not counted), C
//! and Rust rounds
//! interleaved so that a drift of the machine's speed hits both; then the
//! ratio Rust/C per list, and the median over lists ("the median list").
//!
//! Modes (Rust side; the C side is c_loop.c):
//! - check: `robots.allowed(url, agent)` for each URL (the cached agent's
//!   selection, the URL borrowed) vs a C loop of rsc_match_url.
//! - selection: `selection.allowed(url)` vs the same C loop.
//! - batch: one `robots.allowed_many(&urls, agent, &mut out)` vs the C loop.
//! - parse: `Robots::parse_with(body)` (classify, compile, copy, verify)
//!   vs classify, rsc_compile, rsc_load, free in C.
//!
//! Usage: robotsc-bench-rust [--corpus DIR] [--agent A] [--lists N]
//!          [--list NAME] [--rounds R] [--min-ms M] [--per-list FILE.tsv]
//!          [--lang-tsv FILE.tsv]
//! --list NAME measures that list alone; --lang-tsv writes bench/run.sh's
//! per-language rows (bench/rust/run.sh).
//! Prints a summary TSV (language, mode, ns_per_check, c_ns, ratio: the
//! medians over lists) on stdout and notes on stderr.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use robotsc::sys;
use robotsc::{Options, Robots};

extern "C" {
    fn rsc_bench_c_checks(sel: *const sys::rsc_selection, urls: *const sys::rsc_bytes, n: usize) -> usize;
    fn rsc_bench_c_parse(body: *const std::os::raw::c_void, len: usize) -> std::os::raw::c_int;
}

struct Args {
    corpus: PathBuf,
    agent: String,
    lists: usize,
    rounds: usize,
    min_ms: f64,
    per_list: Option<PathBuf>,
    only: Option<String>,
    lang_tsv: Option<PathBuf>,
}

fn args() -> Args {
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut a = Args {
        corpus: here.join("../../../shared/corpus"),
        agent: "Googlebot".into(),
        lists: usize::MAX,
        rounds: 5,
        min_ms: 5.0,
        per_list: None,
        only: None,
        lang_tsv: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().unwrap_or_else(|| panic!("{} needs a value", k));
        match k.as_str() {
            "--corpus" => a.corpus = PathBuf::from(v()),
            "--agent" => a.agent = v(),
            "--lists" => a.lists = v().parse().expect("--lists N"),
            "--rounds" => a.rounds = v().parse().expect("--rounds N"),
            "--min-ms" => a.min_ms = v().parse().expect("--min-ms M"),
            "--per-list" => a.per_list = Some(PathBuf::from(v())),
            "--list" => a.only = Some(v()),
            "--lang-tsv" => a.lang_tsv = Some(PathBuf::from(v())),
            _ => panic!("unknown argument {} (see the top of bench/rust/src/main.rs)", k),
        }
    }
    a
}

/// (name, robots.txt, URL list), as bench/jobs.awk picks them.
fn lists(c: &Path, max: usize) -> Vec<(String, PathBuf, PathBuf)> {
    let idx = std::fs::read_to_string(c.join("urls-index.tsv"))
        .unwrap_or_else(|e| panic!("{}: {} (--corpus DIR)", c.join("urls-index.tsv").display(), e));
    let mut v = Vec::new();
    for line in idx.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let r = if !f[4].is_empty() && f[4] != "-" { f[4] } else { f[5] };
        if r.is_empty() || r == "-" {
            continue;
        }
        v.push((f[1].to_string(), c.join(r), c.join(f[0])));
        if v.len() == max {
            break;
        }
    }
    v
}

#[repr(C)]
struct Timespec {
    sec: i64,
    nsec: i64,
}

extern "C" {
    fn clock_gettime(clock: i32, ts: *mut Timespec) -> i32;
}

/// This thread's CPU time in ns (CLOCK_THREAD_CPUTIME_ID): the machine is
/// shared, and time spent descheduled is no one's cost. Wall time when
/// the clock is missing.
fn cpu_ns(start: &Instant) -> f64 {
    const CLOCK_THREAD_CPUTIME_ID: i32 = 3;
    let mut ts = Timespec { sec: 0, nsec: 0 };
    // SAFETY: ts is a valid timespec (x86_64 and aarch64 Linux layout).
    if cfg!(target_os = "linux") && unsafe { clock_gettime(CLOCK_THREAD_CPUTIME_ID, &mut ts) } == 0 {
        ts.sec as f64 * 1e9 + ts.nsec as f64
    } else {
        start.elapsed().as_nanos() as f64
    }
}

/// Nanoseconds per unit of `f` (which does `units` units a call) over one
/// round of at least min_ns of CPU time.
fn time_round(min_ns: f64, units: usize, f: &mut dyn FnMut()) -> f64 {
    let mut reps = 0u64;
    let wall = Instant::now();
    let t0 = cpu_ns(&wall);
    loop {
        f();
        reps += 1;
        let e = cpu_ns(&wall) - t0;
        if e >= min_ns {
            return e / (reps as f64 * units as f64);
        }
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// (rust ns, c ns): medians of interleaved rounds after one warm-up each.
fn pair(a: &Args, units: usize, rust: &mut dyn FnMut(), c: &mut dyn FnMut()) -> (f64, f64) {
    let min_ns = a.min_ms * 1e6;
    rust();
    c();
    let (mut r, mut k) = (Vec::new(), Vec::new());
    for i in 0..a.rounds {
        // Alternate which goes first within a round.
        if i % 2 == 0 {
            k.push(time_round(min_ns, units, c));
            r.push(time_round(min_ns, units, rust));
        } else {
            r.push(time_round(min_ns, units, rust));
            k.push(time_round(min_ns, units, c));
        }
    }
    (median(&mut r), median(&mut k))
}

const MODES: [&str; 4] = ["check", "selection", "batch", "parse"];

fn main() {
    let a = args();
    let mut jobs = lists(&a.corpus, a.lists);
    if let Some(only) = &a.only {
        jobs.retain(|j| &j.0 == only);
    }
    assert!(!jobs.is_empty(), "no URL lists under {}", a.corpus.display());
    let mut per_list = String::from("list\turls\tmode\trust_ns\tc_ns\tratio\n");
    // Per mode: (rust ns, c ns, ratio) per list.
    let mut figs: Vec<Vec<(f64, f64, f64)>> = vec![Vec::new(); MODES.len()];
    let mut n_urls = 0usize;
    for (name, robots_path, urls_path) in &jobs {
        let body = std::fs::read(robots_path).unwrap();
        let text = std::fs::read_to_string(urls_path)
            .unwrap_or_else(|_| String::from_utf8_lossy(&std::fs::read(urls_path).unwrap()).into_owned());
        let urls: Vec<&str> = text
            .lines()
            .map(|l| l.trim_end_matches('\r'))
            .filter(|l| !l.is_empty())
            .collect();
        if urls.is_empty() {
            continue;
        }
        n_urls += urls.len();
        let opt = Options {
            text: true,
            ..Options::default()
        };
        let robots = Robots::parse_with(&body, &opt).unwrap();
        let sel = robots.select(&[a.agent.as_str()]).unwrap();
        let spans: Vec<sys::rsc_bytes> = urls
            .iter()
            .map(|u| sys::rsc_bytes {
                ptr: u.as_ptr() as *const _,
                len: u.len(),
            })
            .collect();
        let agent = a.agent.as_str();
        // The same verdicts on both sides, or the comparison means nothing.
        let c_allowed = unsafe { rsc_bench_c_checks(sel.as_raw(), spans.as_ptr(), spans.len()) };
        let r_allowed = urls.iter().filter(|u| robots.allowed(u, agent)).count();
        let mut out = vec![false; urls.len()];
        let b_allowed = robots.allowed_many(&urls, agent, &mut out);
        assert!(
            c_allowed == r_allowed && r_allowed == b_allowed,
            "{}: C {} Rust {} batch {} allowed",
            name,
            c_allowed,
            r_allowed,
            b_allowed
        );

        let mut c_loop = || {
            black_box(unsafe { rsc_bench_c_checks(sel.as_raw(), black_box(spans.as_ptr()), spans.len()) });
        };
        let results = [
            pair(
                &a,
                urls.len(),
                &mut || {
                    let mut n = 0usize;
                    for u in &urls {
                        n += robots.allowed(black_box(u), black_box(agent)) as usize;
                    }
                    black_box(n);
                },
                &mut c_loop,
            ),
            pair(
                &a,
                urls.len(),
                &mut || {
                    let mut n = 0usize;
                    for u in &urls {
                        n += sel.allowed(black_box(u)) as usize;
                    }
                    black_box(n);
                },
                &mut c_loop,
            ),
            pair(
                &a,
                urls.len(),
                &mut || {
                    black_box(robots.allowed_many(black_box(&urls), agent, &mut out));
                },
                &mut c_loop,
            ),
            pair(
                &a,
                1,
                &mut || {
                    black_box(Robots::parse_with(black_box(&body), &opt).is_ok());
                },
                &mut || {
                    black_box(unsafe { rsc_bench_c_parse(black_box(body.as_ptr()) as *const _, body.len()) });
                },
            ),
        ];
        for (m, (r, c)) in results.iter().enumerate() {
            let ratio = r / c;
            figs[m].push((*r, *c, ratio));
            per_list.push_str(&format!(
                "{}\t{}\t{}\t{:.2}\t{:.2}\t{:.3}\n",
                name,
                urls.len(),
                MODES[m],
                r,
                c,
                ratio
            ));
        }
    }
    if let Some(p) = &a.per_list {
        std::fs::write(p, &per_list).unwrap();
    }
    eprintln!(
        "bench/rust: {} lists, {} URLs, agent {}, {} rounds of >= {} ms per list and side (robotsc {})",
        figs[0].len(),
        n_urls,
        a.agent,
        a.rounds,
        a.min_ms,
        robotsc::c_version()
    );
    if let Some(p) = &a.lang_tsv {
        // bench/run.sh's per-language table (step 8): one row per mode, the
        // list's figures (with --list, the one list).
        let mut t = String::from("language\tmode\tlist\turls\tns_per_check\tc_ns_per_check\tnote\n");
        let name = if figs[0].len() == 1 {
            jobs[0].0.as_str()
        } else {
            "median list"
        };
        for (m, mode, note) in [
            (0, "single", "Robots::allowed(url, agent), the agent's selection cached"),
            (
                2,
                "batch",
                "Robots::allowed_many(&urls, agent, &mut out), one call into C",
            ),
        ] {
            let mut r: Vec<f64> = figs[m].iter().map(|x| x.0).collect();
            let mut c: Vec<f64> = figs[m].iter().map(|x| x.1).collect();
            t.push_str(&format!(
                "Rust\t{}\t{}\t{}\t{:.2}\t{:.2}\t{}\n",
                mode,
                name,
                n_urls,
                median(&mut r),
                median(&mut c),
                note
            ));
        }
        std::fs::write(p, t).unwrap();
    }
    println!("language\tmode\tns_per_check\tc_ns\tratio");
    for (m, f) in figs.iter().enumerate() {
        let mut r: Vec<f64> = f.iter().map(|x| x.0).collect();
        let mut c: Vec<f64> = f.iter().map(|x| x.1).collect();
        let mut q: Vec<f64> = f.iter().map(|x| x.2).collect();
        println!(
            "rust\t{}\t{:.2}\t{:.2}\t{:.3}",
            MODES[m],
            median(&mut r),
            median(&mut c),
            median(&mut q)
        );
    }
}
