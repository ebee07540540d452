//! Shared by the serializer's tests: the round trip, and the check that
//! `hcl::format` and the reference formatter leave the output unchanged.

use serde::de::DeserializeOwned;
use serde::Serialize;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Serializes `x`, reads it back, checks equality; returns the text.
pub(crate) fn round_trip<T: Serialize + DeserializeOwned + PartialEq + Debug>(x: &T) -> String {
    let text = hcl::to_string(x).unwrap_or_else(|e| panic!("to_string({x:?}): {e}"));
    let back: T = hcl::from_str(&text)
        .unwrap_or_else(|e| panic!("reading back {x:?} from\n{text}\nfailed: {e}"));
    assert_eq!(&back, x, "round trip through\n{text}");
    text
}

fn oracle() -> Option<PathBuf> {
    // `HCL_ORACLE` first (a built oracle elsewhere), as `number_range`.
    let bin = std::env::var_os("HCL_ORACLE").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/oracle/bin/hcl-oracle"),
        PathBuf::from,
    );
    if bin.is_file() {
        Some(bin)
    } else {
        hcl_test_support::not_run(format!(
            "ser_roundtrip: oracle check skipped, no oracle at {}",
            bin.display()
        ));
        None
    }
}

/// Checks that the reference formatter leaves every text unchanged.
pub(crate) fn assert_formatted(name: &str, texts: &[String]) {
    // Our formatter (hclwrite-identical) changes nothing either; this
    // check needs no oracle.
    for t in texts {
        let f = hcl::format(t).unwrap_or_else(|e| panic!("format:\n{t}\n{e}"));
        assert_eq!(&f, t, "hcl::format changes the serializer's output");
    }
    let Some(bin) = oracle() else { return };
    let dir = std::env::temp_dir().join(format!("hcl-ser-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (i, t) in texts.iter().enumerate() {
        std::fs::write(dir.join(format!("{i:04}.hcl")), t).expect("write");
    }
    let out = Command::new(&bin)
        .arg("batch-fmt")
        .arg(&dir)
        .output()
        .expect("run the oracle");
    assert!(
        out.status.success(),
        "oracle: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut bad = Vec::new();
    for (i, t) in texts.iter().enumerate() {
        match std::fs::read_to_string(dir.join(format!("{i:04}.hcl.fmt"))) {
            Ok(f) if &f == t => {}
            Ok(f) => bad.push(format!("#{i}: ours\n{t}\nreference\n{f}")),
            Err(_) => bad.push(format!("#{i}: the reference does not parse\n{t}")),
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        bad.is_empty(),
        "{} of {} not in canonical layout:\n{}",
        bad.len(),
        texts.len(),
        bad.join("\n")
    );
}
