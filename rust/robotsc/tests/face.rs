// SPDX-License-Identifier: Apache-2.0
//! robotsc::texting_robots against the behaviour of the texting_robots
//! crate it stands in for: the same types and calls (Robot::new(agent,
//! bytes) -> Result, .allowed(url) on absolute and relative URLs, the
//! public .delay and .sitemaps fields, get_robots_url), with Google's
//! verdicts where the two libraries differ (FACE.md lists them).

use robotsc::texting_robots::{get_robots_url, ParseError, Robot};

const TXT: &[u8] = b"User-Agent: FerrisBot\nDisallow: /secret\nAllow: /secret/open\nCrawl-delay: 4\n\n\
User-agent: *\nDisallow: /admin\nCrawl-delay: 30\n\nSitemap: https://example.com/a.xml\nsitemap: https://example.com/b.xml\n";

#[test]
fn robot_reads_its_group() {
    let r = Robot::new("FerrisBot", TXT).unwrap();
    assert!(!r.allowed("https://example.com/secret"));
    assert!(!r.allowed("/secret/x"));
    assert!(r.allowed("/secret/open/x"));
    assert!(r.allowed("https://example.com/admin")); // not its group's rule
    assert_eq!(r.delay, Some(4.0));
    assert_eq!(
        r.sitemaps,
        vec![
            "https://example.com/a.xml".to_string(),
            "https://example.com/b.xml".to_string()
        ]
    );
}

#[test]
fn other_agents_get_the_star_group() {
    let r = Robot::new("BobBot", TXT).unwrap();
    assert!(r.allowed("https://example.com/secret"));
    assert!(!r.allowed("https://example.com/admin/x"));
    assert!(!r.allowed("/admin"));
    assert_eq!(r.delay, Some(30.0));
    // Agents are compared case-insensitively.
    let r = Robot::new("ferrisbot", TXT).unwrap();
    assert!(!r.allowed("/secret"));
    assert_eq!(r.delay, Some(4.0));
}

#[test]
fn urls_relative_absolute_and_empty() {
    let r = Robot::new("BobBot", b"User-agent: *\nDisallow: /x?\nDisallow: /*.gif$\n").unwrap();
    assert!(!r.allowed("https://news.example.com/x?id=1"));
    assert!(r.allowed("https://news.example.com/x"));
    assert!(!r.allowed("/a/b.gif"));
    assert!(r.allowed("/a/b.gif?v=2"));
    assert!(r.allowed(""));
    assert!(r.allowed("https://news.example.com"));
}

#[test]
fn no_delay_no_sitemaps_and_errors() {
    let r = Robot::new("BobBot", b"").unwrap();
    assert_eq!(r.delay, None);
    assert!(r.sitemaps.is_empty());
    assert!(r.allowed("/anything"));
    // A bad crawl-delay is no delay.
    let r = Robot::new("BobBot", b"User-agent: *\nCrawl-delay: soon\n").unwrap();
    assert_eq!(r.delay, None);
    assert_eq!(
        Robot::new("BobBot", b"User-agent: *\nCrawl-delay: 0.5\n")
            .unwrap()
            .delay,
        Some(0.5)
    );
    // Debug prints the fields.
    let s = format!("{:?}", r);
    assert!(s.contains("delay") && s.contains("sitemaps"), "{}", s);
    // A compiled blob is accepted; a damaged one is an error, never an
    // empty file that allows everything.
    let blob = robotsc::Robots::parse(TXT).unwrap().into_bytes();
    assert!(!Robot::new("FerrisBot", &blob).unwrap().allowed("/secret"));
    let mut bad = blob.clone();
    bad[blob.len() / 2] ^= 1;
    let e = Robot::new("FerrisBot", &bad).unwrap_err();
    let _boxed: Box<dyn std::error::Error + Send + Sync> = Box::new(e);
}

#[test]
fn robots_urls() {
    assert_eq!(
        get_robots_url("https://example.com/abc/file.html").unwrap(),
        "https://example.com/robots.txt"
    );
    assert_eq!(
        get_robots_url("HTTP://User:Pw@Example.COM:80/x?y#z").unwrap(),
        "http://example.com/robots.txt"
    );
    assert_eq!(
        get_robots_url("https://example.com:8443").unwrap(),
        "https://example.com:8443/robots.txt"
    );
    assert_eq!(
        get_robots_url("http://[::1]:8080/a").unwrap(),
        "http://[::1]:8080/robots.txt"
    );
    assert_eq!(get_robots_url("ftp://example.com/"), Err(ParseError::EmptyHost));
    assert_eq!(
        get_robots_url("mailto:me@example.com"),
        Err(ParseError::SetHostOnCannotBeABaseUrl)
    );
    assert_eq!(
        get_robots_url("/relative/path"),
        Err(ParseError::RelativeUrlWithoutBase)
    );
    assert_eq!(get_robots_url("http://"), Err(ParseError::EmptyHost));
    assert_eq!(
        get_robots_url("http://example.com:99999/"),
        Err(ParseError::InvalidPort)
    );
}

#[test]
fn texting_robots_readings_kept() {
    // A crawl-delay before any user-agent line applies to every crawler
    // without one of its own (texting_robots' reading; Google's groups
    // have no crawl-delay).
    let txt = b"Crawl-delay: 42\nUser-agent: *\nDisallow: /x\n\nUser-agent: FriendBot\nAllow: /\nCrawl-delay: 1\n";
    assert_eq!(Robot::new("BobBot", txt).unwrap().delay, Some(42.0));
    assert_eq!(Robot::new("FriendBot", txt).unwrap().delay, Some(1.0));
    // Its key spellings and its number reading (an f32, not negative).
    let r = Robot::new("a", b"User-agent: a\nCrawl delay: 7\nDisallow: /x\n").unwrap();
    assert_eq!(r.delay, Some(7.0));
    assert_eq!(
        Robot::new("a", b"User-agent: a\ncrawldelay: 1e3\n").unwrap().delay,
        Some(1000.0)
    );
    assert_eq!(
        Robot::new("a", b"User-agent: a\nCrawl-delay: -1\n").unwrap().delay,
        None
    );
    // "site map" lines are sitemaps, in file order; non-UTF-8 ones are left
    // out.
    let r = Robot::new("a", b"Sitemap: /a\nsite map: /b\nsite-map: /c\nSitemap: /\xff\n").unwrap();
    assert_eq!(r.sitemaps, vec!["/a", "/b", "/c"]);
    // Debug shows the rules.
    let r = Robot::new("a", b"User-agent: a\nAllow: /allow/\nDisallow: /disallow/\n").unwrap();
    let s = format!("{:?}", r);
    assert!(s.contains("/allow/") && s.contains("/disallow/"), "{}", s);
    // A host ends at its first ':' ("http://:::cnn.com/" has none).
    assert_eq!(get_robots_url("http://:::cnn.com/"), Err(ParseError::EmptyHost));
}
