//! Terraform's function table: what the filesystem functions refuse, what
//! exists without a grant, and the injected clock and random source.
//! (Values are checked against Terraform in `tests/conformance.rs` and
//! `tests/tf_differential.rs` at the workspace root.)
#![cfg(feature = "terraform")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use base64::Engine;
use hcl::eval::eval_expr_str;
use hcl::stdlib::terraform::TerraformFunctions;
use hcl::{Context, Value};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::time::{Duration, UNIX_EPOCH};

/// The filesystem functions: none exists without a granted directory.
const FS_FUNCTIONS: [&str; 13] = [
    "file",
    "filebase64",
    "fileexists",
    "fileset",
    "filemd5",
    "filesha1",
    "filesha256",
    "filesha512",
    "filebase64sha256",
    "filebase64sha512",
    "templatefile",
    "abspath",
    "pathexpand",
];

/// A fresh directory holding `base/` (granted) and `outside/` (not).
struct Fixture {
    root: PathBuf,
}

impl Fixture {
    fn new(name: &str) -> Fixture {
        let root = std::env::temp_dir().join(format!("hcl-tf-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let base = root.join("base");
        std::fs::create_dir_all(base.join("sub")).unwrap();
        std::fs::create_dir_all(root.join("outside")).unwrap();
        std::fs::write(base.join("inside.txt"), "hello").unwrap();
        std::fs::write(
            base.join("sub/t.tftpl"),
            "%{ for x in xs }${upper(x)};%{ endfor }",
        )
        .unwrap();
        std::fs::write(
            base.join("sub/rec.tftpl"),
            "${templatefile(\"sub/t.tftpl\", {xs = []})}",
        )
        .unwrap();
        std::fs::write(root.join("outside/secret.txt"), "secret").unwrap();
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(root.join("outside/secret.txt"), base.join("link.txt"))
                .unwrap();
            std::os::unix::fs::symlink(root.join("outside"), base.join("linkdir")).unwrap();
            std::os::unix::fs::symlink(base.join("inside.txt"), base.join("innerlink.txt"))
                .unwrap();
        }
        Fixture { root }
    }

    fn base(&self) -> PathBuf {
        self.root.join("base")
    }

    fn ctx(&self) -> Context {
        let mut ctx = Context::new();
        ctx.add_terraform_functions(&TerraformFunctions::new().base_dir(self.base()));
        ctx
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.root);
    }
}

fn quoted(p: &Path) -> String {
    format!("{:?}", p.to_string_lossy())
}

/// A call of `func` reading `path` (the second argument where needed).
fn call(func: &str, path: &str) -> String {
    match func {
        "templatefile" => format!("templatefile({path}, {{}})"),
        "fileset" => format!("fileset({path}, \"*\")"),
        _ => format!("{func}({path})"),
    }
}

#[test]
fn no_filesystem_function_without_a_grant() {
    let ctx = Context::with_terraform_functions();
    for name in FS_FUNCTIONS {
        assert!(ctx.func(name).is_none(), "`{name}` exists without a grant");
    }
    assert!(eval_expr_str("file(\"/etc/hostname\")", &ctx).is_err());
    // The pure ones are there.
    for name in ["basename", "dirname", "sha256", "cidrsubnet", "yamlencode"] {
        assert!(ctx.func(name).is_some(), "`{name}` is missing");
    }
}

#[test]
fn paths_outside_the_base_directory_are_refused() {
    let fx = Fixture::new("refuse");
    let ctx = fx.ctx();
    let outside_abs = quoted(&fx.root.join("outside/secret.txt"));
    let mut paths = vec![
        "\"../outside/secret.txt\"".to_owned(),
        "\"sub/../../outside/secret.txt\"".to_owned(),
        outside_abs,
        "\"/etc/hostname\"".to_owned(),
        "\"..\"".to_owned(),
    ];
    if cfg!(unix) {
        paths.push("\"link.txt\"".to_owned());
        paths.push("\"linkdir/secret.txt\"".to_owned());
    }
    for func in FS_FUNCTIONS.iter().filter(|f| **f != "pathexpand") {
        for path in &paths {
            let expr = call(func, path);
            match eval_expr_str(&expr, &ctx) {
                Ok(v) => panic!("{expr} was allowed: {v}"),
                Err(e) => assert!(
                    e.to_string().contains("outside the directory granted"),
                    "{expr}: unexpected error {e}"
                ),
            }
        }
    }
    if cfg!(unix) {
        // A directory link out is refused for listing too.
        let e = eval_expr_str("fileset(\"linkdir\", \"*\")", &ctx).unwrap_err();
        assert!(
            e.to_string().contains("outside the directory granted"),
            "{e}"
        );
    }
}

