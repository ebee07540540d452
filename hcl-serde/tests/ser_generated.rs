//! The serializer over generated values: `from_str(to_string(x)) == x`
//! for 300 `hcl::Value`s of random shapes (nested arrays and objects, odd
//! keys and strings, big, tiny and fractional numbers) and 100 trees of
//! labelled, nested, repeated blocks, each output unchanged by the
//! reference formatter (skipped with a message without the oracle).
//! The generator is seeded: the cases are the same on every run.

#![allow(clippy::expect_used, clippy::unwrap_used)]

mod ser_support;

use hcl::{Map, Number, Value};
use hcl_test_support::Rng;
use ser_support::{assert_formatted, round_trip};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Check {
    path: String,
    interval: u32,
}

const WORDS: &[&str] = &[
    "a",
    "name",
    "x_1",
    "with-dash",
    "\u{e9}t\u{e9}",
    "two words",
    "${x}",
    "%{y}",
    "q\"uote",
    "back\\slash",
    "line\nbreak",
    "",
    "null",
    "true",
    "for",
    "0",
    "\u{1F600}",
];

fn gen_value(r: &mut Rng, depth: u32) -> Value {
    let top = if depth >= 4 { 6 } else { 9 };
    match r.below(top) {
        0 => Value::Null,
        1 => Value::Bool(r.below(2) == 0),
        2 => Value::from(r.next_u64() as i64),
        3 => {
            let lits = [
                "0.5",
                "3.14159",
                "1e-40",
                "123456789012345678901234567890",
                "0.000001",
                "1.5e300",
                "42",
                "0.30",
                "79228162514264337593543950336",
            ];
            let n = Number::from_literal(r.pick(&lits)).expect("literal");
            Value::Number(if r.below(2) == 0 { n } else { n.neg() })
        }
        4 | 5 => Value::from(r.pick(WORDS)),
        6 | 7 => Value::Array((0..r.below(4)).map(|_| gen_value(r, depth + 1)).collect()),
        _ => {
            let mut m = Map::new();
            for _ in 0..r.below(4) {
                m.insert(r.pick(WORDS).to_owned(), gen_value(r, depth + 1));
            }
            Value::Object(m)
        }
    }
}

#[test]
fn generated_values_round_trip() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let idents = [
        "a",
        "b_2",
        "long_attribute_name",
        "\u{e9}t\u{e9}",
        "with-dash",
    ];
    let mut texts = Vec::new();
    for _ in 0..300 {
        let mut m = Map::new();
        for _ in 0..1 + r.below(5) {
            m.insert(r.pick(&idents).to_owned(), gen_value(&mut r, 0));
        }
        let v = Value::Object(m);
        texts.push(round_trip(&v));
    }
    assert_formatted("generated", &texts);
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Gen {
    #[serde(rename = "$label")]
    name: String,
    n: Option<i64>,
    s: String,
    list: Vec<u8>,
    child: Vec<Gen>,
}

fn gen_struct(r: &mut Rng, depth: u32) -> Gen {
    Gen {
        name: r.pick(WORDS).to_owned(),
        n: (r.below(2) == 0).then(|| r.next_u64() as i64),
        s: r.pick(WORDS).to_owned(),
        list: (0..r.below(3)).map(|_| r.below(256) as u8).collect(),
        child: if depth < 3 {
            (0..r.below(3)).map(|_| gen_struct(r, depth + 1)).collect()
        } else {
            Vec::new()
        },
    }
}

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct GenTop {
    child: Vec<Gen>,
    by_name: BTreeMap<String, Check>,
}

#[test]
fn generated_nested_blocks_round_trip() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut texts = Vec::new();
    for _ in 0..100 {
        let top = GenTop {
            child: (0..1 + r.below(3)).map(|_| gen_struct(&mut r, 0)).collect(),
            by_name: (0..1 + r.below(3))
                .map(|_| {
                    (
                        r.pick(WORDS).to_owned(),
                        Check {
                            path: r.pick(WORDS).to_owned(),
                            interval: r.below(100) as u32,
                        },
                    )
                })
                .collect(),
        };
        texts.push(round_trip(&top));
    }
    assert_formatted("nested", &texts);
}
