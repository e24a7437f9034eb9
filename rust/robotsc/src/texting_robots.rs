// SPDX-License-Identifier: Apache-2.0
//! The API of the `texting_robots` crate over robotsc, so that a crawler
//! switches with one import:
//!
//! ```
//! // use texting_robots::{get_robots_url, Robot};
//! use robotsc::texting_robots::{get_robots_url, Robot};
//!
//! let r = Robot::new("Ferris", b"User-agent: *\nDisallow: /secret").unwrap();
//! assert_eq!(r.allowed("https://example.com/secret"), false);
//! assert_eq!(r.allowed("/secret"), false);
//! assert_eq!(r.allowed("/everything-else"), true);
//! assert_eq!(get_robots_url("https://example.com/abc/file.html").unwrap(),
//!            "https://example.com/robots.txt");
//! ```
//!
//! The verdicts are Google's (the reference library's), not
//! texting_robots' own: rust/robotsc/FACE.md lists where they differ.
//! `Robot::new` returns this module's [`Error`] (a `std::error::Error +
//! Send + Sync`, so `?` into `anyhow::Error` works as before).

use std::fmt;

use crate::{InputKind, Robots};

/// Why [`Robot::new`] refused the bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// texting_robots' error for a robots.txt its parser could not read.
    /// robotsc reads any bytes as Google does, so `Robot::new` never
    /// returns it; it is here so that code naming it builds unchanged.
    InvalidRobots,
    /// A robotsc blob that failed verification, or bytes that look like a
    /// damaged blob (never read as a robots.txt that allows everything).
    Robotsc(crate::Error),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::InvalidRobots => f.write_str("Failed to parse robots.txt"),
            Error::Robotsc(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Robotsc(e) => Some(e),
            Error::InvalidRobots => None,
        }
    }
}

impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Self {
        Error::Robotsc(e)
    }
}

/// A robots.txt read for one crawler: its verdicts, its crawl-delay and
/// the file's sitemaps.
pub struct Robot {
    robots: Robots,
    agent: String,
    /// Crawl-delay in seconds: the first crawl-delay (or "crawl delay",
    /// "crawldelay") of the groups that apply to the agent, as Google
    /// groups lines, read as texting_robots reads it (an f32, not
    /// negative); when there is none, a crawl-delay written before the
    /// first user-agent line.
    pub delay: Option<f32>,
    /// The file's sitemap URLs (for any crawler), in file order; those
    /// that are not UTF-8 are left out, as texting_robots leaves them.
    pub sitemaps: Vec<String>,
}

impl fmt::Debug for Robot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The rules as the blob holds them (rsc_dump's "rules" section).
        let dump = self.robots.dump();
        let rules: Vec<&str> = dump
            .lines()
            .skip_while(|l| !l.starts_with("rules "))
            .skip(1)
            .take_while(|l| l.starts_with(' '))
            .map(str::trim)
            .collect();
        f.debug_struct("Robot")
            .field("agent", &self.agent)
            .field("rules", &rules)
            .field("delay", &self.delay)
            .field("sitemaps", &self.sitemaps)
            .finish()
    }
}

/// texting_robots' reading of a crawl-delay value.
fn delay_value(v: &str) -> Option<f32> {
    v.trim().parse::<f32>().ok().filter(|d| *d >= 0.0)
}

const DELAY_KEYS: [&str; 3] = ["crawl-delay", "crawl delay", "crawldelay"];

/// The first line of `txt` whose key is a user-agent key (Google's line
/// ends: LF, CR LF, CR), or None.
fn first_agent_line(txt: &[u8]) -> Option<u32> {
    let mut line = 1u32;
    let mut i = 0;
    while i < txt.len() {
        let end = txt[i..]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
            .map_or(txt.len(), |p| i + p);
        let l = &txt[i..end];
        let key = l.split(|&b| b == b':').next().unwrap_or(&[]);
        let key = String::from_utf8_lossy(key).trim().to_ascii_lowercase();
        if l.contains(&b':') && matches!(key.as_str(), "user-agent" | "useragent" | "user agent") {
            return Some(line);
        }
        i = end
            + if txt.get(end) == Some(&b'\r') && txt.get(end + 1) == Some(&b'\n') {
                2
            } else {
                1
            };
        line += 1;
    }
    None
}

