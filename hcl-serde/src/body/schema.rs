//! What a body may contain, as the application states it at run time
//! (the reference's `hcl.BodySchema`): attributes and block types.

/// What a body may contain: attributes (each required or not) and block
/// types (each with the names of its labels).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BodySchema {
    /// The attributes.
    pub attributes: Vec<AttributeSchema>,
    /// The block types.
    pub blocks: Vec<BlockSchema>,
}

/// One attribute of a [`BodySchema`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeSchema {
    /// Its name.
    pub name: String,
    /// Whether a body without it is an error.
    pub required: bool,
}

/// One block type of a [`BodySchema`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockSchema {
    /// The block type.
    pub type_name: String,
    /// The names of its labels (their number is what counts; the names
    /// appear in messages).
    pub labels: Vec<String>,
}

impl BodySchema {
    /// An empty schema: no attributes, no block types.
    pub fn new() -> BodySchema {
        BodySchema::default()
    }

    /// Adds an attribute.
    #[must_use]
    pub fn attribute(mut self, name: impl Into<String>, required: bool) -> BodySchema {
        self.attributes.push(AttributeSchema {
            name: name.into(),
            required,
        });
        self
    }

    /// Adds a block type with the names of its labels.
    #[must_use]
    pub fn block(mut self, type_name: impl Into<String>, labels: &[&str]) -> BodySchema {
        self.blocks.push(BlockSchema {
            type_name: type_name.into(),
            labels: labels.iter().map(|l| (*l).to_owned()).collect(),
        });
        self
    }

    pub(crate) fn attr(&self, name: &str) -> Option<&AttributeSchema> {
        self.attributes.iter().find(|a| a.name == name)
    }

    pub(crate) fn block_type(&self, name: &str) -> Option<&BlockSchema> {
        self.blocks.iter().find(|b| b.type_name == name)
    }
}
