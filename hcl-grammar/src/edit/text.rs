//! The text of a document's pieces: a range of the shared source for what
//! was parsed (no copy, no allocation), or owned text for what an edit
//! made. An expression's [`Text`] holds its own reference to the source;
//! the other pieces of a node are [`Piece`]s read through the node's one
//! [`Src`].

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// An expression's text.
#[derive(Clone)]
pub(crate) enum Text {
    /// Bytes `start..end` of the parsed source (always on character
    /// boundaries: the builder cuts at token boundaries).
    Src(Arc<str>, u32, u32),
    /// Text an edit made (a box, not a `String`: the enum is the smaller).
    Own(Box<str>),
}

impl Text {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Text::Src(src, start, end) => {
                src.get(*start as usize..*end as usize).unwrap_or_default()
            }
            Text::Own(s) => s,
        }
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::Own(Box::default())
    }
}

impl Deref for Text {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text::Own(s.into_boxed_str())
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::Own(s.into())
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// The source that a node's [`Piece`]s are ranges of: the parsed file,
/// shared by every node cut from it (one reference per node, not per
/// piece), or none for a node an edit made.
#[derive(Clone, Default)]
pub(crate) struct Src(Option<Arc<str>>);

impl Src {
    pub(crate) fn new(src: &Arc<str>) -> Src {
        Src(Some(Arc::clone(src)))
    }

    /// Refers to `src` unless already referring to a source.
    pub(crate) fn share(&mut self, src: &Arc<str>) {
        if self.0.is_none() {
            self.0 = Some(Arc::clone(src));
        }
    }
}

/// A piece of a node's text: bytes `start..end` of the node's [`Src`]
/// (on character boundaries: the builder cuts at token boundaries), or
/// text an edit made. Read it with [`Piece::get`] and the node's source.
#[derive(Clone)]
pub(crate) enum Piece {
    Src(u32, u32),
    Own(Box<str>),
}

impl Piece {
    /// The text of the piece, whose node's source is `src` (empty when
    /// the range is not in it, which the builder's ranges always are).
    #[inline]
    pub(crate) fn get<'a>(&'a self, src: &'a Src) -> &'a str {
        match self {
            Piece::Src(start, end) => src
                .0
                .as_deref()
                .and_then(|s| s.get(*start as usize..*end as usize))
                .unwrap_or_default(),
            Piece::Own(s) => s,
        }
    }
}

impl Default for Piece {
    fn default() -> Piece {
        Piece::Own(Box::default())
    }
}

impl From<String> for Piece {
    fn from(s: String) -> Piece {
        Piece::Own(s.into_boxed_str())
    }
}

impl From<&str> for Piece {
    fn from(s: &str) -> Piece {
        Piece::Own(s.into())
    }
}