#[test]
fn paths_inside_the_base_directory_are_read() {
    let fx = Fixture::new("inside");
    let ctx = fx.ctx();
    let ok = |expr: &str| eval_expr_str(expr, &ctx).unwrap_or_else(|e| panic!("{expr}: {e}"));
    assert_eq!(ok("file(\"inside.txt\")"), Value::from("hello"));
    assert_eq!(ok("file(\"sub/../inside.txt\")"), Value::from("hello"));
    let abs = quoted(&fx.base().join("inside.txt"));
    assert_eq!(ok(&format!("file({abs})")), Value::from("hello"));
    assert_eq!(ok("filebase64(\"inside.txt\")"), Value::from("aGVsbG8="));
    // md5("hello"), sha1("hello"): well-known digests.
    assert_eq!(
        ok("filemd5(\"inside.txt\")"),
        Value::from("5d41402abc4b2a76b9719d911017c592")
    );
    assert_eq!(
        ok("filesha1(\"inside.txt\")"),
        Value::from("aaf4c61ddcc5e8a2dabede0f3b482cd9aea9434d")
    );
    assert_eq!(ok("fileexists(\"inside.txt\")"), Value::Bool(true));
    assert_eq!(ok("fileexists(\"missing.txt\")"), Value::Bool(false));
    assert!(
        eval_expr_str("fileexists(\"sub\")", &ctx).is_err(),
        "a directory is an error"
    );
    assert!(eval_expr_str("file(\"missing.txt\")", &ctx).is_err());
    if cfg!(unix) {
        assert_eq!(ok("file(\"innerlink.txt\")"), Value::from("hello"));
    }
    assert_eq!(
        ok("templatefile(\"sub/t.tftpl\", {xs = [\"a\", \"b\"]})"),
        Value::from("A;B;")
    );
    let e = eval_expr_str("templatefile(\"sub/rec.tftpl\", {})", &ctx).unwrap_err();
    assert!(
        e.to_string()
            .contains("cannot recursively call templatefile"),
        "{e}"
    );
    assert!(eval_expr_str(
        "templatefile(\"sub/t.tftpl\", {\"not valid\" = 1, xs = []})",
        &ctx
    )
    .is_err());
    assert!(eval_expr_str("templatefile(\"sub/t.tftpl\", 5)", &ctx).is_err());
    // Regular files only: links, inside or out, are not listed.
    assert_eq!(
        ok("fileset(\".\", \"**/*.t*\")"),
        Value::Array(vec![
            Value::from("inside.txt"),
            Value::from("sub/rec.tftpl"),
            Value::from("sub/t.tftpl"),
        ])
    );
}

#[test]
fn home_directory_is_granted_explicitly() {
    let ctx = {
        let mut ctx = Context::new();
        ctx.add_terraform_functions(
            &TerraformFunctions::new()
                .base_dir(".")
                .home_dir("/home/steve"),
        );
        ctx
    };
    assert_eq!(
        eval_expr_str("pathexpand(\"~/.ssh/id_rsa\")", &ctx).unwrap(),
        Value::from("/home/steve/.ssh/id_rsa")
    );
    let mut no_home = Context::new();
    no_home.add_terraform_functions(&TerraformFunctions::new().base_dir("."));
    assert!(eval_expr_str("pathexpand(\"~/x\")", &no_home).is_err());
    assert!(eval_expr_str("pathexpand(\"~other/x\")", &ctx).is_err());
}

fn deterministic() -> Context {
    let mut ctx = Context::new();
    ctx.add_terraform_functions(
        &TerraformFunctions::new()
            .fixed_time(UNIX_EPOCH + Duration::from_secs(1_500_000_000))
            .random(|buf: &mut [u8]| {
                for (i, b) in buf.iter_mut().enumerate() {
                    *b = u8::try_from(i).unwrap_or(0);
                }
            }),
    );
    ctx
}