impl Robot {
    /// Reads `txt` for the crawler named `agent` (a product token such as
    /// "FerrisBot"; compared case-insensitively, as Google does). Any bytes
    /// are read as a robots.txt, as texting_robots reads them, except that
    /// bytes beginning with robotsc's blob magic are a compiled blob (an
    /// error when it does not verify, or looks damaged: never read as an
    /// empty robots.txt that allows everything).
    pub fn new(agent: &str, txt: &[u8]) -> Result<Self, Error> {
        let (robots, text) = match crate::classify(txt) {
            InputKind::Blob => (Robots::load(txt)?, false),
            InputKind::DamagedBlob => {
                return Err(Error::Robotsc(crate::Error::DamagedBlob(crate::input_what(
                    robotsc_sys::RSC_INPUT_DAMAGED,
                ))))
            }
            _ => (Robots::from_vec(crate::compile(txt, crate::Profile::Google)?)?, true),
        };
        let sel = robots.select(&[agent])?;
        // The first of the three keys in the selected groups.
        let mut first: Option<(u32, String)> = None;
        for key in DELAY_KEYS {
            if let Some((line, v)) = sel.group_directive_line(key) {
                if first.as_ref().map_or(true, |(l, _)| line < *l) {
                    first = Some((line, v));
                }
            }
        }
        let mut delay = first.and_then(|(_, v)| delay_value(&v));
        if delay.is_none() && text {
            // texting_robots applies a crawl-delay written before any
            // user-agent line to every crawler (the last such one).
            let limit = first_agent_line(txt).unwrap_or(u32::MAX);
            for d in robots.directives() {
                if d.line < limit && DELAY_KEYS.contains(&d.key.to_ascii_lowercase().as_str()) {
                    if let Some(v) = delay_value(&d.value) {
                        delay = Some(v);
                    }
                }
            }
        }
        // Sitemaps, and the "site map" lines texting_robots also takes
        // (Google's parser knows "sitemap" and "site-map" only), in file
        // order.
        let mut sitemaps: Vec<(u32, String)> = robots
            .sitemaps_raw()
            .into_iter()
            .filter_map(|(line, b)| std::str::from_utf8(b).ok().map(|u| (line, u.to_string())))
            .collect();
        for d in robots.directives() {
            if d.key.eq_ignore_ascii_case("site map") && !d.value.is_empty() {
                sitemaps.push((d.line, d.value));
            }
        }
        sitemaps.sort_by_key(|x| x.0);
        let sitemaps = sitemaps.into_iter().map(|x| x.1).collect();
        // Select once more through the cache: the first agent a Robots is
        // asked about is the one whose selection it keeps.
        robots.allowed("/", agent);
        Ok(Robot {
            robots,
            agent: agent.to_string(),
            delay,
            sitemaps,
        })
    }

    /// May the agent fetch `url` (absolute, or a path such as "/a?b")?
    #[inline]
    pub fn allowed(&self, url: &str) -> bool {
        self.robots.allowed(url, &self.agent)
    }

    /// The compiled file behind this Robot (robotsc's full API).
    pub fn robots(&self) -> &Robots {
        &self.robots
    }
}

/// Why [`get_robots_url`] found no robots.txt for a URL. The variants are
/// named as the `url` crate's ParseError ones texting_robots returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ParseError {
    /// Not an absolute URL ("example.com/x", "/x").
    RelativeUrlWithoutBase,
    /// A URL that cannot be a base ("mailto:me@example.com").
    SetHostOnCannotBeABaseUrl,
    /// No host ("http:///x"), or a scheme other than http and https
    /// (texting_robots says EmptyHost for both).
    EmptyHost,
    /// A port that is not a number in 0..65535.
    InvalidPort,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ParseError::RelativeUrlWithoutBase => "relative URL without a base",
            ParseError::SetHostOnCannotBeABaseUrl => "cannot-be-a-base URL",
            ParseError::EmptyHost => "empty host",
            ParseError::InvalidPort => "invalid port number",
        })
    }
}

impl std::error::Error for ParseError {}

/// The robots.txt URL for a page's URL: "https://example.com/abc/x.html"
/// gives "https://example.com/robots.txt" (scheme and host lower-cased,
/// user and password dropped, the scheme's default port dropped).
pub fn get_robots_url(url: &str) -> Result<String, ParseError> {
    let url = url.trim_matches(|c: char| c <= ' ');
    let colon = url.find(':').ok_or(ParseError::RelativeUrlWithoutBase)?;
    let scheme = url[..colon].to_ascii_lowercase();
    if scheme.is_empty()
        || !scheme.as_bytes()[0].is_ascii_alphabetic()
        || !scheme.bytes().all(|b| b.is_ascii_alphanumeric() || b"+-.".contains(&b))
    {
        return Err(ParseError::RelativeUrlWithoutBase);
    }
    let special = matches!(scheme.as_str(), "http" | "https" | "ftp" | "ws" | "wss" | "file");
    let after = &url[colon + 1..];
    if !special && !after.starts_with('/') {
        return Err(ParseError::SetHostOnCannotBeABaseUrl);
    }
    if scheme != "http" && scheme != "https" {
        return Err(ParseError::EmptyHost);
    }
    let rest = after.trim_start_matches(['/', '\\']);
    let end = rest.find(['/', '\\', '?', '#']).unwrap_or(rest.len());
    let auth = &rest[..end];
    let hostport = auth.rsplit_once('@').map_or(auth, |(_, h)| h);
    // The host ends at the first ':' (after a bracketed IPv6 literal).
    let host_end = if hostport.starts_with('[') {
        hostport.find(']').map_or(hostport.len(), |i| i + 1)
    } else {
        hostport.find(':').unwrap_or(hostport.len())
    };
    let (host, port) = match hostport[host_end..].strip_prefix(':') {
        Some(p) => (&hostport[..host_end], Some(p)),
        None => (&hostport[..host_end], None),
    };
    if host.is_empty() {
        return Err(ParseError::EmptyHost);
    }
    let default = if scheme == "http" { 80 } else { 443 };
    let port = match port {
        None | Some("") => None,
        Some(p) => {
            let n: u16 = p.parse().map_err(|_| ParseError::InvalidPort)?;
            (n != default).then_some(n)
        }
    };
    let host = host.to_ascii_lowercase();
    Ok(match port {
        Some(p) => format!("{}://{}:{}/robots.txt", scheme, host, p),
        None => format!("{}://{}/robots.txt", scheme, host),
    })
}
