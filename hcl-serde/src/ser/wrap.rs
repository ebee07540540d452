//! [`Block`] and [`Attribute`]: the user's choice between a block and an
//! attribute where the serializer's rule would choose otherwise.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::ops::{Deref, DerefMut};

/// The reserved newtype name of [`Block`].
pub(crate) const BLOCK_NAME: &str = "$__hcl_private_Block";
/// The reserved newtype name of [`Attribute`].
pub(crate) const ATTRIBUTE_NAME: &str = "$__hcl_private_Attribute";

/// Writes its value as a block (or blocks), where the serializer would
/// write an attribute: a map becomes one block whose body is the map, a
/// sequence becomes one block per element.
///
/// Without the wrapper, a struct is a block and a map is an attribute
/// holding an object (unless each of its values is a block: then its keys
/// are labels). Deserializing is transparent: a `Block<T>` reads as `T`
/// does. Other formats see the value itself.
///
/// ```
/// use hcl::ser::Block;
/// use serde::Serialize;
/// use std::collections::BTreeMap;
///
/// #[derive(Serialize)]
/// struct Config {
///     env: BTreeMap<&'static str, &'static str>,
///     tags: Block<BTreeMap<&'static str, &'static str>>,
/// }
///
/// let map = BTreeMap::from([("a", "1")]);
/// let config = Config { env: map.clone(), tags: Block(map) };
/// assert_eq!(
///     hcl::to_string(&config)?,
///     "env = {\n  a = \"1\"\n}\n\ntags {\n  a = \"1\"\n}\n",
/// );
/// # Ok::<(), hcl::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Block<T>(pub T);

/// Writes its value as an attribute, where the serializer would write a
/// block: a struct becomes an object, a sequence of structs a tuple of
/// objects.
///
/// Deserializing is transparent: an `Attribute<T>` reads as `T` does.
/// Other formats see the value itself.
///
/// ```
/// use hcl::ser::Attribute;
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Point { x: i32, y: i32 }
///
/// #[derive(Serialize)]
/// struct Config { origin: Attribute<Point> }
///
/// let config = Config { origin: Attribute(Point { x: 1, y: 2 }) };
/// assert_eq!(hcl::to_string(&config)?, "origin = {\n  x = 1\n  y = 2\n}\n");
/// # Ok::<(), hcl::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Attribute<T>(pub T);

macro_rules! wrapper {
    ($ty:ident, $name:ident) => {
        impl<T> $ty<T> {
            /// The wrapped value.
            pub fn into_inner(self) -> T {
                self.0
            }
        }

        impl<T> Deref for $ty<T> {
            type Target = T;
            fn deref(&self) -> &T {
                &self.0
            }
        }

        impl<T> DerefMut for $ty<T> {
            fn deref_mut(&mut self) -> &mut T {
                &mut self.0
            }
        }

        impl<T> From<T> for $ty<T> {
            fn from(value: T) -> Self {
                $ty(value)
            }
        }

        impl<T: Serialize> Serialize for $ty<T> {
            fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                if super::active() {
                    s.serialize_newtype_struct($name, &self.0)
                } else {
                    self.0.serialize(s)
                }
            }
        }

        impl<'de, T: Deserialize<'de>> Deserialize<'de> for $ty<T> {
            fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                T::deserialize(d).map($ty)
            }
        }
    };
}

wrapper!(Block, BLOCK_NAME);
wrapper!(Attribute, ATTRIBUTE_NAME);

/// Serializes a field as [`Block`] does, for
/// `#[serde(serialize_with = "hcl::ser::block")]`.
///
/// ```
/// use serde::Serialize;
/// use std::collections::BTreeMap;
///
/// #[derive(Serialize)]
/// struct Config {
///     #[serde(serialize_with = "hcl::ser::block")]
///     tags: BTreeMap<String, String>,
/// }
///
/// let config = Config { tags: BTreeMap::from([("a".into(), "b".into())]) };
/// assert_eq!(hcl::to_string(&config)?, "tags {\n  a = \"b\"\n}\n");
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// Those of `value`'s serialization.
pub fn block<T: Serialize + ?Sized, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    Block(value).serialize(s)
}

/// Serializes a field as [`Attribute`] does, for
/// `#[serde(serialize_with = "hcl::ser::attribute")]`.
///
/// # Errors
///
/// Those of `value`'s serialization.
pub fn attribute<T: Serialize + ?Sized, S: Serializer>(value: &T, s: S) -> Result<S::Ok, S::Error> {
    Attribute(value).serialize(s)
}
