//! [`Map::entry`]: one key's entry, there or not, to read, insert or
//! change in place.

use super::Map;
use std::fmt;
use std::hash::Hash;
use std::mem;

/// A key's entry in a [`Map`]: [`Map::entry`].
///
/// ```
/// use hcl::{Map, Value};
///
/// let mut counts: Map<String, Value> = Map::new();
/// for word in ["a", "b", "a"] {
///     let n = counts.entry(word.to_string()).or_insert(Value::from(0));
///     *n = Value::from(n.as_i64().unwrap_or(0) + 1);
/// }
/// assert_eq!(counts["a"], 2);
/// assert_eq!(counts.keys().collect::<Vec<_>>(), ["a", "b"]);
/// ```
pub enum Entry<'a, K, V> {
    /// The map has the key.
    Occupied(OccupiedEntry<'a, K, V>),
    /// The map does not have the key.
    Vacant(VacantEntry<'a, K, V>),
}

/// An entry the map has: [`Entry::Occupied`].
pub struct OccupiedEntry<'a, K, V> {
    map: &'a mut Map<K, V>,
    /// The entry's position: always within the map, which this borrows.
    index: usize,
}

/// A key the map does not have: [`Entry::Vacant`].
pub struct VacantEntry<'a, K, V> {
    map: &'a mut Map<K, V>,
    key: K,
}

impl<'a, K: Hash + Eq, V> Entry<'a, K, V> {
    /// The value, `default` inserted first if the key is new.
    pub fn or_insert(self, default: V) -> &'a mut V {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(default),
        }
    }

    /// The value, `default()` inserted first if the key is new.
    pub fn or_insert_with(self, default: impl FnOnce() -> V) -> &'a mut V {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => e.insert(default()),
        }
    }

    /// The value, `default(&key)` inserted first if the key is new.
    pub fn or_insert_with_key(self, default: impl FnOnce(&K) -> V) -> &'a mut V {
        match self {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let value = default(&e.key);
                e.insert(value)
            }
        }
    }

    /// The value, `V::default()` inserted first if the key is new.
    pub fn or_default(self) -> &'a mut V
    where
        V: Default,
    {
        self.or_insert_with(V::default)
    }

    /// Calls `f` on the value if the key is there.
    pub fn and_modify(mut self, f: impl FnOnce(&mut V)) -> Self {
        if let Entry::Occupied(e) = &mut self {
            f(e.get_mut());
        }
        self
    }

    /// The entry's key.
    pub fn key(&self) -> &K {
        match self {
            Entry::Occupied(e) => e.key(),
            Entry::Vacant(e) => e.key(),
        }
    }

    /// The entry's position: where it is, or where it would be inserted.
    pub fn index(&self) -> usize {
        match self {
            Entry::Occupied(e) => e.index(),
            Entry::Vacant(e) => e.index(),
        }
    }
}

impl<'a, K, V> OccupiedEntry<'a, K, V> {
    pub(super) fn new(map: &'a mut Map<K, V>, index: usize) -> Self {
        OccupiedEntry { map, index }
    }

    /// The entry.
    fn slot(&self) -> &(K, V) {
        match self.map.entries().get(self.index) {
            Some(entry) => entry,
            None => unreachable!("an occupied entry's index is in its map"),
        }
    }

    /// The key as stored.
    pub fn key(&self) -> &K {
        &self.slot().0
    }

    /// The value.
    pub fn get(&self) -> &V {
        &self.slot().1
    }

    /// The value, mutable.
    pub fn get_mut(&mut self) -> &mut V {
        value_at(self.map, self.index)
    }

    /// The value, mutable for as long as the map is borrowed.
    pub fn into_mut(self) -> &'a mut V {
        value_at(self.map, self.index)
    }

    /// Sets the value, returning the old one.
    pub fn insert(&mut self, value: V) -> V {
        mem::replace(self.get_mut(), value)
    }

    /// The entry's position.
    pub fn index(&self) -> usize {
        self.index
    }
}

impl<K: Hash + Eq, V> OccupiedEntry<'_, K, V> {
    /// Removes the entry keeping the others' order
    /// ([`Map::shift_remove`]), returning its value.
    pub fn shift_remove(self) -> V {
        self.shift_remove_entry().1
    }

    /// Removes the entry keeping the others' order, returning its key and
    /// value.
    pub fn shift_remove_entry(self) -> (K, V) {
        match self.map.shift_remove_index(self.index) {
            Some(entry) => entry,
            // The index is within the map, which this entry borrows.
            None => unreachable!("an occupied entry's index is in its map"),
        }
    }

    /// Removes the entry moving the last one into its place
    /// ([`Map::swap_remove`]), returning its value.
    pub fn swap_remove(self) -> V {
        self.swap_remove_entry().1
    }

    /// Removes the entry moving the last one into its place, returning its
    /// key and value.
    pub fn swap_remove_entry(self) -> (K, V) {
        match self.map.swap_remove_index(self.index) {
            Some(entry) => entry,
            None => unreachable!("an occupied entry's index is in its map"),
        }
    }

    /// Removes the entry keeping the others' order: [`Self::shift_remove`].
    pub fn remove(self) -> V {
        self.shift_remove()
    }

    /// Removes the entry keeping the others' order, with its key:
    /// [`Self::shift_remove_entry`].
    pub fn remove_entry(self) -> (K, V) {
        self.shift_remove_entry()
    }
}

impl<'a, K, V> VacantEntry<'a, K, V> {
    pub(super) fn new(map: &'a mut Map<K, V>, key: K) -> Self {
        VacantEntry { map, key }
    }

    /// The key that would be inserted.
    pub fn key(&self) -> &K {
        &self.key
    }

    /// The key, not inserted.
    pub fn into_key(self) -> K {
        self.key
    }

    /// Where the entry would be inserted: last.
    pub fn index(&self) -> usize {
        self.map.len()
    }
}

impl<'a, K: Hash + Eq, V> VacantEntry<'a, K, V> {
    /// Inserts the key with `value`, last, returning the value mutable.
    pub fn insert(self, value: V) -> &'a mut V {
        let index = self.map.push_new(self.key, value);
        value_at(self.map, index)
    }
}

/// The value of the entry at `index`, which the map has.
fn value_at<K, V>(map: &mut Map<K, V>, index: usize) -> &mut V {
    match map.entries_mut().get_mut(index) {
        Some((_, v)) => v,
        None => unreachable!("an entry's index is in its map"),
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for Entry<'_, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Entry::Occupied(e) => f.debug_tuple("Entry").field(e).finish(),
            Entry::Vacant(e) => f.debug_tuple("Entry").field(e).finish(),
        }
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for OccupiedEntry<'_, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OccupiedEntry")
            .field("key", self.key())
            .field("value", self.get())
            .finish()
    }
}

impl<K: fmt::Debug, V> fmt::Debug for VacantEntry<'_, K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("VacantEntry").field(self.key()).finish()
    }
}
