// SPDX-License-Identifier: Apache-2.0
//! Robots::diff and Robots::lint: marshalling of rsc_diff(), rsc_lint() and
//! rsc_semlint() (include/robotsc/compiler.h); no logic of their own.

use std::mem::MaybeUninit;
use std::os::raw::c_void;

use robotsc_sys as sys;

use crate::{lossy, static_str, Error, Profile, Result, Robots};

/// Whether any path's verdict differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DiffOutcome {
    Same,
    Different,
    /// The budget ran out before an answer.
    Unknown,
}

/// A path whose verdict differs, with the deciding line on each side (0:
/// no rule decided).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flip {
    pub path: Vec<u8>,
    pub old_allowed: bool,
    pub new_allowed: bool,
    pub old_line: u32,
    pub new_line: u32,
}

/// One agent's comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AgentDiff {
    pub agent: String,
    pub outcome: DiffOutcome,
    /// Every reachable state was visited.
    pub complete: bool,
    pub states: usize,
    /// Witnesses, one per kind of change, shortest first.
    pub flips: Vec<Flip>,
    /// Kinds of change exist beyond those listed.
    pub more: bool,
}

/// [`Robots::diff`]'s answer: the overall outcome and each agent's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diff {
    pub outcome: DiffOutcome,
    pub agents: Vec<AgentDiff>,
}

fn diff_one(a: &Robots, b: &Robots, agent: &str, witnesses: usize, max_states: usize) -> Result<AgentDiff> {
    let sa = a.select(&[agent])?;
    let sb = b.select(&[agent])?;
    // SAFETY: plain data; zero means the defaults.
    let mut o: sys::rsc_explore_options = unsafe { MaybeUninit::zeroed().assume_init() };
    o.max_states = max_states;
    let mut r = MaybeUninit::<sys::rsc_diff_result>::zeroed();
    // SAFETY: two selections of verified programs; r is freed below
    // (rsc_diff_result_free accepts a failed result).
    let st = unsafe { sys::rsc_diff(sa.as_raw(), sb.as_raw(), witnesses, &o, r.as_mut_ptr()) };
    let mut r = unsafe { r.assume_init() };
    let out = if st != sys::RSC_OK {
        Err(if st == sys::RSC_E_NOMEM {
            Error::NoMemory
        } else {
            Error::Diff(st)
        })
    } else {
        let flips = (0..r.n_flips)
            .map(|k| {
                // SAFETY: k < n_flips; each path points into the result.
                let f = unsafe { &*r.flips.add(k) };
                Flip {
                    path: if f.len == 0 {
                        Vec::new()
                    } else {
                        unsafe { std::slice::from_raw_parts(f.path as *const u8, f.len) }.to_vec()
                    },
                    old_allowed: f.old_allowed != 0,
                    new_allowed: f.new_allowed != 0,
                    old_line: f.old_line,
                    new_line: f.new_line,
                }
            })
            .collect();
        Ok(AgentDiff {
            agent: agent.to_string(),
            outcome: match r.outcome {
                sys::RSC_DIFF_SAME => DiffOutcome::Same,
                sys::RSC_DIFF_DIFFERENT => DiffOutcome::Different,
                _ => DiffOutcome::Unknown,
            },
            complete: r.complete != 0,
            states: r.states,
            flips,
            more: r.more != 0,
        })
    };
    // SAFETY: the result rsc_diff filled (or zeroed), freed once.
    unsafe { sys::rsc_diff_result_free(&mut r, &o) };
    out
}

pub(crate) fn diff(
    a: &Robots,
    b: &Robots,
    agents: Option<&[&str]>,
    witnesses: usize,
    max_states: usize,
) -> Result<Diff> {
    if a.profile() != b.profile() {
        return Err(Error::Diff(sys::RSC_E_ARG));
    }
    let list: Vec<String> = match agents {
        Some(l) => l.iter().map(|s| s.to_string()).collect(),
        None => {
            // Every agent either file names, sorted, then "*": a name no
            // group names, standing for every other crawler.
            let mut l: Vec<String> = Vec::new();
            for r in [a, b] {
                let mut i = 0;
                loop {
                    let mut t = sys::rsc_bytes {
                        ptr: std::ptr::null(),
                        len: 0,
                    };
                    // SAFETY: a verified program; t points into its blob.
                    if unsafe { sys::rsc_blob_agent(r.prog(), i, &mut t) } == 0 {
                        break;
                    }
                    let s = lossy(t.ptr, t.len);
                    if !s.is_empty() && !l.contains(&s) {
                        l.push(s);
                    }
                    i += 1;
                }
            }
            l.sort();
            l.push("*".to_string());
            l
        }
    };
    let mut out = Vec::with_capacity(list.len());
    for agent in &list {
        out.push(diff_one(a, b, agent, witnesses.max(1), max_states)?);
    }
    let outcome = if out.iter().any(|d| d.outcome == DiffOutcome::Different) {
        DiffOutcome::Different
    } else if out.iter().any(|d| d.outcome == DiffOutcome::Unknown) {
        DiffOutcome::Unknown
    } else {
        DiffOutcome::Same
    };
    Ok(Diff { outcome, agents: out })
}

