//! Seeds derived from seeds: the one mixer of the workspace, so that a game, a player or a
//! test reproduces from a single number.

/// Mixes a 64-bit value into a well-spread one (splitmix64, the output function of Steele,
/// Lea and Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): every bit of
/// the input changes about half the bits of the output, so consecutive seeds give unrelated
/// generators.
///
/// # Examples
///
/// ```
/// use sprouts_ai::seed::splitmix64;
/// assert_ne!(splitmix64(1), splitmix64(2));
/// assert_eq!(splitmix64(0), 0xe220_a839_7b1d_cdaf);
/// ```
pub fn splitmix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
