//! LiBoard: 8 raw bytes per snapshot, a 64-bit big-endian occupancy mask
//! with a1 = bit 0, sent on every change at 9600 baud, with no framing.
//!
//! Without framing a lost byte would shift every later frame, so the
//! decoder also drops a partial frame when the line goes quiet (the serial
//! thread calls [`super::Decoder::idle`] after a read timeout): at 9600
//! baud the eight bytes of a frame arrive within about 9 ms.

/// Default baud rate.
pub const BAUD: u32 = 9600;
/// Bytes per frame.
pub const FRAME: usize = 8;

/// Decodes one complete frame.
pub fn decode(frame: [u8; FRAME]) -> u64 {
    u64::from_be_bytes(frame)
}

/// Encodes a mask as a frame.
pub fn encode(mask: u64) -> [u8; FRAME] {
    mask.to_be_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a1_is_bit_zero_big_endian() {
        let frame = encode(1);
        assert_eq!(frame, [0, 0, 0, 0, 0, 0, 0, 1]);
        assert_eq!(decode(encode(0xFFFF_0000_0000_FFFF)), 0xFFFF_0000_0000_FFFF);
        assert_eq!(decode([0x80, 0, 0, 0, 0, 0, 0, 0]), 1 << 63);
    }
}
