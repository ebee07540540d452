//! [`Map`], the insertion-ordered map of HCL objects, and its iterators
//! and entries.
//!
//! A configuration's objects are small: a block's handful of attributes,
//! a map of tags. `Map` keeps such an object in one allocation, its
//! entries in order, and finds a key by comparing the few keys there are;
//! past [`Map`]'s small size it adds a hash index (SipHash with a random
//! key, as `std`'s `HashMap`, so that no input makes lookups slow). Its
//! methods are `IndexMap`'s and `serde_json::Map`'s (`get`, `insert`,
//! `entry`, `shift_remove`, `sort_keys`, ...), and it is 24 bytes, so that
//! a [`Value`](crate::Value) is 32.

mod entry;
mod index;
mod iter;
mod traits;

pub use entry::{Entry, OccupiedEntry, VacantEntry};
pub use iter::{IntoIter, IntoKeys, IntoValues, Iter, IterMut, Keys, Values, ValuesMut};

use self::index::Indexed;
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::hash::Hash;
use std::mem;

/// Up to this many entries a map has no hash index: a lookup compares
/// keys in order.
const SMALL: usize = 8;

/// An insertion-ordered map, the representation of HCL objects.
///
/// Keys keep the order in which they were inserted (inserting a key
/// again replaces its value in place); where HCL demands lexicographic
/// order (iterating an object in a `for` expression), the evaluator
/// sorts. Two maps are equal when they hold the same keys with equal
/// values, in any order.
///
/// ```
/// use hcl::{Map, Value};
///
/// let mut m = Map::new();
/// m.insert("name".to_string(), Value::from("web"));
/// m.insert("port".to_string(), Value::from(80));
/// m.insert("name".to_string(), Value::from("api"));
/// assert_eq!(m.keys().collect::<Vec<_>>(), ["name", "port"]);
/// assert_eq!(m["name"], "api");
/// assert_eq!(m.get_index(1), Some((&"port".to_string(), &Value::from(80))));
///
/// *m.entry("port".to_string()).or_insert(Value::Null) = Value::from(8080);
/// assert_eq!(m.shift_remove("name"), Some(Value::from("api")));
/// assert_eq!(m.len(), 1);
/// ```
#[derive(Clone)]
pub struct Map<K = String, V = crate::Value> {
    repr: Repr<K, V>,
}

/// The entries alone while there are few, with their index after.
#[derive(Clone)]
enum Repr<K, V> {
    Small(Vec<(K, V)>),
    Large(Box<Indexed<K, V>>),
}

impl<K, V> Map<K, V> {
    /// An empty map; it allocates nothing until an entry is inserted.
    pub const fn new() -> Self {
        Map {
            repr: Repr::Small(Vec::new()),
        }
    }

    /// An empty map with room for `capacity` entries.
    pub fn with_capacity(capacity: usize) -> Self {
        Map {
            repr: Repr::Small(Vec::with_capacity(capacity)),
        }
    }

    /// The entries, in order.
    #[inline]
    fn entries(&self) -> &Vec<(K, V)> {
        match &self.repr {
            Repr::Small(entries) => entries,
            Repr::Large(large) => &large.entries,
        }
    }

    /// The entries, to change values only: no key changes and no entry
    /// moves, so the index stays true.
    #[inline]
    fn entries_mut(&mut self) -> &mut [(K, V)] {
        self.entries_vec_mut()
    }

    /// The entries, to reorder or remove some; then [`Map::reindex`].
    fn entries_vec_mut(&mut self) -> &mut Vec<(K, V)> {
        match &mut self.repr {
            Repr::Small(entries) => entries,
            Repr::Large(large) => &mut large.entries,
        }
    }

    /// How many entries the map has.
    #[inline]
    pub fn len(&self) -> usize {
        self.entries().len()
    }

