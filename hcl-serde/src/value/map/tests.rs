//! [`Map`] against a model: a plain list of entries, searched in order,
//! whose behaviour is `IndexMap`'s by definition. Random operations on
//! keys from a small and a large set cross the size where the hash index
//! starts, both ways.

// The model's positions are its own entries'.
#![allow(clippy::indexing_slicing)]

use super::{Entry, Map, SMALL};
use hcl_test_support::Rng;
use std::collections::HashSet;

/// The model: entries in order, each key once.
#[derive(Default, Clone)]
struct Model(Vec<(String, u32)>);

impl Model {
    fn position(&self, k: &str) -> Option<usize> {
        self.0.iter().position(|(m, _)| m == k)
    }

    fn insert(&mut self, k: String, v: u32) -> (usize, Option<u32>) {
        match self.position(&k) {
            Some(i) => (i, Some(std::mem::replace(&mut self.0[i].1, v))),
            None => {
                self.0.push((k, v));
                (self.0.len() - 1, None)
            }
        }
    }
}

fn check(map: &Map<String, u32>, model: &Model, keys: u64, step: usize) {
    let got: Vec<(String, u32)> = map.iter().map(|(k, v)| (k.clone(), *v)).collect();
    assert_eq!(got, model.0, "entries after step {step}");
    assert_eq!(map.len(), model.0.len());
    for k in 0..keys + 2 {
        let k = format!("k{k}");
        assert_eq!(
            map.get_index_of(&k),
            model.position(&k),
            "{k} at step {step}"
        );
        assert_eq!(
            map.get(k.as_str()),
            model.position(&k).map(|i| &model.0[i].1)
        );
    }
}

fn run(seed: u64, keys: u64, steps: usize) {
    let mut rng = Rng(seed);
    let mut map: Map<String, u32> = Map::new();
    let mut model = Model::default();
    for step in 0..steps {
        let k = format!("k{}", rng.below(keys));
        let v = rng.below(1000) as u32;
        match rng.below(16) {
            0..=5 => assert_eq!(map.insert_full(k.clone(), v), model.insert(k, v)),
            6 => {
                let want = model.position(&k).map(|i| model.0.remove(i).1);
                assert_eq!(map.shift_remove(&k), want);
            }
            7 => {
                let want = model.position(&k).map(|i| model.0.swap_remove(i).1);
                assert_eq!(map.swap_remove(k.as_str()), want);
            }
            8 => {
                let want = model.insert(k.clone(), v).1.map(|_| v);
                match map.entry(k) {
                    Entry::Occupied(mut e) => {
                        assert_eq!(e.index(), model.position(e.key()).unwrap_or(usize::MAX));
                        e.insert(v);
                        assert_eq!(want, Some(v));
                    }
                    Entry::Vacant(e) => {
                        assert_eq!(e.index(), model.0.len() - 1);
                        assert_eq!(*e.insert(v), v);
                        assert_eq!(want, None);
                    }
                }
            }
            9 => {
                let cut = v % 3;
                map.retain(|_, x| *x % 3 != cut);
                model.0.retain(|(_, x)| *x % 3 != cut);
            }
            10 => {
                map.sort_keys();
                model.0.sort_by(|a, b| a.0.cmp(&b.0));
            }
            11 => {
                map.reverse();
                model.0.reverse();
            }
            12 => assert_eq!(map.pop(), model.0.pop()),
            13 => {
                let i = rng.below(model.0.len() as u64 + 2) as usize;
                let want = (i < model.0.len()).then(|| model.0.remove(i));
                assert_eq!(map.shift_remove_index(i), want);
            }
            14 => {
                let clone = map.clone();
                assert_eq!(clone, map);
                map = clone;
                if rng.below(8) == 0 {
                    let len = rng.below(model.0.len() as u64 + 1) as usize;
                    map.truncate(len);
                    model.0.truncate(len);
                }
            }
            _ => {
                if rng.below(20) == 0 {
                    map.clear();
                    model.0.clear();
                } else {
                    *map.entry(k.clone()).or_insert(0) += 1;
                    match model.position(&k) {
                        Some(i) => model.0[i].1 += 1,
                        None => model.0.push((k, 1)),
                    }
                }
            }
        }
        check(&map, &model, keys, step);
    }
}

#[test]
fn behaves_as_an_ordered_list_of_entries() {
    // Keys from a set within the small size, from one just past it, and
    // from a large one (the index built, then emptied by removals).
    for (seed, keys) in [(1, 4), (2, SMALL as u64 + 3), (3, 40), (4, 300)] {
        run(seed, keys, 4000);
    }
}

#[test]
fn equality_ignores_order_and_debug_keeps_it() {
    let a: Map<String, u32> = (0..20).map(|i| (format!("k{i}"), i)).collect();
    let b: Map<String, u32> = (0..20).rev().map(|i| (format!("k{i}"), i)).collect();
    assert_eq!(a, b);
    let mut c = b.clone();
    c.insert("k3".into(), 99);
    assert_ne!(a, c);
    let small: Map<&str, u32> = Map::from([("b", 1), ("a", 2)]);
    assert_eq!(format!("{small:?}"), r#"{"b": 1, "a": 2}"#);
}

#[test]
fn a_repeated_key_keeps_its_first_place_and_last_value() {
    let m: Map<&str, u32> = [("a", 1), ("b", 2), ("a", 3)].into_iter().collect();
    assert_eq!(m.iter().collect::<Vec<_>>(), [(&"a", &3), (&"b", &2)]);
}

#[test]
fn iterators_agree_and_run_both_ways() {
    let mut m: Map<String, u32> = (0..12).map(|i| (format!("k{i}"), i)).collect();
    assert_eq!(m.keys().len(), 12);
    assert_eq!(m.values().next_back(), Some(&11));
    for v in m.values_mut() {
        *v *= 2;
    }
    assert_eq!(m.iter().nth(3), Some((&"k3".to_string(), &6)));
    let keys: HashSet<String> = m.clone().into_keys().collect();
    assert_eq!(keys.len(), 12);
    assert_eq!(m.clone().into_values().sum::<u32>(), 132);
    assert_eq!(m.get_key_value("k5"), Some((&"k5".to_string(), &10)));
    assert_eq!(m.first(), Some((&"k0".to_string(), &0)));
    assert_eq!(m.last(), Some((&"k11".to_string(), &22)));
    let mut other = Map::from([("k0".to_string(), 1), ("new".to_string(), 2)]);
    m.append(&mut other);
    assert!(other.is_empty());
    assert_eq!((m.len(), m["k0"], m["new"]), (13, 1, 2));
}

#[test]
fn sizes() {
    assert_eq!(size_of::<Map<String, crate::Value>>(), 24);
    assert_eq!(size_of::<crate::Value>(), 32);
}

#[test]
fn serde_reads_and_writes_it_in_order() {
    // A repeated attribute is an error in HCL, before any map is built.
    assert!(crate::from_str::<Map<String, u32>>("b = 1\na = 2\nb = 3\n").is_err());
    let src = (0..12)
        .map(|i| format!("k{} = {i}\n", 11 - i))
        .collect::<String>();
    let m: Map<String, u32> = crate::from_str(&src).unwrap_or_default();
    assert_eq!(m.len(), 12);
    assert_eq!(m.first(), Some((&"k11".to_string(), &0)));
    assert_eq!(m["k0"], 11);
    let written = crate::to_string(&m).unwrap_or_default();
    let back: Map<String, u32> = crate::from_str(&written).unwrap_or_default();
    assert_eq!(
        back.iter().collect::<Vec<_>>(),
        m.iter().collect::<Vec<_>>()
    );
}
