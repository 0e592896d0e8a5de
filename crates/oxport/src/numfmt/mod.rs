//! Numbers to text: exact fixed precision, shortest round-trip, C's `%g`
//! and `{fmt}`'s general layout, integers.
//!
//! Nothing here touches the C locale or takes a lock, so formatting scales
//! with the number of threads. Every function appends to a `Vec<u8>`.

mod fixed;
mod general;
mod int;
mod shortest;

pub use fixed::{FixedFloat, MAX_PRECISION, write_fixed};
pub use general::{write_general, write_general_shortest};
pub use int::{write_i64, write_u32, write_u64};
pub use shortest::{ShortestFloat, write_shortest};

/// Two ASCII digits for every value 0..100, the usual table of fast integer printers.
pub(crate) static DIGIT_PAIRS: [[u8; 2]; 100] = {
    let mut table = [[0u8; 2]; 100];
    let mut i = 0;
    while i < 100 {
        table[i] = [b'0' + (i / 10) as u8, b'0' + (i % 10) as u8];
        i += 1;
    }
    table
};
