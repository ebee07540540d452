//! The examples' own logic, where it can go wrong without a compile
//! error: `hclfmt` and `hcledit` name the file in a syntax error, at the
//! library's line and column (issue #22: `hclfmt` printed `--> 15:11`
//! where the library prints `--> app.hcl:3:3`).

use serde::Deserialize;

#[allow(dead_code)]
#[path = "../examples/hclfmt.rs"]
mod hclfmt;

#[allow(dead_code)]
#[path = "../examples/hcledit.rs"]
mod hcledit;

/// What the library prints for `src` read as the file `app.hcl`.
fn library_error(src: &str) -> String {
    let de = hcl::Deserializer::from_str(src).with_file_name("app.hcl");
    match hcl::Value::deserialize(de) {
        Ok(v) => panic!("the library reads it: {v:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn hcledit_errors_name_the_file_like_the_library() {
    let src = "a = 1\nb {\n  = 2\n}\n";
    let Err(ours) = hcledit::parse_document("app.hcl", src) else {
        panic!("parses a file with a syntax error");
    };
    assert!(ours.contains("--> app.hcl:3:3"), "{ours}");
    assert_eq!(ours, library_error(src));
}

#[test]
fn hclfmt_errors_name_the_file_like_the_library() {
    let src = "a = 1\nb {\n  = 2\n}\n";
    let Err(ours) = hclfmt::format_source("app.hcl", src.as_bytes()) else {
        panic!("formats a file with a syntax error");
    };
    assert!(ours.contains("--> app.hcl:3:3"), "{ours}");
    assert_eq!(ours, library_error(src));
}
