//! Arbitrary bytes into the reader of GLOP's and SPOTS's text databases: it never panics, a file
//! it refuses adds nothing, and a file it reads writes back (GLOP's way and SPOTS's way) to files
//! that read as the same nimbers.

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() <= 4096 {
        sprouts_ai::solver::check_text_import(data);
    }
});