#[test]
fn clock_and_random_source_are_injected() {
    let ctx = deterministic();
    // 1_500_000_000 s after the epoch is 2017-07-14T02:40:00Z.
    assert_eq!(
        eval_expr_str("timestamp()", &ctx).unwrap(),
        Value::from("2017-07-14T02:40:00Z")
    );
    assert_eq!(
        eval_expr_str("plantimestamp()", &ctx).unwrap(),
        Value::from("2017-07-14T02:40:00Z")
    );
    // Bytes 00..0f with the version (4) and variant (10) bits set.
    assert_eq!(
        eval_expr_str("uuid()", &ctx).unwrap(),
        Value::from("00010203-0405-4607-8809-0a0b0c0d0e0f")
    );
    let a = eval_expr_str("bcrypt(\"hello\", 4)", &ctx).unwrap();
    let b = eval_expr_str("bcrypt(\"hello\", 4)", &ctx).unwrap();
    assert_eq!(a, b, "the same salt gives the same hash");
    let hash = a.as_str().unwrap_or_default().to_owned();
    assert!(hash.starts_with("$2a$04$"), "{hash}");
    assert_eq!(hash.len(), 60);
    let default = eval_expr_str("bcrypt(\"hello\")", &ctx).unwrap();
    assert!(default.as_str().unwrap_or_default().starts_with("$2a$10$"));
    // Below 4 means the default, as Go's bcrypt does.
    let low = eval_expr_str("bcrypt(\"hello\", 1)", &ctx).unwrap();
    assert!(low.as_str().unwrap_or_default().starts_with("$2a$10$"));
    assert!(eval_expr_str("bcrypt(\"hello\", 32)", &ctx).is_err());
    assert!(
        eval_expr_str("bcrypt(\"hello\", 20)", &ctx).is_err(),
        "too slow: refused"
    );
    assert!(eval_expr_str("bcrypt(\"hello\", 4, 5)", &ctx).is_err());
}

#[test]
fn base64gzip_round_trips() {
    let ctx = Context::with_terraform_functions();
    let text = "hello world, hello world, héllo 🎉";
    let out = eval_expr_str(&format!("base64gzip({text:?})"), &ctx).unwrap();
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(out.as_str().unwrap_or_default())
        .unwrap();
    let mut back = String::new();
    flate2::read::GzDecoder::new(bytes.as_slice())
        .read_to_string(&mut back)
        .unwrap();
    assert_eq!(back, text);
}

#[test]
fn terraform_only_semantics_and_refusals() {
    let ctx = Context::with_terraform_functions();
    let ok = |expr: &str| eval_expr_str(expr, &ctx).unwrap_or_else(|e| panic!("{expr}: {e}"));
    // Terraform's own versions of shared names (values from its docs).
    assert_eq!(ok("length(\"hello\")"), Value::from(5));
    assert_eq!(ok("coalesce(\"\", \"b\")"), Value::from("b"));
    assert_eq!(
        ok("replace(\"hello world\", \"/w.*d/\", \"everybody\")"),
        Value::from("hello everybody")
    );
    assert_eq!(ok("lookup({a = 1}, \"a\")"), Value::from(1));
    assert!(eval_expr_str("lookup({a = 1}, \"b\")", &ctx).is_err());
    assert_eq!(ok("sensitive(\"x\")"), Value::from("x"));
    assert!(eval_expr_str("nonsensitive(\"x\")", &ctx).is_err());
    assert!(eval_expr_str("list(1)", &ctx).is_err());
    assert!(eval_expr_str("map(\"a\", 1)", &ctx).is_err());
    // go-cty names Terraform does not register, and the two left out.
    for name in ["strlen", "setsymmetricdifference", "type", "rsadecrypt"] {
        assert!(ctx.func(name).is_none(), "`{name}` should not exist");
    }
    // The go-cty table keeps go-cty's semantics.
    let cty = Context::with_stdlib();
    assert!(eval_expr_str("length(\"hello\")", &cty).is_err());
    assert!(cty.func("sha256").is_none());
}

#[test]
fn the_table_has_116_functions() {
    let all = TerraformFunctions::new().base_dir(".").names();
    assert_eq!(all.len(), 116, "{all:?}");
    let pure = TerraformFunctions::new().names();
    assert_eq!(pure.len(), 116 - FS_FUNCTIONS.len());
}

#[test]
fn yaml_bombs_and_deep_nesting_are_bounded() {
    let ctx = Context::with_terraform_functions();
    let mut bomb = String::from("a: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..12 {
        let prev = if i == 0 {
            "a".to_owned()
        } else {
            format!("a{}", i - 1)
        };
        bomb.push_str(&format!(
            "a{i}: &a{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        ));
    }
    let e = eval_expr_str(&format!("yamldecode({bomb:?})"), &ctx).unwrap_err();
    assert!(e.to_string().contains("too many values"), "{e}");
    let deep = format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000));
    assert!(eval_expr_str(&format!("yamldecode({deep:?})"), &ctx).is_err());
}