    /// Whether the map has no entry.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.entries().is_empty()
    }

    /// How many entries the map holds without allocating.
    pub fn capacity(&self) -> usize {
        self.entries().capacity()
    }

    /// Removes every entry, keeping the room.
    pub fn clear(&mut self) {
        match &mut self.repr {
            Repr::Small(entries) => entries.clear(),
            Repr::Large(large) => large.clear(),
        }
    }

    /// The entries in order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        Iter::new(self.entries())
    }

    /// The entries in order, values mutable.
    pub fn iter_mut(&mut self) -> IterMut<'_, K, V> {
        IterMut::new(self.entries_mut())
    }

    /// The keys in order.
    pub fn keys(&self) -> Keys<'_, K, V> {
        Keys::new(self.entries())
    }

    /// The values in order.
    pub fn values(&self) -> Values<'_, K, V> {
        Values::new(self.entries())
    }

    /// The values in order, mutable.
    pub fn values_mut(&mut self) -> ValuesMut<'_, K, V> {
        ValuesMut::new(self.entries_mut())
    }

    /// The keys in order, the map consumed.
    pub fn into_keys(self) -> IntoKeys<K, V> {
        IntoKeys::new(self.into_entries())
    }

    /// The values in order, the map consumed.
    pub fn into_values(self) -> IntoValues<K, V> {
        IntoValues::new(self.into_entries())
    }

    /// The entries in order, the map consumed.
    fn into_entries(self) -> Vec<(K, V)> {
        match self.repr {
            Repr::Small(entries) => entries,
            Repr::Large(large) => large.entries,
        }
    }

    /// The entry at position `index`.
    pub fn get_index(&self, index: usize) -> Option<(&K, &V)> {
        self.entries().get(index).map(|(k, v)| (k, v))
    }

    /// The entry at position `index`, its value mutable.
    pub fn get_index_mut(&mut self, index: usize) -> Option<(&K, &mut V)> {
        self.entries_mut().get_mut(index).map(|(k, v)| (&*k, v))
    }

    /// The first entry.
    pub fn first(&self) -> Option<(&K, &V)> {
        self.entries().first().map(|(k, v)| (k, v))
    }

    /// The last entry.
    pub fn last(&self) -> Option<(&K, &V)> {
        self.entries().last().map(|(k, v)| (k, v))
    }
}

impl<K: Hash + Eq, V> Map<K, V> {
    /// Keeps the first `len` entries, removing the rest.
    pub fn truncate(&mut self, len: usize) {
        if len < self.len() {
            self.entries_vec_mut().truncate(len);
            self.reindex();
        }
    }

    /// Removes and returns the last entry.
    pub fn pop(&mut self) -> Option<(K, V)> {
        match &mut self.repr {
            Repr::Small(entries) => entries.pop(),
            Repr::Large(large) => large.pop(),
        }
    }

