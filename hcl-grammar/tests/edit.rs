//! The document editor (`hcl_grammar::edit`): lossless printing, where
//! comments go, each operation, and hostile input.
//!
//! Expected outputs are `hclwrite`'s (hashicorp/hcl 2.14.1), asked through
//! `shared/oracle/bin/hcl-oracle edit F OPS.json` and quoted here; the
//! wide comparison is the conformance runner's (`conformance-edit`, 400
//! cases).
#![allow(clippy::unwrap_used, clippy::expect_used)]

use hcl_grammar::edit::{Document, Expression};
use hcl_grammar::ParseOptions;

fn doc(src: &str) -> Document {
    Document::parse(src).unwrap()
}

#[test]
fn unedited_documents_print_as_their_input() {
    for src in [
        "",
        "\n\n",
        "a = 1",
        "\u{feff}a = 1\n",
        "# only a comment",
        "a = 1 # c\r\nb = 2\r\n",
        "  a   =   1  \n\n\n  b=\"x\"   // c\n",
        "block \"a\" b { x = 1 }\n",
        "block { x = 1 }",
        "/* lead */ a = 1 /* mid */ # end\n",
        "a = <<EOT\n  x ${y}\nEOT\nb = <<-EOT\n    z\n  EOT\n",
        "a = [\n  1, # one\n  2,\n]\nb {\n  # inner\n\n  c {}\n}\n# trailing\n",
        "r \"x\" {\n  a = 1\n  }   \n",
    ] {
        let d = doc(src);
        assert_eq!(d.to_string(), src, "{src:?}");
        assert_eq!(d.to_unformatted_string(), src, "{src:?}");
        assert_eq!(
            d.to_formatted_string().unwrap(),
            hcl_grammar::format(src, &Default::default()).unwrap(),
            "{src:?}"
        );
    }
}

#[test]
fn comments_above_an_attribute_go_with_it() {
    // hcl-oracle edit: remove_attribute b.
    let mut d = doc("a = 1\n# about b\n// more\nb = 2 # b's\n\n# detached\n\nc = 3\n");
    let b = d.body_mut().remove_attribute("b").unwrap();
    assert_eq!(b.lead_comments(), "# about b\n// more\n");
    assert_eq!(b.line_comment(), "# b's\n");
    assert_eq!(d.to_string(), "a = 1\n\n# detached\n\nc = 3\n");
    assert!(d.body_mut().remove_attribute("nope").is_none());
}

#[test]
fn replacing_an_expression_keeps_the_line_comment() {
    let mut d = doc("# lead\nami = \"a\" # pinned\n");
    d.body_mut().set_attribute_raw("ami", "\"b\"").unwrap();
    assert_eq!(d.to_string(), "# lead\nami = \"b\" # pinned\n");
}

#[test]
fn new_items_go_at_the_end_of_their_body() {
    // hcl-oracle: set_raw x = 1 in the block, then append_block "new" "l".
    let mut d = doc("b {\n  a = 1\n  # trailing\n}\n");
    let b = d.body_mut().first_matching_block_mut("b", &[]).unwrap();
    b.body_mut().set_attribute_raw("x", "1").unwrap();
    d.body_mut().append_block("new", &["l"]).unwrap();
    assert_eq!(
        d.to_formatted_string().unwrap(),
        "b {\n  a = 1\n  # trailing\n  x = 1\n}\nnew \"l\" {\n}\n"
    );
}

#[test]
fn blocks_by_type_and_labels() {
    let mut d = doc("r \"a\" \"x\" {}\nr \"a\" \"y\" {}\nr \"a\" {}\nr {}\nr \"a\" \"x\" {}\n");
    let body = d.body();
    assert_eq!(body.blocks_matching("r", &["a", "x"]).count(), 2);
    assert_eq!(body.blocks_matching("r", &[]).count(), 1);
    assert!(body.first_matching_block("r", &["a"]).is_some());
    assert!(body.first_matching_block("r", &["x"]).is_none());
    let b = d
        .body_mut()
        .first_matching_block_mut("r", &["a", "y"])
        .unwrap();
    b.set_type("s").unwrap();
    b.set_labels(&["new label", "q\""]);
    assert_eq!(b.labels().collect::<Vec<_>>(), ["new label", "q\""]);
    assert!(b.set_type("not an identifier").is_err());
    assert!(d.body_mut().remove_block("r", &["a", "x"]).is_some());
    assert_eq!(
        d.to_string(),
        "s \"new label\" \"q\\\"\" {}\nr \"a\" {}\nr {}\nr \"a\" \"x\" {}\n"
    );
}

