//! [`Map`]'s iterators, in the entries' order, and its conversions from
//! and into iterators.

use super::Map;
use std::fmt;
use std::hash::Hash;
use std::iter::FusedIterator;
use std::{slice, vec};

/// Defines an iterator over `$inner` whose items `$map` turns into
/// `$item`: the standard iterator traits and a `Debug` that lists what is
/// left.
macro_rules! entries_iter {
    (
        $(#[$doc:meta])*
        $name:ident<$($lt:lifetime,)? K, V>($inner:ty) -> $item:ty, |$e:pat_param| $map:expr
    ) => {
        $(#[$doc])*
        pub struct $name<$($lt,)? K, V> {
            inner: $inner,
        }

        impl<$($lt,)? K, V> $name<$($lt,)? K, V> {
            pub(super) fn new(entries: impl IntoIterator<IntoIter = $inner>) -> Self {
                $name { inner: entries.into_iter() }
            }
        }

        impl<$($lt,)? K, V> Iterator for $name<$($lt,)? K, V> {
            type Item = $item;

            #[inline]
            fn next(&mut self) -> Option<Self::Item> {
                self.inner.next().map(|$e| $map)
            }

            #[inline]
            fn size_hint(&self) -> (usize, Option<usize>) {
                self.inner.size_hint()
            }

            #[inline]
            fn count(self) -> usize {
                self.inner.len()
            }

            #[inline]
            fn nth(&mut self, n: usize) -> Option<Self::Item> {
                self.inner.nth(n).map(|$e| $map)
            }

            #[inline]
            fn last(mut self) -> Option<Self::Item> {
                self.next_back()
            }
        }

        impl<$($lt,)? K, V> DoubleEndedIterator for $name<$($lt,)? K, V> {
            #[inline]
            fn next_back(&mut self) -> Option<Self::Item> {
                self.inner.next_back().map(|$e| $map)
            }
        }

        impl<$($lt,)? K, V> ExactSizeIterator for $name<$($lt,)? K, V> {
            #[inline]
            fn len(&self) -> usize {
                self.inner.len()
            }
        }

        impl<$($lt,)? K, V> FusedIterator for $name<$($lt,)? K, V> {}

        impl<$($lt,)? K: fmt::Debug, V: fmt::Debug> fmt::Debug for $name<$($lt,)? K, V> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.debug_tuple(stringify!($name)).field(&self.inner).finish()
            }
        }
    };
}

entries_iter! {
    /// The entries of a [`Map`], in order: [`Map::iter`].
    Iter<'a, K, V>(slice::Iter<'a, (K, V)>) -> (&'a K, &'a V), |(k, v)| (k, v)
}

entries_iter! {
    /// The entries of a [`Map`], in order, values mutable:
    /// [`Map::iter_mut`].
    IterMut<'a, K, V>(slice::IterMut<'a, (K, V)>) -> (&'a K, &'a mut V), |(k, v)| (&*k, v)
}

entries_iter! {
    /// The entries of a [`Map`], in order, the map consumed.
    IntoIter<K, V>(vec::IntoIter<(K, V)>) -> (K, V), |e| e
}

entries_iter! {
    /// The keys of a [`Map`], in order: [`Map::keys`].
    Keys<'a, K, V>(slice::Iter<'a, (K, V)>) -> &'a K, |(k, _)| k
}

entries_iter! {
    /// The values of a [`Map`], in order: [`Map::values`].
    Values<'a, K, V>(slice::Iter<'a, (K, V)>) -> &'a V, |(_, v)| v
}

entries_iter! {
    /// The values of a [`Map`], in order, mutable: [`Map::values_mut`].
    ValuesMut<'a, K, V>(slice::IterMut<'a, (K, V)>) -> &'a mut V, |(_, v)| v
}

entries_iter! {
    /// The keys of a [`Map`], in order, the map consumed:
    /// [`Map::into_keys`].
    IntoKeys<K, V>(vec::IntoIter<(K, V)>) -> K, |(k, _)| k
}

entries_iter! {
    /// The values of a [`Map`], in order, the map consumed:
    /// [`Map::into_values`].
    IntoValues<K, V>(vec::IntoIter<(K, V)>) -> V, |(_, v)| v
}

impl<K, V> Clone for Iter<'_, K, V> {
    fn clone(&self) -> Self {
        Iter {
            inner: self.inner.clone(),
        }
    }
}

impl<K, V> Clone for Keys<'_, K, V> {
    fn clone(&self) -> Self {
        Keys {
            inner: self.inner.clone(),
        }
    }
}

impl<K, V> Clone for Values<'_, K, V> {
    fn clone(&self) -> Self {
        Values {
            inner: self.inner.clone(),
        }
    }
}

impl<'a, K, V> IntoIterator for &'a Map<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;

    fn into_iter(self) -> Iter<'a, K, V> {
        self.iter()
    }
}

impl<'a, K, V> IntoIterator for &'a mut Map<K, V> {
    type Item = (&'a K, &'a mut V);
    type IntoIter = IterMut<'a, K, V>;

    fn into_iter(self) -> IterMut<'a, K, V> {
        self.iter_mut()
    }
}

impl<K, V> IntoIterator for Map<K, V> {
    type Item = (K, V);
    type IntoIter = IntoIter<K, V>;

    fn into_iter(self) -> IntoIter<K, V> {
        IntoIter::new(self.into_entries())
    }
}

/// Inserts each entry in turn: a repeated key keeps its first place and
/// its last value.
impl<K: Hash + Eq, V> FromIterator<(K, V)> for Map<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(entries: I) -> Self {
        let entries = entries.into_iter();
        let mut map = Map::with_capacity(entries.size_hint().0);
        map.extend(entries);
        map
    }
}

/// Inserts each entry in turn, as [`Map::insert`].
impl<K: Hash + Eq, V> Extend<(K, V)> for Map<K, V> {
    fn extend<I: IntoIterator<Item = (K, V)>>(&mut self, entries: I) {
        let entries = entries.into_iter();
        // Room for every entry when the map is empty (no key repeats an
        // existing one), for half of them otherwise, as `IndexMap` does.
        let hint = entries.size_hint().0;
        self.reserve(if self.is_empty() {
            hint
        } else {
            hint.div_ceil(2)
        });
        for (k, v) in entries {
            self.insert(k, v);
        }
    }
}

/// Inserts a copy of each entry in turn, as [`Map::insert`].
impl<'a, K: Hash + Eq + Copy, V: Copy> Extend<(&'a K, &'a V)> for Map<K, V> {
    fn extend<I: IntoIterator<Item = (&'a K, &'a V)>>(&mut self, entries: I) {
        self.extend(entries.into_iter().map(|(k, v)| (*k, *v)));
    }
}

/// The entries inserted in order, as [`FromIterator`].
impl<K: Hash + Eq, V, const N: usize> From<[(K, V); N]> for Map<K, V> {
    fn from(entries: [(K, V); N]) -> Self {
        Map::from_iter(entries)
    }
}
