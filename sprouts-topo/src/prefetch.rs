//! Hints to the processor that memory will be read soon: the crate's only `unsafe` code,
//! audited here.
//!
//! A position's tables are four heap blocks. Canonicalising a position held in memory among a
//! million others waits for them first, since every step of the reading needs the one before
//! it (see `canon::shape`). A prefetch asks for the cache lines and goes on: nothing waits for
//! it, so the loads of a position asked for while an earlier one is being canonicalised arrive
//! in the meantime ([`crate::canon::Canonicalizer::canonical_each`]). An ordinary load cannot
//! do this: a load that misses holds up every later instruction once it is the oldest one
//! waiting to complete.

// The one exemption from the workspace's `unsafe_code = "deny"`. Audit: the only unsafe
// operation is `_mm_prefetch`, an intrinsic whose `unsafe` comes from its `target_feature`
// (SSE) and its pointer argument. SSE is in the baseline of every x86_64 target, so the
// instruction exists; a prefetch reads nothing the program sees, changes nothing, and never
// faults, whatever the address; the addresses are formed with `wrapping_add`, which is defined
// for any offset. So no call can cause undefined behaviour.
#![allow(
    unsafe_code,
    reason = "the audited prefetch hint above: the crate's only unsafe code"
)]

/// The size of a cache line on the processors this is written for (x86_64).
const LINE: usize = 64;

/// Asks for every cache line that `data` lies on, without waiting for any of them. Only a hint:
/// it has no effect on any value, and on other processors than x86_64 it does nothing.
#[inline(always)]
pub(crate) fn slice<T>(data: &[T]) {
    let bytes = size_of_val(data);
    if bytes == 0 {
        return;
    }
    // Every line from the first byte's to the last byte's, once each: from the start of the
    // first byte's line, one address each 64 bytes.
    let start = data.as_ptr().cast::<i8>();
    let lead = start.addr() % LINE;
    let first_line = start.wrapping_sub(lead);
    let mut offset = 0;
    while offset < lead + bytes {
        line(first_line.wrapping_add(offset));
        offset += LINE;
    }
}

/// Prefetches the cache line holding `address` into every level of the cache.
#[inline(always)]
fn line(address: *const i8) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        // SAFETY: see the audit at the head of this module: SSE is always present on x86_64,
        // and a prefetch of any address has no effect but on the cache.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(address) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

#[cfg(test)]
mod tests {
    use super::slice;

    #[test]
    fn prefetching_changes_no_value_and_takes_any_slice() {
        let empty: [u64; 0] = [];
        slice(&empty);
        let zero_sized = [(); 10];
        slice(&zero_sized);
        let v: Vec<u32> = (0..1000).collect();
        // Unaligned starts and lengths across line boundaries.
        for start in [0, 1, 15, 16, 17, 999] {
            slice(&v[start..]);
            slice(&v[start..start + 1]);
        }
        let bytes = [7u8; 3];
        slice(&bytes);
        assert_eq!(
            v,
            (0..1000).collect::<Vec<u32>>(),
            "a prefetch writes nothing"
        );
        assert_eq!(bytes, [7u8; 3], "a prefetch writes nothing");
    }
}
