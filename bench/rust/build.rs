// SPDX-License-Identifier: Apache-2.0
//! Compiles c_loop.c, the C side of the comparison, against the public
//! headers; its rsc_* calls resolve to the robotsc-sys archive the Rust
//! side uses: one library, one process, two callers.
fn main() {
    println!("cargo:rerun-if-changed=c_loop.c");
    cc::Build::new()
        .file("c_loop.c")
        .include("../../include")
        .flag_if_supported("-std=c11")
        .opt_level(2)
        .compile("rsc_bench_c_loop");
}
