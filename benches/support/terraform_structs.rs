//! The Terraform-module struct that the deserialize and json benches read
//! into, written once: `terraform_structs!(name, Expr)` declares a module
//! `name` of the struct with `Expr` as the expression type (one library's
//! expression or value type per side of a race).

macro_rules! terraform_structs {
    ($module:ident, $expr:ty) => {
        mod $module {
            use serde::de::{Deserializer, MapAccess, SeqAccess, Visitor};
            use serde::Deserialize;
            use std::collections::BTreeMap;

            #[derive(Deserialize)]
            #[allow(dead_code)]
            pub struct Terraform {
                #[serde(default)]
                variable: BTreeMap<String, Variable>,
                #[serde(default)]
                locals: Locals,
                #[serde(default)]
                output: BTreeMap<String, Output>,
                #[serde(default)]
                module: BTreeMap<String, Module>,
            }

            #[derive(Deserialize)]
            #[allow(dead_code)]
            struct Variable {
                #[serde(rename = "type")]
                ty: Option<$expr>,
                default: Option<$expr>,
                description: Option<$expr>,
                sensitive: Option<$expr>,
                nullable: Option<$expr>,
            }

            #[derive(Deserialize)]
            #[allow(dead_code)]
            struct Output {
                value: Option<$expr>,
                description: Option<$expr>,
                sensitive: Option<$expr>,
                depends_on: Option<$expr>,
            }

            #[derive(Deserialize)]
            #[allow(dead_code)]
            struct Module {
                source: $expr,
                version: Option<$expr>,
            }

            /// Every `locals` block: one block as a map, several as a
            /// sequence of maps (both sides of every race read it so).
            #[derive(Default)]
            #[allow(dead_code)]
            struct Locals(Vec<BTreeMap<String, $expr>>);

            impl<'de> Deserialize<'de> for Locals {
                fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                    struct V;
                    impl<'de> Visitor<'de> for V {
                        type Value = Locals;
                        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                            f.write_str("locals blocks")
                        }
                        fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Locals, A::Error> {
                            let one = BTreeMap::deserialize(
                                serde::de::value::MapAccessDeserializer::new(map),
                            )?;
                            Ok(Locals(vec![one]))
                        }
                        fn visit_seq<A: SeqAccess<'de>>(
                            self,
                            mut seq: A,
                        ) -> Result<Locals, A::Error> {
                            let mut all = Vec::new();
                            while let Some(one) = seq.next_element()? {
                                all.push(one);
                            }
                            Ok(Locals(all))
                        }
                    }
                    d.deserialize_any(V)
                }
            }
        }
    };
}
