//! [`to_value`]: any `T: Serialize` into a [`Value`], so that an
//! application can turn its own data into variables of a
//! [`Context`](crate::Context).

use crate::error::{Error, Result};
use crate::{Map, Number, Value};
use serde::ser::{self, Serialize};

/// Converts `value` into a [`Value`].
///
/// Structs and maps become objects (map keys must be strings, numbers,
/// bools or chars), sequences and tuples become arrays, `None` and `()`
/// become null, enums are externally tagged (`{"Variant": content}`, a
/// unit variant is its name).
///
/// ```
/// use serde::Serialize;
///
/// #[derive(Serialize)]
/// struct Env { name: &'static str, replicas: u32 }
///
/// let mut ctx = hcl::Context::new();
/// ctx.declare_var("env", hcl::to_value(&Env { name: "prod", replicas: 3 })?);
/// let n: u32 = hcl::from_str_with::<std::collections::HashMap<String, u32>>(
///     "n = env.replicas * 2\n", &ctx)?["n"];
/// assert_eq!(n, 6);
/// # Ok::<(), hcl::Error>(())
/// ```
///
/// # Errors
///
/// A data error for a non-finite float or a map key that is not a
/// string, number, bool or char, or any error `T`'s `Serialize` reports.
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<Value> {
    // Numbers arrive exactly (see `Number`'s `Serialize`).
    let _active = super::ActiveGuard::new();
    value.serialize(ValueSerializer)
}

/// The serializer of [`to_value`].
struct ValueSerializer;

fn float(f: f64) -> Result<Value> {
    Number::from_f64(f)
        .map(Value::Number)
        .ok_or_else(|| Error::data(format!("{f} is not a number HCL can hold")))
}

impl ser::Serializer for ValueSerializer {
    type Ok = Value;
    type Error = Error;
    type SerializeSeq = SeqSerializer;
    type SerializeTuple = SeqSerializer;
    type SerializeTupleStruct = SeqSerializer;
    type SerializeTupleVariant = VariantSeqSerializer;
    type SerializeMap = MapSerializer;
    type SerializeStruct = MapSerializer;
    type SerializeStructVariant = VariantMapSerializer;

    fn serialize_bool(self, v: bool) -> Result<Value> {
        Ok(Value::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_i16(self, v: i16) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_i32(self, v: i32) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_i64(self, v: i64) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_i128(self, v: i128) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u8(self, v: u8) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u16(self, v: u16) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u32(self, v: u32) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u64(self, v: u64) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_u128(self, v: u128) -> Result<Value> {
        Ok(Value::from(v))
    }
    fn serialize_f32(self, v: f32) -> Result<Value> {
        // Through the shortest decimal of the f32, so 0.1f32 is 0.1.
        match v.to_string().parse::<f64>() {
            Ok(f) => float(f),
            Err(_) => float(f64::from(v)),
        }
    }
    fn serialize_f64(self, v: f64) -> Result<Value> {
        float(v)
    }
    fn serialize_char(self, v: char) -> Result<Value> {
        Ok(Value::String(v.to_string()))
    }
    fn serialize_str(self, v: &str) -> Result<Value> {
        Ok(Value::String(v.to_owned()))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<Value> {
        Ok(Value::Array(v.iter().map(|&b| Value::from(b)).collect()))
    }
    fn serialize_none(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<Value> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<Value> {
        Ok(Value::Null)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<Value> {
        Ok(Value::String(variant.to_owned()))
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<Value> {
        if name == super::NUMBER_NAME {
            if let Some(n) = super::take_number() {
                return Ok(Value::Number(n));
            }
        }
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<Value> {
        let mut m = Map::new();
        m.insert(variant.to_owned(), value.serialize(self)?);
        Ok(Value::Object(m))
    }
    fn serialize_seq(self, len: Option<usize>) -> Result<SeqSerializer> {
        Ok(SeqSerializer(Vec::with_capacity(
            len.unwrap_or(0).min(4096),
        )))
    }
    fn serialize_tuple(self, len: usize) -> Result<SeqSerializer> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<SeqSerializer> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantSeqSerializer> {
        Ok(VariantSeqSerializer(
            variant,
            self.serialize_seq(Some(len))?,
        ))
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSerializer> {
        Ok(MapSerializer {
            map: Map::new(),
            key: None,
        })
    }
    fn serialize_struct(self, _name: &'static str, len: usize) -> Result<MapSerializer> {
        self.serialize_map(Some(len))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<VariantMapSerializer> {
        Ok(VariantMapSerializer(
            variant,
            self.serialize_map(Some(len))?,
        ))
    }
}

struct SeqSerializer(Vec<Value>);

impl ser::SerializeSeq for SeqSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        self.0.push(value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value> {
        Ok(Value::Array(self.0))
    }
}

impl ser::SerializeTuple for SeqSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Value> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for SeqSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    fn end(self) -> Result<Value> {
        ser::SerializeSeq::end(self)
    }
}

struct VariantSeqSerializer(&'static str, SeqSerializer);

impl ser::SerializeTupleVariant for VariantSeqSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(&mut self.1, value)
    }
    fn end(self) -> Result<Value> {
        let mut m = Map::new();
        m.insert(self.0.to_owned(), Value::Array(self.1 .0));
        Ok(Value::Object(m))
    }
}

struct MapSerializer {
    map: Map<String, Value>,
    key: Option<String>,
}

impl ser::SerializeMap for MapSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        let k = match key.serialize(ValueSerializer)? {
            Value::String(s) => s,
            Value::Number(n) => n.to_string(),
            Value::Bool(b) => b.to_string(),
            other => {
                return Err(Error::data(format!(
                    "a map key must be a string, number or bool, not {}",
                    other.kind_name()
                )))
            }
        };
        self.key = Some(k);
        Ok(())
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let key = self
            .key
            .take()
            .ok_or_else(|| Error::data("a map value was serialized before its key"))?;
        self.map.insert(key, value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value> {
        Ok(Value::Object(self.map))
    }
}

impl ser::SerializeStruct for MapSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.map
            .insert(key.to_owned(), value.serialize(ValueSerializer)?);
        Ok(())
    }
    fn end(self) -> Result<Value> {
        Ok(Value::Object(self.map))
    }
}

struct VariantMapSerializer(&'static str, MapSerializer);

impl ser::SerializeStructVariant for VariantMapSerializer {
    type Ok = Value;
    type Error = Error;
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(&mut self.1, key, value)
    }
    fn end(self) -> Result<Value> {
        let mut m = Map::new();
        m.insert(self.0.to_owned(), Value::Object(self.1.map));
        Ok(Value::Object(m))
    }
}
