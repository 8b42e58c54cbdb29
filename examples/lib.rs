//! Runnable tours of the sprouts crates; see the `[[example]]` entries of this folder's manifest.
