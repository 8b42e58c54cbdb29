//! Runnable tours of the sprouts crates; see the `[[example]]` entries of this folder's manifest.
//!
//! The crate also runs the code blocks of the repository's README as doc tests, so the library
//! example there always compiles and runs.

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;
