//! A [`Map`](super::Map) past its small size: the entries in order and a
//! hash table of their positions.

use hashbrown::HashTable;
use std::borrow::Borrow;
use std::hash::{BuildHasher, Hash, RandomState};
use std::mem;

/// The entries, and for each a slot in `table` holding its position,
/// found by the key's hash: `table` has exactly one slot per entry.
#[derive(Clone)]
pub(super) struct Indexed<K, V> {
    pub(super) entries: Vec<(K, V)>,
    table: HashTable<usize>,
    state: RandomState,
}

/// The hash of entry `i`'s key (0 past the end, which the table's
/// invariant never asks for).
#[inline]
fn hash_at<K: Hash, V>(state: &RandomState, entries: &[(K, V)], i: usize) -> u64 {
    entries.get(i).map_or(0, |(k, _)| state.hash_one(k))
}

impl<K, V> Indexed<K, V> {
    /// Removes every entry, keeping the room.
    pub(super) fn clear(&mut self) {
        self.entries.clear();
        self.table.clear();
    }

    /// Rebuilds the table after entries moved or went.
    pub(super) fn reindex(&mut self)
    where
        K: Hash,
    {
        let Indexed {
            entries,
            table,
            state,
        } = self;
        table.clear();
        for (i, (k, _)) in entries.iter().enumerate() {
            table.insert_unique(state.hash_one(k), i, |&j| hash_at(state, entries, j));
        }
    }
}

impl<K: Hash, V> Indexed<K, V> {
    /// Removes and returns the last entry.
    pub(super) fn pop(&mut self) -> Option<(K, V)> {
        let last = self.entries.len().checked_sub(1)?;
        self.unindex(last);
        self.entries.pop()
    }

    /// Removes entry `i`'s slot from the table (the entry stays).
    fn unindex(&mut self, i: usize) {
        let hash = hash_at(&self.state, &self.entries, i);
        if let Ok(slot) = self.table.find_entry(hash, |&j| j == i) {
            slot.remove();
        }
    }
}

impl<K: Hash + Eq, V> Indexed<K, V> {
    /// `entries` (every key once) with their table.
    pub(super) fn new(entries: Vec<(K, V)>) -> Self {
        let mut indexed = Indexed {
            table: HashTable::with_capacity(entries.capacity()),
            entries,
            state: RandomState::new(),
        };
        indexed.reindex();
        indexed
    }

    /// Room for `additional` more entries.
    pub(super) fn reserve(&mut self, additional: usize) {
        let Indexed {
            entries,
            table,
            state,
        } = self;
        entries.reserve(additional);
        table.reserve(additional, |&j| hash_at(state, entries, j));
    }

    /// The position of `key`'s entry.
    #[inline]
    pub(super) fn find<Q>(&self, key: &Q) -> Option<usize>
    where
        K: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        let hash = self.state.hash_one(key);
        let entries = &self.entries;
        self.table
            .find(hash, |&i| {
                entries.get(i).is_some_and(|(k, _)| k.borrow() == key)
            })
            .copied()
    }

    /// Sets `key` to `value` (a new key last), the old value returned.
    pub(super) fn insert_full(&mut self, key: K, value: V) -> (usize, Option<V>) {
        match self.find(&key) {
            Some(i) => {
                let old = self.entries.get_mut(i).map(|(_, v)| mem::replace(v, value));
                (i, old)
            }
            None => (self.push_new(key, value), None),
        }
    }

    /// Appends an entry whose key the map does not have; its position.
    pub(super) fn push_new(&mut self, key: K, value: V) -> usize {
        let Indexed {
            entries,
            table,
            state,
        } = self;
        let i = entries.len();
        let hash = state.hash_one(&key);
        entries.push((key, value));
        table.insert_unique(hash, i, |&j| hash_at(state, entries, j));
        i
    }

    /// Removes entry `i`, the later ones moving up one place.
    pub(super) fn shift_remove_index(&mut self, i: usize) -> Option<(K, V)> {
        if i >= self.entries.len() {
            return None;
        }
        self.unindex(i);
        for slot in self.table.iter_mut() {
            if *slot > i {
                *slot -= 1;
            }
        }
        Some(self.entries.remove(i))
    }

    /// Removes entry `i`, the last one moving into its place.
    pub(super) fn swap_remove_index(&mut self, i: usize) -> Option<(K, V)> {
        let last = self.entries.len().checked_sub(1)?;
        if i > last {
            return None;
        }
        self.unindex(i);
        if i != last {
            // The last entry's slot now holds `i`.
            let hash = hash_at(&self.state, &self.entries, last);
            if let Some(slot) = self.table.find_mut(hash, |&j| j == last) {
                *slot = i;
            }
        }
        Some(self.entries.swap_remove(i))
    }
}
