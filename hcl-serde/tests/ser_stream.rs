//! `to_string` writes a top-level body entry by entry as it is
//! serialized (`ser/stream.rs`); `Serializer` builds the whole tree first
//! and writes it after. Both must give the same text, or the same error,
//! for any value: layout across the entries written apart (alignment
//! runs, blank lines), and which error wins when there are several.

use serde::ser::{Error as _, SerializeMap, Serializer};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize, Clone)]
struct Svc {
    #[serde(rename = "$label")]
    name: String,
    port: i64,
}

/// One top-level entry's value, of every kind the body's layout and
/// errors depend on.
#[derive(Clone)]
enum E {
    Int(i64),
    Str(String),
    List(Vec<i64>),
    /// Multi-line (unless empty): ends a run of aligned attributes.
    Obj(BTreeMap<String, i64>),
    Blk(Svc),
    Blks(Vec<Svc>),
    /// `Block(vec![])`: nothing written.
    NoBlocks,
    Null,
    /// An error from `Serialize`.
    Fail,
    /// A block whose body has a name that is not an identifier: an error
    /// found while writing.
    BadBlock,
    /// A raw body inside an attribute's value: an error while writing.
    RawAttr,
    /// An object of these, its members in this order: an attribute
    /// unless every member is blocks.
    Members(Vec<(String, E)>),
}

impl Serialize for E {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            E::Int(i) => s.serialize_i64(*i),
            E::Str(v) => s.serialize_str(v),
            E::List(v) => v.serialize(s),
            E::Obj(v) => v.serialize(s),
            E::Blk(v) => v.serialize(s),
            E::Blks(v) => v.serialize(s),
            E::NoBlocks => hcl::ser::Block(Vec::<Svc>::new()).serialize(s),
            E::Null => s.serialize_none(),
            E::Fail => Err(S::Error::custom("boom")),
            E::BadBlock => hcl::ser::Block(BTreeMap::from([("a b", 1)])).serialize(s),
            E::Members(m) => {
                let mut map = s.serialize_map(Some(m.len()))?;
                for (k, v) in m {
                    map.serialize_entry(k, v)?;
                }
                map.end()
            }
            E::RawAttr => {
                let raw = hcl::RawBody::parse("a = 1\n").map_err(S::Error::custom)?;
                let mut o = BTreeMap::from([("x", Some(raw))]);
                // Not every value a block: an attribute.
                o.insert("y", None);
                o.serialize(s)
            }
        }
    }
}

/// A body with its entries in this order (keys not checked).
struct Doc(Vec<(String, E)>);