/// How much a lint finding matters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Warning,
    Note,
}

/// One lint finding ([`Robots::lint`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// 0 when it concerns the whole file.
    pub line: u32,
    pub severity: Severity,
    /// "typo", "dead-rule", ...
    pub code: &'static str,
    pub message: &'static str,
    pub detail: Option<String>,
    /// dead-rule: the line of the rule that always wins, else 0.
    pub other_line: u32,
}

#[allow(unused_unsafe)] // explicit blocks: required since Rust 2024
unsafe extern "C" fn on_syntax(ud: *mut c_void, d: *const sys::rsc_diagnostic) {
    // SAFETY: ud is the Vec given below; d lives during the callback.
    let (v, d) = unsafe { (&mut *(ud as *mut Vec<Diagnostic>), &*d) };
    v.push(Diagnostic {
        line: d.line,
        severity: Severity::Warning,
        code: static_str(unsafe { sys::rsc_warning_name(d.warning) }),
        message: static_str(unsafe { sys::rsc_warning_message(d.warning) }),
        detail: (!d.detail.is_null() && d.detail_len > 0).then(|| lossy(d.detail, d.detail_len)),
        other_line: 0,
    });
}

#[allow(unused_unsafe)] // explicit blocks: required since Rust 2024
unsafe extern "C" fn on_semantic(ud: *mut c_void, d: *const sys::rsc_semdiag) {
    // SAFETY: as in on_syntax.
    let (v, d) = unsafe { (&mut *(ud as *mut Vec<Diagnostic>), &*d) };
    v.push(Diagnostic {
        line: d.line,
        severity: if unsafe { sys::rsc_semlint_severity(d.code) } >= 2 {
            Severity::Warning
        } else {
            Severity::Note
        },
        code: static_str(unsafe { sys::rsc_semlint_name(d.code) }),
        message: static_str(unsafe { sys::rsc_semlint_message(d.code) }),
        detail: (!d.detail.is_null() && d.detail_len > 0).then(|| lossy(d.detail, d.detail_len)),
        other_line: d.other,
    });
}

pub(crate) fn lint(body: &[u8], profile: Profile, semantic: bool) -> Result<Vec<Diagnostic>> {
    // SAFETY: plain data; zero means the defaults.
    let mut po: sys::rsc_parse_options = unsafe { MaybeUninit::zeroed().assume_init() };
    po.profile = profile.raw();
    let mut ir: *mut sys::rsc_ir = std::ptr::null_mut();
    // SAFETY: (ptr, len) is the body; the IR is freed below.
    let st = unsafe { sys::rsc_parse(body.as_ptr() as *const c_void, body.len(), &po, &mut ir) };
    if st != sys::RSC_OK {
        return Err(if st == sys::RSC_E_NOMEM {
            Error::NoMemory
        } else {
            Error::Compile(st)
        });
    }
    let mut v: Vec<Diagnostic> = Vec::new();
    let ud = &mut v as *mut Vec<Diagnostic> as *mut c_void;
    // SAFETY: the callbacks only push to v, which outlives the calls.
    unsafe { sys::rsc_lint(ir, Some(on_syntax), ud) };
    let st = if semantic {
        unsafe { sys::rsc_semlint(ir, std::ptr::null(), Some(on_semantic), ud) }
    } else {
        sys::RSC_OK
    };
    unsafe { sys::rsc_ir_free(ir) };
    if st == sys::RSC_E_NOMEM {
        return Err(Error::NoMemory);
    }
    Ok(v)
}
