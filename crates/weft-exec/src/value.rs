//! Run-time values of the simulator: 64-bit integers, with location addresses encoded as
//! integers far from the small values litmus tests use, so registers may hold pointers
//! (`.reg .b64 r1 = x`) and address arithmetic stays integer arithmetic.

use weft_ir::{LocId, Value};

/// Base of the encoded address space.
pub const ADDR_BASE: i64 = 0x4000_0000_0000;
/// Bytes reserved per location (room for array elements).
pub const ADDR_STRIDE: i64 = 0x1_0000;

/// The encoded address of element 0 of `loc`.
pub fn addr_of(loc: LocId) -> i64 {
    ADDR_BASE + loc.0 as i64 * ADDR_STRIDE
}

/// Decodes an address into (location, element index), if it is one.
pub fn decode_addr(v: i64, nlocs: usize) -> Option<(LocId, u32)> {
    if v < ADDR_BASE {
        return None;
    }
    let off = v - ADDR_BASE;
    let loc = off / ADDR_STRIDE;
    let idx = off % ADDR_STRIDE;
    (loc < nlocs as i64).then_some((LocId(loc as u32), idx as u32))
}

/// The integer a declared initial value stands for.
pub fn of_init(v: Value) -> i64 {
    match v {
        Value::Int(i) => i,
        Value::Addr(l) => addr_of(l),
    }
}
