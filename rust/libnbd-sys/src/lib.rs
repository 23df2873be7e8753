//! Raw declarations of libnbd's C API, generated from the API table
//! (generator/Rust.ml).  Use the safe `libnbd` crate instead.
#![allow(non_camel_case_types)]

include!("generated.rs");
