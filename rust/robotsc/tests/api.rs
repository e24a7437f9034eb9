// SPDX-License-Identifier: Apache-2.0
//! The safe API beyond `allowed`: explain, selections of several names,
//! User-Agent headers, crawl-delay and request-rate, sitemaps and
//! directives, diff, lint, the rfc profile, and the blob round trip.

mod common;
use common::*;

use robotsc::{DiffOutcome, Error, Options, Profile, Robots, Severity};

#[test]
fn explain_names_the_rule() {
    let r = Robots::parse(SAMPLE.as_bytes()).unwrap();
    let e = r.explain("https://example.com/private/x", "FooBot");
    assert!(!e.allowed && e.decided);
    assert_eq!(
        (e.line, e.allow_rule, e.pattern.as_deref()),
        (3, Some(false), Some("/private"))
    );
    assert_eq!(e.priority, 8);
    let e = r.explain("https://example.com/private/ok", "FooBot");
    assert!(e.allowed);
    assert_eq!((e.line, e.allow_rule), (4, Some(true)));
    let e = r.explain("https://example.com/elsewhere", "FooBot");
    assert!(e.allowed && !e.decided);
    assert_eq!((e.line, e.allow_rule, e.pattern), (0, None, None));
}

#[test]
fn agents_tokens_and_headers() {
    let r = Robots::parse(SAMPLE.as_bytes()).unwrap();
    // Several names at once (spec F.7): the union of their groups.
    let s = r.select(&["OtherBot", "BarBot"]).unwrap();
    assert!(!s.allowed("https://example.com/private"));
    assert!(!r.allowed("https://example.com/private", "barbot"));
    assert!(r.allowed("https://example.com/private", "OtherBot"));
    // A header is reduced to its product token.
    let ua = "Mozilla/5.0 (compatible; FooBot/2.1; +http://foo.example/bot)";
    assert_eq!(robotsc::user_agent_token(ua), Some("FooBot"));
    assert!(!r.allowed_user_agent("https://example.com/private", ua));
    assert!(
        r.select_user_agent(ua)
            .unwrap()
            .explain("https://example.com/private")
            .decided
    );
    // A name is never cut: "FooBot/1.0" is not a token and gets '*'.
    assert!(!robotsc::is_product_token("FooBot/1.0"));
    assert!(r.allowed("https://example.com/private", "FooBot/1.0"));
    assert!(!r.allowed("https://example.com/tmp/x", "FooBot/1.0"));
    assert!(r.select(&["FooBot/1.0"]).unwrap().has_non_token_agents());
    // No names at all is an error, not a verdict.
    let none: [&str; 0] = [];
    assert!(matches!(r.select(&none), Err(Error::Select(_))));
}

#[test]
fn delays_rates_sitemaps_directives() {
    let r = Robots::parse(SAMPLE.as_bytes()).unwrap();
    assert_eq!(r.crawl_delay("FooBot"), Some(2.5));
    assert_eq!(r.crawl_delay("OtherBot"), None);
    assert_eq!(r.request_rate("OtherBot"), Some((1, 10.0)));
    assert_eq!(
        r.sitemaps(),
        vec!["https://example.com/sitemap.xml", "https://example.com/news.xml"]
    );
    let d = r.directives();
    assert_eq!(d.len(), 2);
    assert_eq!(
        (d[0].line, d[0].key.as_str(), d[0].value.as_str()),
        (6, "Crawl-delay", "2.5")
    );
    assert_eq!(
        r.select(&["OtherBot"])
            .unwrap()
            .group_directive("request-rate")
            .as_deref(),
        Some("1/10s")
    );
    assert_eq!(r.select(&["OtherBot"]).unwrap().uniform(), None);
    let all = Robots::parse(b"User-agent: *\nDisallow: /\n").unwrap();
    assert_eq!(all.select(&["x"]).unwrap().uniform(), Some(false));
}

#[test]
fn blob_round_trip_and_clone() {
    let r = Robots::parse(SAMPLE.as_bytes()).unwrap();
    let again = Robots::load(r.as_bytes()).unwrap();
    let copy = r.clone();
    assert_eq!(again.as_bytes(), r.as_bytes());
    assert_eq!(copy.as_bytes(), r.as_bytes());
    // parse() of a blob loads it (it is not compiled as a text).
    let via_parse = Robots::parse(r.as_bytes()).unwrap();
    assert!(!via_parse.allowed("https://example.com/private", "FooBot"));
    assert_eq!(
        robotsc::compile(SAMPLE.as_bytes(), Profile::Google).unwrap(),
        r.clone().into_bytes()
    );
    assert_eq!(r.profile(), Profile::Google);
    assert!(format!("{:?}", r).contains("Robots"));
}

#[test]
fn rfc_profile() {
    let body = b"User-agent: *\nDisallow: /\n";
    let g = Robots::parse(body).unwrap();
    let rfc = Robots::parse_with(
        body,
        &Options {
            profile: Profile::Rfc,
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(rfc.profile(), Profile::Rfc);
    // RFC 9309 2.4: /robots.txt is always allowed; Google's library has no
    // such rule.
    assert!(rfc.allowed("https://example.com/robots.txt", "x"));
    assert!(!g.allowed("https://example.com/robots.txt", "x"));
}

#[test]
fn diff_finds_the_change() {
    let old = Robots::parse(b"User-agent: *\nDisallow: /a\n").unwrap();
    let new = Robots::parse(b"User-agent: *\nDisallow: /a\nDisallow: /b\n").unwrap();
    let d = old.diff(&new, None, 3, 0).unwrap();
    assert_eq!(d.outcome, DiffOutcome::Different);
    let star = d.agents.iter().find(|a| a.agent == "*").unwrap();
    assert!(star
        .flips
        .iter()
        .any(|f| f.path.starts_with(b"/b") && f.old_allowed && !f.new_allowed && f.new_line == 3));
    let same = old.diff(&old.clone(), Some(&["FooBot"]), 3, 0).unwrap();
    assert_eq!(same.outcome, DiffOutcome::Same);
    let rfc = Robots::parse_with(
        b"",
        &Options {
            profile: Profile::Rfc,
            ..Options::default()
        },
    )
    .unwrap();
    assert!(matches!(old.diff(&rfc, None, 1, 0), Err(Error::Diff(_))));
}

#[test]
fn lint_reports_problems() {
    let body = b"User-agent: *\nDisalow: /x\nDisallow: /a\nDisallow: /a\nCrawl-delay: soon\n";
    let d = Robots::lint(body, Profile::Google, true).unwrap();
    let codes: Vec<(&str, u32)> = d.iter().map(|x| (x.code, x.line)).collect();
    assert!(codes.contains(&("typo", 2)), "{:?}", codes);
    assert!(
        codes.contains(&("dead-rule", 4)) || codes.contains(&("dead-rule", 3)),
        "{:?}",
        codes
    );
    assert!(codes.contains(&("bad-crawl-delay", 5)), "{:?}", codes);
    assert!(d
        .iter()
        .all(|x| x.severity == Severity::Warning || x.severity == Severity::Note));
    let syntax_only = Robots::lint(body, Profile::Google, false).unwrap();
    assert!(syntax_only.iter().all(|x| x.code != "dead-rule"));
}
