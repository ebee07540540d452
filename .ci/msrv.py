#!/usr/bin/env python3
"""The minimum Rust version the library crates need, from the lock file.

Walks the resolved graph of normal and build dependencies of hcl-grammar
and hcl-serde with every feature on, for Rust's tier-1 targets, and prints the highest
`rust-version` that any locked dependency declares, with the packages that
declare it. Exits 1 when the workspace's `rust-version` is lower than that.
Our own code is checked against the declared version by clippy's
`incompatible_msrv` lint, which reads `rust-version`.
"""
import json
import subprocess
import sys

# `--all-features`: the metadata lists only the optional dependencies that
# some feature of the workspace turns on (`terraform` is off by default).
meta = json.loads(subprocess.check_output(
    ["cargo", "metadata", "--format-version", "1", "--locked", "--all-features"]))
by_name_version = {(p["name"], p["version"]): p for p in meta["packages"]}
roots = ("hcl-grammar", "hcl-serde")
# Rust's tier-1 targets with host tools. A target-only dependency elsewhere
# can ask for more: getrandom (bcrypt's, `terraform` feature) brings wasip2,
# which needs Rust 1.87, on wasm32-wasip2 alone.
TARGETS = ("x86_64-unknown-linux-gnu", "aarch64-unknown-linux-gnu",
           "i686-unknown-linux-gnu", "aarch64-apple-darwin",
           "x86_64-pc-windows-msvc", "i686-pc-windows-msvc",
           "x86_64-pc-windows-gnu")

# `cargo tree` resolves features as a build of just these crates does (the
# metadata's resolve unifies features with the workspace's dev-dependencies).
tree = subprocess.check_output(
    ["cargo", "tree", "--locked", "--all-features"]
    + [arg for t in TARGETS for arg in ("--target", t)]
    + ["-e", "normal,build", "--prefix", "none", "-f", "{p}"]
    + [arg for r in roots for arg in ("-p", r)], text=True)
seen = set()
for line in tree.splitlines():
    parts = line.split()
    if len(parts) >= 2 and parts[1].startswith("v"):
        seen.add((parts[0], parts[1][1:]))


def key(v):
    parts = [int(x) for x in v.split(".")]
    return tuple(parts + [0] * (3 - len(parts)))


needs = [(by_name_version[p]["rust_version"], p[0], p[1])
         for p in seen if p[0] not in roots and by_name_version[p]["rust_version"]]
top = max(key(v) for v, _, _ in needs)
top_s = ".".join(map(str, top))
who = sorted(f"{n} {ver}" for v, n, ver in needs if key(v) == top)
declared = next(p["rust_version"] for p in meta["packages"] if p["name"] == roots[1])
print(f"dependencies need Rust {top_s} ({', '.join(who)}); declared: {declared}")
if declared is None or key(declared) < top:
    sys.exit(1)
