//! The parser's room: the scratch lists of the containers being read,
//! one list per depth, each moved into the document's arena in one copy
//! as its container closes; and the buffers each thread keeps between
//! parses ([`Spare`]), so that a small document costs no allocation once
//! one like it has been parsed and dropped on the thread.

use super::{JsonProperty, JsonValue};
use std::cell::RefCell;

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
        Lists::new()
    }
}

impl<T> Lists<T> {
    /// No list, no room.
    pub(super) const fn new() -> Self {
        Lists {
            near: [const { Vec::new() }; NEAR],
            deep: Vec::new(),
        }
    }

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
    /// the arena (no copy, no allocation: a small document's, on a
    /// thread with no spare arena yet).
    pub(super) fn close(&mut self, d: usize, arena: &mut Vec<T>) {
        if let Some(list) = self.at(d) {
            if arena.capacity() == 0 {
                std::mem::swap(arena, list);
            } else {
                arena.append(list);
            }
        }
    }

    /// Empties every list (after an error), and lets go of room past
    /// what a thread keeps.
    fn settle(&mut self) {
        for list in &mut self.near {
            list.clear();
            if list.capacity() > KEEP_NODES {
                *list = Vec::new();
            }
        }
        if !self.deep.is_empty() {
            self.deep = Vec::new();
        }
    }
}

/// A document's arenas and decoded names.
#[derive(Clone, PartialEq, Default)]
pub(super) struct Room {
    /// The elements of every array.
    pub(super) values: Vec<JsonValue>,
    /// The properties of every object.
    pub(super) properties: Vec<JsonProperty>,
    /// The text of every property name written with escapes, decoded,
    /// one after another (a string value is decoded when it is read).
    pub(super) decoded: String,
    /// Where each of those ends in `decoded` (it starts where the one
    /// before ends).
    pub(super) ends: Vec<u32>,
}

impl Room {
    const fn new() -> Self {
        Room {
            values: Vec::new(),
            properties: Vec::new(),
            decoded: String::new(),
            ends: Vec::new(),
        }
    }

    /// Whether a thread keeps this room: none of it past [`KEEP_NODES`]
    /// nodes or [`KEEP_TEXT`] bytes.
    fn small(&self) -> bool {
        self.values.capacity() <= KEEP_NODES
            && self.properties.capacity() <= KEEP_NODES
            && self.ends.capacity() <= KEEP_NODES
            && self.decoded.capacity() <= KEEP_TEXT
    }

    fn clear(&mut self) {
        self.values.clear();
        self.properties.clear();
        self.decoded.clear();
        self.ends.clear();
    }
}

/// A thread's spare buffers: a document's room, empty, as a small
/// document that was dropped left it, and the parser's scratch lists
/// (at most [`KEEP_NODES`] nodes or [`KEEP_TEXT`] bytes each, so that a
/// thread holds at most about 70 KB).
pub(super) struct Spare {
    pub(super) room: Room,
    pub(super) items: Lists<JsonValue>,
    pub(super) props: Lists<JsonProperty>,
}

/// The most nodes a kept arena or list may have room for.
const KEEP_NODES: usize = 256;
/// The most bytes of decoded names a kept buffer may have room for.
const KEEP_TEXT: usize = 4096;

impl Spare {
    const fn new() -> Self {
        Spare {
            room: Room::new(),
            items: Lists::new(),
            props: Lists::new(),
        }
    }

    /// After a parse: the scratch lists emptied, none too large kept.
    pub(super) fn settle(&mut self) {
        self.items.settle();
        self.props.settle();
    }

    /// Keeps the buffers of a parse's decoded names (one that made no
    /// document), emptied, when they are small.
    pub(super) fn keep_text(&mut self, mut decoded: String, mut ends: Vec<u32>) {
        if decoded.capacity() <= KEEP_TEXT && ends.capacity() <= KEEP_NODES {
            decoded.clear();
            ends.clear();
            self.room.decoded = decoded;
            self.room.ends = ends;
        }
    }

    /// Keeps `room` (a failed parse's), emptied, when it is small.
    pub(super) fn keep(&mut self, mut room: Room) {
        if room.small() {
            room.clear();
            self.room = room;
        }
    }
}

thread_local! {
    static SPARE: RefCell<Spare> = const { RefCell::new(Spare::new()) };
}

/// Runs `f` with this thread's spare buffers, or with empty ones (in a
/// parse inside another one, or during the thread's exit).
pub(super) fn with_spare<R>(mut f: impl FnMut(&mut Spare) -> R) -> R {
    match SPARE.try_with(|s| s.try_borrow_mut().ok().map(|mut s| f(&mut s))) {
        Ok(Some(r)) => r,
        _ => f(&mut Spare::new()),
    }
}

/// Gives a dropped document's room, emptied, to this thread's next
/// parse, when it is small (what the thread kept instead is dropped
/// with the document).
pub(super) fn give_room(room: &mut Room) {
    if !room.small() {
        return;
    }
    let _ = SPARE.try_with(|s| {
        if let Ok(mut s) = s.try_borrow_mut() {
            room.clear();
            std::mem::swap(&mut s.room, room);
        }
    });
}

/// `spare` if it has room for `n` nodes, else a new arena with that room.
pub(super) fn sized<T>(spare: Vec<T>, n: usize) -> Vec<T> {
    if spare.capacity() >= n {
        spare
    } else {
        Vec::with_capacity(n)
    }
}
