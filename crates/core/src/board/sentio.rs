//! Tabutronic Sentio / Certabo occupancy lines: `:` followed by eight decimal
//! numbers (0-255), one per rank starting with rank 8, bit 7 = file a,
//! separated by spaces (commas are accepted too), ending in CR LF, 38400 baud.

use super::protocol::DropReason;

/// Default baud rate.
pub const BAUD: u32 = 38400;
/// Longest accepted line.
pub const MAX_LINE: usize = 96;

/// Parses one line (without LF; a trailing CR is ignored).
pub fn parse_line(line: &[u8]) -> Result<u64, DropReason> {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    if line.len() > MAX_LINE {
        return Err(DropReason::TooLong);
    }
    let Some(rest) = line.trim_ascii().strip_prefix(b":") else {
        return Err(DropReason::Garbage);
    };
    let mut mask = 0u64;
    let mut count = 0usize;
    for field in rest
        .split(|&b| b == b' ' || b == b',')
        .filter(|f| !f.is_empty())
    {
        if count == 8 || field.len() > 3 || !field.iter().all(u8::is_ascii_digit) {
            return Err(DropReason::Garbage);
        }
        let value = field
            .iter()
            .fold(0u32, |acc, &d| acc * 10 + u32::from(d - b'0'));
        if value > 255 {
            return Err(DropReason::Garbage);
        }
        let rank = 7 - count;
        for file in 0..8 {
            if value & (0x80 >> file) != 0 {
                mask |= 1 << (rank * 8 + file);
            }
        }
        count += 1;
    }
    if count != 8 {
        return Err(DropReason::Garbage);
    }
    Ok(mask)
}

/// Writes one line, CR LF included.
pub fn write_line(mask: u64) -> String {
    let mut out = String::from(":");
    for rank in (0..8).rev() {
        let mut value = 0u8;
        for file in 0..8 {
            if mask & (1 << (rank * 8 + file)) != 0 {
                value |= 0x80 >> file;
            }
        }
        if rank != 7 {
            out.push(' ');
        }
        out.push_str(&value.to_string());
    }
    out.push_str("\r\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position() {
        assert_eq!(
            write_line(0xFFFF_0000_0000_FFFF),
            ":255 255 0 0 0 0 255 255\r\n"
        );
        assert_eq!(
            parse_line(b":255 255 0 0 0 0 255 255\r"),
            Ok(0xFFFF_0000_0000_FFFF)
        );
    }

    #[test]
    fn bit_seven_is_file_a_and_rank_eight_first() {
        // a8 only: first number, bit 7.
        assert_eq!(parse_line(b":128 0 0 0 0 0 0 0"), Ok(1 << 56));
        // h1 only: last number, bit 0.
        assert_eq!(parse_line(b":0,0,0,0,0,0,0,1"), Ok(1 << 7));
        for mask in [0u64, 1, 1 << 63, 0x0123_4567_89AB_CDEF] {
            assert_eq!(parse_line(write_line(mask).trim_end().as_bytes()), Ok(mask));
        }
    }

    #[test]
    fn garbage() {
        assert_eq!(parse_line(b":1 2 3"), Err(DropReason::Garbage));
        assert_eq!(parse_line(b":1 2 3 4 5 6 7 256"), Err(DropReason::Garbage));
        assert_eq!(parse_line(b":1 2 3 4 5 6 7 8 9"), Err(DropReason::Garbage));
        assert_eq!(parse_line(b"1 2 3 4 5 6 7 8"), Err(DropReason::Garbage));
    }
}