#[test]
fn clear_and_append_newline() {
    // hcl-oracle: clear the block, set_raw x (a cleared name: nothing),
    // set_raw y, append_newline.
    let mut d = doc("b {\n  x = 1\n  # c\n}\n");
    let body = d
        .body_mut()
        .first_matching_block_mut("b", &[])
        .unwrap()
        .body_mut();
    body.clear();
    assert!(body.is_empty());
    body.set_attribute_raw("x", "2").unwrap();
    body.set_attribute_raw("y", "3").unwrap();
    body.append_newline();
    assert_eq!(d.to_formatted_string().unwrap(), "b { y = 3\n\n}\n");
}

#[test]
fn traversals_are_spelled_as_the_reference_spells_them() {
    for (text, want) in [
        ("var.a", "var.a"),
        ("a.b[1].c", "a.b[1].c"),
        ("a[\"k\\\"\"]", "a[\"k\\\"\"]"),
        ("a[1.50]", "a[1.5]"),
    ] {
        assert_eq!(
            Expression::traversal(text).unwrap().as_str(),
            want,
            "{text}"
        );
    }
    // hcl-oracle: `a.0.b` is "Attribute name required" for the reference.
    for bad in ["a.0.b", "1", "a + b", "a[b]", "a[*]", "f(x)", "a.", ""] {
        assert!(Expression::traversal(bad).is_err(), "{bad}");
    }
}

#[test]
fn raw_expressions_take_the_expression_only() {
    assert_eq!(Expression::parse("a # c").unwrap().as_str(), "a");
    let e = Expression::parse("<<EOT\nx\nEOT\n").unwrap();
    assert_eq!(e.as_str(), "<<EOT\nx\nEOT");
    let err = Expression::parse("1 +").unwrap_err();
    assert_eq!(err.line(), 1);
    let mut d = doc("a = 1\n");
    assert!(d.body_mut().set_attribute_raw("a", "}").is_err());
    assert!(d.body_mut().set_attribute_raw("not-ok name", "1").is_err());
    assert_eq!(d.to_string(), "a = 1\n");
}

#[test]
fn renaming_references() {
    let mut e = Expression::parse(
        "\"${var.a.b}\" == var.a ? [for var in var.a : var.a] : {(var.a) = var.a[0], var = 1}",
    )
    .unwrap();
    assert_eq!(e.rename_variable_prefix(&["var", "a"], &["local", "z"]), 5);
    assert_eq!(
        e.as_str(),
        "\"${local.z.b}\" == local.z ? [for var in local.z : var.a] : {(local.z) = local.z[0], var = 1}"
    );
    assert_eq!(e.rename_variable_prefix(&["var"], &["a", "b"]), 0);
    assert_eq!(e.rename_variable_prefix(&["local"], &["not ok"]), 0);
}

#[test]
fn values_are_spelled_as_the_reference_spells_them() {
    // In go-cty's key order, as the reference (hcl-oracle: set_value v to
    // {"a b": "x\ny", "null": [-1.5], "e": {}}).
    let o = Expression::object([
        ("a b".to_owned(), Expression::string("x\ny")),
        ("e".to_owned(), Expression::object([])),
        (
            "null".to_owned(),
            Expression::tuple([Expression::number("-1.5").unwrap()]),
        ),
    ]);
    assert_eq!(
        o.as_str(),
        "{\n\"a b\" = \"x\\ny\"\ne = {}\nnull = [-1.5]\n}"
    );
    assert!(Expression::number("1e").is_err());
    assert!(Expression::number("--1").is_err());
    let mut d = doc("");
    d.body_mut().set_attribute("v", o).unwrap();
    assert_eq!(
        d.to_formatted_string().unwrap(),
        "v = {\n  \"a b\" = \"x\\ny\"\n  e     = {}\n  null  = [-1.5]\n}\n"
    );
}

#[test]
fn errors_are_the_parsers() {
    let err = Document::parse("a = 1\nb = \n").unwrap_err();
    assert_eq!((err.line(), err.column()), (2, 5));
    let err = Document::parse("a = 1\na = 2\n").unwrap_err();
    assert_eq!(err.line(), 2);
}

/// On a 2 MiB stack (a spawned thread's default), as the parser's own
/// hostile tests.
fn small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

#[test]
fn hostile_nesting_is_the_parsers_error() {
    small_stack(|| {
        let deep = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        assert!(Document::parse(&deep).is_err());
        let blocks = format!("{}{}", "b {\n".repeat(100_000), "}\n".repeat(100_000));
        assert!(Document::parse(&blocks).is_err());
        let mut d = doc("a = 1\n");
        assert!(d
            .body_mut()
            .set_attribute_raw("a", &"(".repeat(100_000))
            .is_err());
        assert!(Expression::traversal(&"a.".repeat(100_000)).is_err());
        // Just under the limit: parses, edits and prints.
        let ok = format!("a = {}{}\n", "[".repeat(100), "]".repeat(100));
        let mut d = doc(&ok);
        assert_eq!(d.to_string(), ok);
        d.body_mut()
            .get_attribute_mut("a")
            .unwrap()
            .expr_mut()
            .rename_variable_prefix(&["x"], &["y"]);
        assert!(d.to_formatted_string().is_ok());
    });
}