/// Calls that seeds other than `tf_differential`'s found disagreeing with
/// Terraform, each expected value (or error) as `tforacle expr` gave it.
#[test]
fn calls_found_by_other_seeds_agree_with_terraform() {
    let ctx = Context::with_terraform_functions();
    let value = |e: &str| eval_expr_str(e, &ctx).unwrap_or_else(|err| panic!("{e}: {err}"));
    let fails = |e: &str| eval_expr_str(e, &ctx).is_err();
    // Numbers as Terraform writes them: `Text('f', -1)`, never the
    // internal exact form.
    assert_eq!(
        value("yamlencode([1.50, 1e30, 0.1, -0, 1e-7, 123456789012345678901234567890])"),
        "- 1.5\n- 1000000000000000000000000000000\n- 0.1\n- -0\n- 0.0000001\n- 123456789012345678901234567890\n"
    );
    assert_eq!(
        value("yamldecode(\"1.50: a\\n1e3: b\\n\")"),
        hcl::value!({ "1.5": "a", "1000": "b" })
    );
    // No document at all is an error; `---` alone is one, of `null`.
    for e in [
        "yamldecode(\"\")",
        "yamldecode(\" \\n\")",
        "yamldecode(\"# c\")",
    ] {
        assert!(fails(e), "{e}");
    }
    assert_eq!(value("yamldecode(\"---\")"), Value::Null);
    assert_eq!(value("yamldecode(\"~\")"), Value::Null);
    // A decoded text holding U+FFFD is refused, whatever put it there.
    assert!(fails("textdecodebase64(\"6Q==\", \"US-ASCII\")"));
    assert!(fails("textdecodebase64(\"gQ==\", \"windows-1252\")"));
    assert!(fails("textdecodebase64(\"77+9\", \"UTF-8\")"));
    assert!(fails("textdecodebase64(\"/f8=\", \"UTF-16LE\")"));
    assert_eq!(value("textdecodebase64(\"fw==\", \"US-ASCII\")"), "\u{7f}");
    assert_eq!(value("textdecodebase64(\"6Q==\", \"ISO-8859-1\")"), "é");
    // A subnet number that does not fit the address (Terraform panics).
    assert!(fails("cidrsubnet(\"10.0.0.0/8\", -1, 4294967296)"));
    assert_eq!(value("cidrsubnet(\"10.0.0.0/8\", -1, 0)"), "10.0.0.0/7");
    // Below prefix zero: a network without a mask, as Go prints it.
    assert_eq!(value("cidrsubnet(\"0.0.0.0/0\", -1, 0)"), "<nil>");
    assert!(fails("cidrsubnet(\"0.0.0.0/0\", -1, 1)"));
    // Go checks a host number by its low 64 bits read as signed: one with
    // the top bit set passes, and then must fit the address.
    assert_eq!(
        value("cidrhost(\"fe80::1/128\", 123456789012345678901234567890)"),
        "fe80:1:8ee9:ff6:c373:e0ee:4e3f:ad3"
    );
    assert_eq!(
        value("cidrhost(\"fe80::/120\", 18446744073709551615)"),
        "fe80::ffff:ffff:ffff:ffff"
    );
    assert!(fails("cidrhost(\"fe80::/120\", 9223372036854775807)"));
    assert!(fails("cidrhost(\"10.0.0.0/8\", 9223372036854775808)"));
    assert!(fails(
        "cidrhost(\"::ffff:10.0.0.0/112\", 9223372036854775808)"
    ));
    // Arguments whose types do not unify are refused, structural ones
    // too, unless an untyped `null` is among them.
    for e in [
        "coalesce([true, false], [1, 2, 3])",
        "coalesce([true], [1])",
        "coalesce([1], [[1]])",
        "coalesce({a=1}, {b=[1]})",
        "coalesce({a=true}, {a=1})",
    ] {
        assert!(fails(e), "{e}");
    }
    assert_eq!(value("coalesce([1], [\"a\", true])"), hcl::value!(["1"]));
    assert_eq!(value("coalesce(null, [true], [1, 2])"), hcl::value!([true]));
}
