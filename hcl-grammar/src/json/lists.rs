//! The parser's scratch lists: the children of the containers being
//! read, one list per depth, each moved into the document's arena in one
//! copy as its container closes.

/// The children of the containers being read, one list per depth (at
/// most one container is open at each depth); the lists of the first
/// depths inline.
pub(super) struct Lists<T> {
    near: [Vec<T>; NEAR],
    deep: Vec<Vec<T>>,
}

/// The depths whose lists are inline in [`Lists`].
const NEAR: usize = 4;

impl<T> Default for Lists<T> {
    fn default() -> Self {
        Lists {
            near: Default::default(),
            deep: Vec::new(),
        }
    }
}

impl<T> Lists<T> {
    /// The list of depth `d`.
    #[inline]
    pub(super) fn at(&mut self, d: usize) -> Option<&mut Vec<T>> {
        if d < NEAR {
            return self.near.get_mut(d);
        }
        let i = d - NEAR;
        if self.deep.len() <= i {
            self.deep.resize_with(i + 1, Vec::new);
        }
        self.deep.get_mut(i)
    }

    /// Moves the list of depth `d` to the end of `arena` in one copy,
    /// leaving it empty with its room for the next container at that
    /// depth. The first list to close into an arena without room becomes
    /// the arena (no copy, no allocation: a small document's).
    pub(super) fn close(&mut self, d: usize, arena: &mut Vec<T>) {
        if let Some(list) = self.at(d) {
            if arena.capacity() == 0 {
                std::mem::swap(arena, list);
            } else {
                arena.append(list);
            }
        }
    }
}