impl Serialize for Doc {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

/// The text (or error) of `to_string`, `to_vec`, `to_writer`, and of
/// `Serializer`, which builds the whole tree before writing.
fn both<T: Serialize>(v: &T) -> (Result<String, String>, Result<String, String>) {
    let text = hcl::to_string(v).map_err(|e| e.to_string());
    let vec = hcl::to_vec(v).map_err(|e| e.to_string());
    assert_eq!(text.as_ref().map(|t| t.as_bytes()), vec.as_deref());
    let mut out = Vec::new();
    let written = hcl::to_writer(&mut out, v).map_err(|e| e.to_string());
    assert_eq!(written.map(|()| out), vec);
    let mut whole = hcl::Serializer::new(Vec::new());
    let w = v.serialize(&mut whole).map_err(|e| e.to_string());
    let whole = w.map(|()| String::from_utf8_lossy(&whole.into_inner()).into_owned());
    (text, whole)
}

/// A small deterministic generator.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// The members of an [`E::Members`] `depth` levels down: one-line and
/// multi-line values, blocks (first or not), objects of them, odd keys,
/// and `errors` in 10,000 an error of some kind.
fn members(r: &mut Lcg, depth: u32, errors: u64) -> Vec<(String, E)> {
    let n = match r.next(10) {
        0 => 0,
        // Many members at the entry's own level only.
        1 if depth == 0 && r.next(20) == 0 => 300 + r.next(1700),
        _ => 1 + r.next(12),
    };
    (0..n)
        .map(|j| {
            let key = match r.next(20) {
                0 => format!("m {j}"),
                1 => format!("m\"{j}"),
                2 => format!("{j}"),
                _ => format!("m{j}{}", "y".repeat(r.next(8) as usize)),
            };
            let e = if r.next(10_000) < errors {
                match r.next(3) {
                    0 => E::Fail,
                    1 => E::BadBlock,
                    _ => E::RawAttr,
                }
            } else {
                match r.next(if depth < 2 { 10 } else { 8 }) {
                    0 | 1 => E::Int(r.next(1000) as i64),
                    2 => E::Str("m\"${x}".repeat(r.next(3) as usize)),
                    3 => E::List((0..r.next(4) as i64).collect()),
                    4 => E::Null,
                    5 => E::Obj(
                        (0..r.next(4))
                            .map(|i| (format!("o{i}"), i as i64))
                            .collect(),
                    ),
                    6 => E::Blk(Svc {
                        name: format!("s{j}"),
                        port: j as i64,
                    }),
                    7 => E::Blks(
                        (0..r.next(3))
                            .map(|i| Svc {
                                name: format!("s{i}"),
                                port: i as i64,
                            })
                            .collect(),
                    ),
                    _ => E::Members(members(r, depth + 1, errors)),
                }
            };
            (key, e)
        })
        .collect()
}

/// A document of `n` entries; `inline` in 100 are one-line attributes,
/// `errors` in 10,000 are an error of some kind.
fn doc(seed: u64, n: usize, inline: u64, errors: u64) -> Doc {
    let mut r = Lcg(seed);
    let mut entries = Vec::new();
    for i in 0..n {
        let pad = "x".repeat(r.next(12) as usize);
        let mut key = format!("k{i}{pad}");
        let e = if r.next(10_000) < errors {
            match r.next(4) {
                0 => E::Fail,
                1 => E::BadBlock,
                2 => E::RawAttr,
                _ => {
                    key = format!("bad key {i}");
                    E::Int(1)
                }
            }
        } else if r.next(100) < inline {
            match r.next(5) {
                0 => E::Int(r.next(1000) as i64),
                1 => E::Str("a\"b${c}\n".repeat(r.next(3) as usize)),
                2 => E::List((0..r.next(4) as i64).collect()),
                3 => E::Null,
                _ => E::Obj(BTreeMap::new()),
            }
        } else {
            let e = match r.next(5) {
                0 => E::Obj(
                    (0..1 + r.next(40))
                        .map(|j| (format!("o{j}"), j as i64))
                        .collect(),
                ),
                1 => E::Blk(Svc {
                    name: format!("s{i}"),
                    port: i as i64,
                }),
                2 => E::Blks(
                    (0..r.next(30))
                        .map(|j| Svc {
                            name: format!("s{j}"),
                            port: j as i64,
                        })
                        .collect(),
                ),
                3 => E::NoBlocks,
                _ => E::List(vec![]),
            };
            // A fifth of the multi-line entries are objects of all kinds
            // of members, drawn apart (the entries above are as before);
            // errors inside them in a quarter of the seeds only, so that
            // the body's own errors still win in the others.
            let mut side = Lcg(seed ^ (i as u64) << 20);
            if side.next(5) == 0 {
                E::Members(members(&mut side, 0, errors * u64::from(seed % 4 == 3)))
            } else {
                e
            }
        };
        entries.push((key, e));
    }
    Doc(entries)
}

#[test]
fn a_body_written_entry_by_entry_is_the_body_written_whole() {
    let mut errors = std::collections::BTreeSet::<&str>::new();
    for seed in 0..150 {
        let n = [1, 3, 20, 200, 3000][seed as usize % 5];
        let inline = [0, 30, 70, 95, 100][(seed / 5) as usize % 5];
        let err = [0, 1, 3, 30, 300][(seed / 25) as usize % 5];
        let d = doc(seed, n, inline, err);
        let (streamed, whole) = both(&d);
        assert_eq!(streamed, whole, "seed {seed}");
        if let Err(e) = &whole {
            let kinds = ["boom", "`a b` cannot", "`bad key", "RawBody"];
            errors.extend(kinds.iter().filter(|k| e.contains(*k)));
        }
        // The same entries, at the top of a `Value`.
        let v: Result<hcl::Value, _> = hcl::to_value(&d);
        if let Ok(v) = v {
            let (streamed, whole) = both(&v);
            assert_eq!(streamed, whole, "seed {seed}, as a Value");
        }
    }
    // Errors of each kind were met.
    assert_eq!(errors.len(), 4, "{errors:?}");
}

#[test]
fn a_run_of_attributes_aligns_across_large_entries() {
    // A run of one-line attributes long past the size at which waiting
    // entries are written, between multi-line ones.
    let mut entries = vec![(
        "big".to_string(),
        E::Obj((0..3000).map(|j| (format!("o{j}"), j)).collect()),
    )];
    for i in 0..3000 {
        entries.push((format!("a{}", "x".repeat(i % 17)), E::Int(i as i64)));
        if i % 1000 == 999 {
            entries.push((
                format!("b{i}"),
                E::Blk(Svc {
                    name: "s".into(),
                    port: 1,
                }),
            ));
        }
    }
    let (streamed, whole) = both(&Doc(entries));
    assert!(streamed.is_ok());
    assert_eq!(streamed, whole);
}

/// A top-level struct: its null fields are absent, its labels an error.
#[derive(Serialize, Clone)]
struct Top {
    a: Option<i64>,
    #[serde(rename = "$label")]
    label: Option<String>,
    svc: Vec<Svc>,
    b: Option<i64>,
    raw: Option<E>,
    c: i64,
}

#[test]
fn a_top_level_struct_is_written_as_whole() {
    let svc: Vec<Svc> = (0..200)
        .map(|j| Svc {
            name: format!("s{j}"),
            port: j,
        })
        .collect();
    for a in [None, Some(1)] {
        for label in [None, Some("l".to_string())] {
            for raw in [
                None,
                Some(E::RawAttr),
                Some(E::Fail),
                Some(E::BadBlock),
                Some(E::Blk(svc[0].clone())),
            ] {
                for b in [None, Some(22)] {
                    let top = Top {
                        a,
                        label: label.clone(),
                        svc: svc.clone(),
                        b,
                        raw: raw.clone(),
                        c: 3,
                    };
                    let (streamed, whole) = both(&top);
                    assert_eq!(streamed, whole);
                }
            }
        }
    }
}