#[test]
fn hostile_sizes_are_the_parsers_limits() {
    let options = ParseOptions::default().with_max_input_len(1000);
    let big = "a = 1\n".repeat(1000);
    assert!(Document::parse_with(&big, &options).is_err());
    // Many attributes: linear, every one kept.
    let many: String = (0..20_000).map(|i| format!("a{i} = {i} # c\n")).collect();
    let mut d = doc(&many);
    assert_eq!(d.body().attributes().count(), 20_000);
    assert_eq!(d.to_string(), many);
    d.body_mut().remove_attribute("a19999");
    d.body_mut().set_attribute_raw("z", "1").unwrap();
    // hcl-oracle on the same shape (three lines): the new line is aligned
    // with the group it joins.
    let out = d.to_formatted_string().unwrap();
    assert!(
        out.ends_with("a19998 = 19998 # c\nz      = 1\n"),
        "{}",
        &out[out.len() - 40..]
    );
    assert!(!out.contains("a19999"));
}

#[test]
fn odd_input_does_not_panic() {
    for src in [
        "a = 1 /* c */",
        "# c",
        "b {}",
        "b {\n}",
        "b \"x\" /* c */ {\n}\n",
        "a = \"\\u00e9${x}%{if y}z%{endif}\"\n",
        "a = x.*.y[0]\nb = x[*].y\n",
    ] {
        let mut d = doc(src);
        d.body_mut().set_attribute_raw("n", "1").unwrap();
        d.body_mut()
            .append_block("k", &["l"])
            .unwrap()
            .body_mut()
            .append_newline();
        d.body_mut().append_newline();
        let out = d.to_formatted_string().unwrap();
        assert!(!out.is_empty());
        d.body_mut().clear();
        assert_eq!(d.to_string(), "");
    }
}

#[test]
fn a_new_item_continues_an_unended_line_as_the_reference() {
    // hcl-oracle gives "a = 1 b = 2\n" and "r { a = 1 b = 2\n}\n" (which do
    // not parse): `ends_with_newline` and `append_newline` avoid it.
    let mut d = doc("a = 1");
    assert!(!d.body().ends_with_newline());
    d.body_mut().set_attribute_raw("b", "2").unwrap();
    assert_eq!(d.to_formatted_string().unwrap(), "a = 1 b = 2\n");
    let mut d = doc("a = 1");
    d.body_mut().append_newline();
    d.body_mut().set_attribute_raw("b", "2").unwrap();
    assert_eq!(d.to_string(), "a = 1\nb = 2\n");
    let mut d = doc("r { a = 1 }\n");
    let r = d.body_mut().first_matching_block_mut("r", &[]).unwrap();
    r.body_mut().set_attribute_raw("b", "2").unwrap();
    assert_eq!(d.to_formatted_string().unwrap(), "r { a = 1 b = 2\n}\n");
    // After a comment that ends the file without a newline (hcl-oracle,
    // conformance-edit e0257).
    let mut d = doc("# c");
    d.body_mut().set_attribute_raw("b", "2").unwrap();
    assert_eq!(d.to_string(), "# c b = 2\n");
}

#[test]
fn new_values_are_laid_out_in_the_unformatted_print() {
    let mut d = doc("b {\n  # keep   this\n  x   =   1\n}\n");
    let b = d.body_mut().first_matching_block_mut("b", &[]).unwrap();
    let v = Expression::object([("k".to_owned(), Expression::tuple([Expression::null()]))]);
    b.body_mut().set_attribute("t", v).unwrap();
    assert_eq!(
        d.to_string(),
        "b {\n  # keep   this\n  x   =   1\n  t = {\n    k = [null]\n  }\n}\n"
    );
}

#[test]
fn hostile_long_chains_are_the_parsers_depth_limit() {
    // Operators and traversal steps count as nesting: long chains are
    // refused by the parser, chains within the limit are renamed.
    small_stack(|| {
        for n in [100, 50_000] {
            for text in [
                format!("var{}", ".a".repeat(n)),
                vec!["var.a"; n].join(" + "),
                format!("var.a{}", "[0]".repeat(n)),
            ] {
                let parsed = Document::parse(&format!("x = {text}\n"));
                let Ok(mut d) = parsed else {
                    assert!(n > ParseOptions::DEFAULT_MAX_DEPTH, "{n}");
                    continue;
                };
                let x = d.body_mut().get_attribute_mut("x").unwrap();
                let renamed = x
                    .expr_mut()
                    .rename_variable_prefix(&["var", "a"], &["local", "b"]);
                assert!(renamed >= 1);
                assert!(d.to_string().starts_with("x = local.b"));
            }
        }
    });
}
