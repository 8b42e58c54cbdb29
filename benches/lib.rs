//! Criterion benchmarks of the sprouts crates; each `[[bench]]` of this folder's manifest is one file here.
