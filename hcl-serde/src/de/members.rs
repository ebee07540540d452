//! The members of a group of blocks (`blocks.rs`): native blocks,
//! generated ones, JSON values holding blocks.

use super::body::header;
use super::dynamic::{GenJson, Generated};
use super::Shared;
use crate::body::json_ref::JsonRef;
use hcl_grammar::{Block, Span};
use std::rc::Rc;

/// One member of a group of blocks, with its file.
#[derive(Clone)]
pub(crate) enum Member<'a, 'de> {
    /// A native block.
    Native(&'a Block<'de>, &'a Shared<'a>),
    /// A block that a `dynamic` block generated.
    Generated(Rc<Generated<'de>>, &'a Shared<'a>),
    /// A block that a `dynamic` block of a JSON-syntax body generated.
    GenJson(Rc<GenJson<'a, 'de>>, &'a Shared<'a>),
    /// A JSON value holding blocks, and where its name is.
    Json(JsonRef<'a, 'de>, Span, &'a Shared<'a>),
}

impl<'a> Member<'a, '_> {
    /// Its file.
    pub(crate) fn shared(&self) -> &'a Shared<'a> {
        match self {
            Member::Native(_, sh)
            | Member::Generated(_, sh)
            | Member::GenJson(_, sh)
            | Member::Json(_, _, sh) => sh,
        }
    }

    /// Where errors about it point: a block's header, a JSON name.
    pub(crate) fn span(&self) -> Span {
        match self {
            Member::Native(b, _) => header(b),
            Member::Generated(g, _) => header(&g.block),
            Member::GenJson(g, _) => g.type_span,
            Member::Json(_, span, _) => *span,
        }
    }

    /// `"a.tf:1,1-9"`.
    pub(crate) fn place(&self) -> String {
        let sh = self.shared();
        crate::source::place(sh.src, self.span(), sh.file)
    }
}

/// The members of a group of blocks: most groups have one, which needs
/// no allocation.
#[derive(Clone)]
pub(crate) enum Members<'a, 'de> {
    One(Member<'a, 'de>),
    Many(Vec<Member<'a, 'de>>),
}

impl<'a, 'de> Members<'a, 'de> {
    pub(crate) fn as_slice(&self) -> &[Member<'a, 'de>] {
        match self {
            Members::One(m) => std::slice::from_ref(m),
            Members::Many(v) => v,
        }
    }

    pub(crate) fn first(&self) -> Option<&Member<'a, 'de>> {
        self.as_slice().first()
    }

    pub(crate) fn len(&self) -> usize {
        self.as_slice().len()
    }

    pub(crate) fn push(&mut self, m: Member<'a, 'de>) {
        match self {
            Members::Many(v) => v.push(m),
            Members::One(_) => {
                let Members::One(first) = std::mem::replace(self, Members::Many(Vec::new())) else {
                    return;
                };
                *self = Members::Many(vec![first, m]);
            }
        }
    }

    pub(super) fn into_vec(self) -> Vec<Member<'a, 'de>> {
        match self {
            Members::One(m) => vec![m],
            Members::Many(v) => v,
        }
    }
}

impl<'a, 'de> From<Vec<Member<'a, 'de>>> for Members<'a, 'de> {
    fn from(v: Vec<Member<'a, 'de>>) -> Self {
        Members::Many(v)
    }
}