    /// Keeps the entries for which `keep` says so, in order.
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        let before = self.len();
        self.entries_vec_mut().retain_mut(|(k, v)| keep(k, v));
        if self.len() != before {
            self.reindex();
        }
    }

    /// Sorts the entries by key.
    pub fn sort_keys(&mut self)
    where
        K: Ord,
    {
        self.entries_vec_mut().sort_by(|a, b| a.0.cmp(&b.0));
        self.reindex();
    }

    /// Sorts the entries with `compare` (a stable sort).
    pub fn sort_by(&mut self, mut compare: impl FnMut(&K, &V, &K, &V) -> Ordering) {
        self.entries_vec_mut()
            .sort_by(|a, b| compare(&a.0, &a.1, &b.0, &b.1));
        self.reindex();
    }

    /// Sorts the entries with `compare` (an unstable sort).
    pub fn sort_unstable_by(&mut self, mut compare: impl FnMut(&K, &V, &K, &V) -> Ordering) {
        self.entries_vec_mut()
            .sort_unstable_by(|a, b| compare(&a.0, &a.1, &b.0, &b.1));
        self.reindex();
    }

    /// Reverses the order of the entries.
    pub fn reverse(&mut self) {
        self.entries_vec_mut().reverse();
        self.reindex();
    }

    /// Rebuilds the index after entries moved or went.
    fn reindex(&mut self) {
        if let Repr::Large(large) = &mut self.repr {
            large.reindex();
        }
    }

    /// Room for `additional` more entries.
    pub fn reserve(&mut self, additional: usize) {
        match &mut self.repr {
            Repr::Small(entries) => entries.reserve(additional),
            Repr::Large(large) => large.reserve(additional),
        }
    }

    /// The position of `key`'s entry.
    #[inline]
    pub fn get_index_of<Q>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        match &self.repr {
            Repr::Small(entries) => entries.iter().position(|(k, _)| k.borrow() == key),
            Repr::Large(large) => large.find(key),
        }
    }

    /// Whether the map has an entry for `key`.
    pub fn contains_key<Q>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.get_index_of(key).is_some()
    }

    /// The value of `key`.
    #[inline]
    pub fn get<Q>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.get_index_of(key)?;
        self.entries().get(i).map(|(_, v)| v)
    }

    /// The value of `key`, mutable.
    pub fn get_mut<Q>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.get_index_of(key)?;
        self.entries_mut().get_mut(i).map(|(_, v)| v)
    }

    /// The key as stored and the value of `key`.
    pub fn get_key_value<Q>(&self, key: &Q) -> Option<(&K, &V)>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.get_index_of(key)?;
        self.get_index(i)
    }

    /// The position, the key as stored and the value of `key`.
    pub fn get_full<Q>(&self, key: &Q) -> Option<(usize, &K, &V)>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.get_index_of(key)?;
        self.get_index(i).map(|(k, v)| (i, k, v))
    }

    /// Sets `key` to `value`: a new key goes last, a key the map has keeps
    /// its place (and its stored key); the value it had is returned.
    #[inline]
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        self.insert_full(key, value).1
    }

    /// [`Map::insert`], with the position of the entry.
    pub fn insert_full(&mut self, key: K, value: V) -> (usize, Option<V>) {
        match &mut self.repr {
            Repr::Small(entries) => {
                if let Some(i) = entries.iter().position(|(k, _)| *k == key) {
                    let old = entries.get_mut(i).map(|(_, v)| mem::replace(v, value));
                    return (i, old);
                }
                if entries.len() < SMALL {
                    entries.push((key, value));
                    return (entries.len() - 1, None);
                }
                (self.promote(key, value), None)
            }
            // One hash for the lookup and the insertion.
            Repr::Large(large) => large.insert_full(key, value),
        }
    }

    /// Appends an entry whose key the map does not have.
    fn push_new(&mut self, key: K, value: V) -> usize {
        match &mut self.repr {
            Repr::Small(entries) if entries.len() < SMALL => {
                entries.push((key, value));
                entries.len() - 1
            }
            Repr::Small(_) => self.promote(key, value),
            Repr::Large(large) => large.push_new(key, value),
        }
    }

    /// Gives a full small map its index, then appends an entry whose key
    /// it does not have.
    #[cold]
    fn promote(&mut self, key: K, value: V) -> usize {
        let mut large = Box::new(Indexed::new(mem::take(self.entries_vec_mut())));
        let i = large.push_new(key, value);
        self.repr = Repr::Large(large);
        i
    }

    /// `key`'s entry, to read, insert or change in place.
    pub fn entry(&mut self, key: K) -> Entry<'_, K, V> {
        match self.get_index_of(&key) {
            Some(index) => Entry::Occupied(OccupiedEntry::new(self, index)),
            None => Entry::Vacant(VacantEntry::new(self, key)),
        }
    }

    /// Removes `key`'s entry, keeping the order of the others (the later
    /// entries move up one place), and returns its value.
    pub fn shift_remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shift_remove_entry(key).map(|(_, v)| v)
    }

    /// [`Map::shift_remove`], with the stored key.
    pub fn shift_remove_entry<Q>(&mut self, key: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.get_index_of(key)?;
        self.shift_remove_index(i)
    }

    /// Removes the entry at position `index`, keeping the order of the
    /// others.
    pub fn shift_remove_index(&mut self, index: usize) -> Option<(K, V)> {
        match &mut self.repr {
            Repr::Small(entries) => (index < entries.len()).then(|| entries.remove(index)),
            Repr::Large(large) => large.shift_remove_index(index),
        }
    }

    /// Removes `key`'s entry, moving the last entry into its place (faster
    /// than [`Map::shift_remove`], but the order changes), and returns its
    /// value.
    pub fn swap_remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.swap_remove_entry(key).map(|(_, v)| v)
    }

    /// [`Map::swap_remove`], with the stored key.
    pub fn swap_remove_entry<Q>(&mut self, key: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let i = self.get_index_of(key)?;
        self.swap_remove_index(i)
    }

    /// Removes the entry at position `index`, moving the last entry into
    /// its place.
    pub fn swap_remove_index(&mut self, index: usize) -> Option<(K, V)> {
        match &mut self.repr {
            Repr::Small(entries) => (index < entries.len()).then(|| entries.swap_remove(index)),
            Repr::Large(large) => large.swap_remove_index(index),
        }
    }

    /// Removes `key`'s entry keeping the others' order: the same as
    /// [`Map::shift_remove`] (a configuration's order is worth keeping;
    /// [`Map::swap_remove`] is there when it is not).
    pub fn remove<Q>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shift_remove(key)
    }

    /// Removes `key`'s entry keeping the others' order, with the stored
    /// key: [`Map::shift_remove_entry`].
    pub fn remove_entry<Q>(&mut self, key: &Q) -> Option<(K, V)>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.shift_remove_entry(key)
    }

    /// Moves every entry of `other` into this map (as [`Map::insert`]
    /// does, in order), leaving `other` empty.
    pub fn append(&mut self, other: &mut Map<K, V>) {
        let entries = mem::take(other).into_entries();
        self.extend(entries);
    }
}

impl<K, V> Default for Map<K, V> {
    fn default() -> Self {
        Map::new()
    }
}

#[cfg(test)]
mod tests;
