//! The chunk layouts `exr_chunk` and `exr_encode` take from their input:
//! a channel count (1 to 4), then per channel its type (0 UINT, 1 HALF,
//! 2 FLOAT), x and y sampling (1 or 2) and linear flag in one byte.

use oxport::exr::{Channel, PixelType};

/// The channels the start of `data` describes, and the rest of it.
pub fn channels(data: &[u8]) -> Option<(Vec<Channel>, &[u8])> {
    let (&count, mut rest) = data.split_first()?;
    let mut channels = Vec::new();
    for i in 0..usize::from(count % 4 + 1) {
        let (&spec, tail) = rest.split_first()?;
        rest = tail;
        let pixel_type = match spec % 3 {
            0 => PixelType::Uint,
            1 => PixelType::Half,
            _ => PixelType::Float,
        };
        let mut channel = Channel::new(["B", "G", "R", "A"][i], pixel_type);
        channel.x_sampling = 1 + i32::from(spec >> 2 & 1);
        channel.y_sampling = 1 + i32::from(spec >> 3 & 1);
        channel.linear = spec & 16 != 0;
        channels.push(channel);
    }
    Some((channels, rest))
}
