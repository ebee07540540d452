//! The text of a document's pieces: a range of the shared source for what
//! was parsed (no copy, no allocation), or owned text for what an edit
//! made.

use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// A piece of a document's text.
#[derive(Clone)]
pub(crate) enum Text {
    /// Bytes `start..end` of the parsed source (always on character
    /// boundaries: the builder cuts at token boundaries).
    Src(Arc<str>, usize, usize),
    /// Text an edit made.
    Own(String),
}

impl Text {
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Text::Src(src, start, end) => src.get(*start..*end).unwrap_or_default(),
            Text::Own(s) => s,
        }
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::Own(String::new())
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
        Text::Own(s)
    }
}

impl From<&str> for Text {
    fn from(s: &str) -> Text {
        Text::Own(s.to_owned())
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
