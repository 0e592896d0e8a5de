//! Seekable archives: round trips through every way in and out, the same
//! archive whatever the thread count, and damaged archives as errors.

use std::io::{Read, Seek, SeekFrom, Write};

use oxport::seekable::{self, Index, ReadOptions, Reader, WriteOptions, Writer};

/// Data that compresses somewhat, with no period that lines up with frames.
fn data(len: usize) -> Vec<u8> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..len)
        .map(|i| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if i % 3 == 0 {
                (state % 16) as u8
            } else {
                (i / 1000) as u8
            }
        })
        .collect()
}

fn pack(data: &[u8], options: &WriteOptions) -> Vec<u8> {
    let mut archive = Vec::new();
    seekable::pack(data, &mut archive, options, |_, _| {}).unwrap();
    archive
}

fn options(frame_size: usize, threads: usize) -> WriteOptions {
    WriteOptions {
        frame_size,
        threads: Some(threads),
        ..WriteOptions::default()
    }
}

#[test]
fn reads_at_any_offset_equal_the_data() {
    let data = data(1_000_003);
    for frame_size in [1, 4096, 65_536, 1 << 21] {
        let input = if frame_size == 1 {
            &data[..3000]
        } else {
            &data[..]
        };
        let archive = pack(input, &options(frame_size, 2));
        let reader = Reader::new(archive, &ReadOptions::default()).unwrap();
        assert_eq!(reader.index(), Index::SeekTable { checksums: true });
        assert_eq!(reader.size(), Some(input.len() as u64));
        assert_eq!(reader.frames().len(), input.len().div_ceil(frame_size));
        for (offset, len) in [
            (0, 10),
            (4095, 2),
            (5000, 70_000),
            (999_990, 100),
            (0, 1_000_003),
        ] {
            let offset = offset.min(input.len());
            let end = (offset + len).min(input.len());
            let mut buf = vec![0xAA; len];
            let n = reader.read_at(offset as u64, &mut buf).unwrap();
            assert_eq!(n, end - offset, "frame size {frame_size}, offset {offset}");
            assert_eq!(
                &buf[..n],
                &input[offset..end],
                "frame size {frame_size}, offset {offset}"
            );
        }
        let mut whole = Vec::new();
        assert_eq!(
            reader.unpack(&mut whole, |_, _| {}).unwrap(),
            input.len() as u64
        );
        assert_eq!(whole, input);
    }
}

#[test]
fn the_archive_is_the_same_whatever_the_thread_count_and_way_in() {
    let data = data(3_000_000);
    let one = pack(&data, &options(100_000, 1));
    for threads in [2, 3, 8] {
        assert!(
            one == pack(&data, &options(100_000, threads)),
            "{threads} threads"
        );
    }
    // Written in odd pieces through the streaming writer.
    let mut writer = Writer::new(Vec::new(), &options(100_000, 2)).unwrap();
    for piece in data.chunks(77_777) {
        writer.write_all(piece).unwrap();
    }
    let (streamed, packed) = writer.finish().unwrap();
    assert!(streamed == one);
    assert_eq!(packed.frames, 30);
    assert_eq!(packed.input_bytes, data.len() as u64);
    assert_eq!(packed.output_bytes, one.len() as u64);
}

#[test]
fn empty_input_is_one_empty_frame() {
    for checksums in [false, true] {
        let archive = pack(
            &[],
            &WriteOptions {
                checksums,
                ..WriteOptions::default()
            },
        );
        let reader = Reader::new(archive.clone(), &ReadOptions::default()).unwrap();
        assert_eq!(reader.size(), Some(0));
        assert_eq!(reader.frames().len(), 1);
        assert_eq!(&archive[..4], &0xFD2F_B528u32.to_le_bytes());
        let (archive, packed) = Writer::new(
            Vec::new(),
            &WriteOptions {
                checksums,
                ..WriteOptions::default()
            },
        )
        .unwrap()
        .finish()
        .unwrap();
        assert_eq!(packed.frames, 1);
        assert_eq!(
            Reader::new(archive, &ReadOptions::default())
                .unwrap()
                .size(),
            Some(0)
        );
    }
}

#[test]
fn read_and_seek_walk_the_archive() {
    let data = data(300_000);
    let mut reader =
        Reader::new(pack(&data, &options(10_000, 2)), &ReadOptions::default()).unwrap();
    let mut buf = vec![0; 12_345];
    reader.seek(SeekFrom::Start(100)).unwrap();
    reader.read_exact(&mut buf).unwrap();
    assert_eq!(buf, data[100..12_445]);
    assert_eq!(reader.seek(SeekFrom::End(-10)).unwrap(), 299_990);
    let mut tail = Vec::new();
    reader.read_to_end(&mut tail).unwrap();
    assert_eq!(tail, data[299_990..]);
    assert_eq!(reader.seek(SeekFrom::Current(-300_000)).unwrap(), 0);
    assert!(reader.seek(SeekFrom::Current(-1)).is_err());
}

/// Frames as zstd's one-shot API makes them, without a seek table.
fn zstd_frames(parts: &[&[u8]], sizes: bool) -> Vec<u8> {
    let mut out = Vec::new();
    for part in parts {
        let mut context = zstd_safe::CCtx::create();
        context
            .set_parameter(zstd_safe::CParameter::ContentSizeFlag(sizes))
            .unwrap();
        context
            .set_parameter(zstd_safe::CParameter::ChecksumFlag(true))
            .unwrap();
        let mut frame = Vec::with_capacity(zstd_safe::compress_bound(part.len()));
        context.compress2(&mut frame, part).unwrap();
        out.extend(frame);
    }
    out
}

#[test]
fn archives_without_a_seek_table_are_indexed_or_streamed() {
    let data = data(700_000);
    let parts = [&data[..300_000], &data[300_000..310_000], &data[310_000..]];
    for sizes in [true, false] {
        let reader = Reader::new(zstd_frames(&parts, sizes), &ReadOptions::default()).unwrap();
        let expected = if sizes {
            Index::FrameHeaders
        } else {
            Index::None
        };
        assert_eq!(reader.index(), expected);
        assert_eq!(reader.size().is_some(), sizes);
        // Forwards, backwards, across frames.
        for (offset, len) in [(299_990, 20), (5, 100), (650_000, 60_000), (0, 700_000)] {
            let mut buf = vec![0; len];
            let n = reader.read_at(offset, &mut buf).unwrap();
            let end = (offset as usize + len).min(data.len());
            assert_eq!(
                &buf[..n],
                &data[offset as usize..end],
                "sizes {sizes}, offset {offset}"
            );
        }
        assert_eq!(reader.find_size().unwrap(), 700_000);
        let mut whole = Vec::new();
        reader.unpack(&mut whole, |_, _| {}).unwrap();
        assert!(whole == data);
    }
}

fn error(archive: Vec<u8>) -> String {
    let reader = match Reader::new(archive, &ReadOptions::default()) {
        Ok(reader) => reader,
        Err(e) => return e.to_string(),
    };
    let mut sink = Vec::new();
    match reader.unpack(&mut sink, |_, _| {}) {
        Ok(_) => "no error".into(),
        Err(e) => e.to_string(),
    }
}

#[test]
fn damaged_archives_are_clear_errors() {
    let data = data(200_000);
    let good = pack(&data, &options(50_000, 2));
    let reader = Reader::new(good.clone(), &ReadOptions::default()).unwrap();
    let frames = reader.frames().to_vec();
    let table = frames
        .last()
        .map(|f| f.compressed_offset + f.compressed_size)
        .unwrap() as usize;

    // Truncated: the table is gone, and the frames no longer end where it starts.
    let cut = error(good[..good.len() - 1].to_vec());
    assert!(cut.contains("corrupt"), "{cut}");
    let cut = error(good[..table + 3].to_vec());
    assert!(cut.contains("corrupt"), "{cut}");
    let cut = error(good[..table - 10].to_vec());
    assert!(cut.contains("truncated"), "{cut}");

    // A bad checksum in the table.
    let mut bad = good.clone();
    bad[table + 8 + 12 + 8] ^= 1;
    let message = error(bad);
    assert!(message.contains("checksum mismatch"), "{message}");
    assert!(
        message.contains(&format!("byte {}", frames[1].compressed_offset)),
        "{message}"
    );

    // A frame whose data is damaged.
    let mut bad = good.clone();
    bad[frames[2].compressed_offset as usize + 40] ^= 0x55;
    let message = error(bad);
    assert!(message.contains("corrupt"), "{message}");

    // Lying sizes: a decompressed size that disagrees with the frame header.
    let mut bad = good.clone();
    bad[table + 8 + 4] ^= 1;
    let message = error(bad);
    assert!(
        message.contains("disagrees with the seek table"),
        "{message}"
    );

    // Reserved bits in the descriptor.
    let mut bad = good.clone();
    let descriptor = bad.len() - 5;
    bad[descriptor] |= 0x10;
    assert!(error(bad).contains("reserved bits"));

    // Not zstd at all.
    assert!(error(b"hello, world".to_vec()).contains("not a zstd frame"));
    assert!(error(Vec::new()).contains("empty file"));
}

#[test]
fn options_out_of_range_name_the_argument() {
    let mut sink = Vec::new();
    for (options, name) in [
        (
            WriteOptions {
                level: 99,
                ..WriteOptions::default()
            },
            "level",
        ),
        (
            WriteOptions {
                frame_size: 0,
                ..WriteOptions::default()
            },
            "frame_size",
        ),
        (
            WriteOptions {
                frame_size: (1 << 30) + 1,
                ..WriteOptions::default()
            },
            "frame_size",
        ),
        (
            WriteOptions {
                threads: Some(0),
                ..WriteOptions::default()
            },
            "threads",
        ),
    ] {
        let message = seekable::pack(&b"x"[..], &mut sink, &options, |_, _| {})
            .unwrap_err()
            .to_string();
        assert!(message.contains(name), "{message}");
    }
    let fast = pack(
        &data(100_000),
        &WriteOptions {
            level: -7,
            ..WriteOptions::default()
        },
    );
    assert_eq!(
        Reader::new(fast, &ReadOptions::default()).unwrap().size(),
        Some(100_000)
    );
}

#[test]
fn files_are_packed_and_unpacked_whole() {
    let folder = tempfile::tempdir().unwrap();
    let (input, archive, output) = (
        folder.path().join("in"),
        folder.path().join("in.zst"),
        folder.path().join("out"),
    );
    let data = data(5_000_000);
    std::fs::write(&input, &data).unwrap();
    let mut seen = Vec::new();
    let packed = seekable::pack_file(&input, &archive, &options(1 << 20, 2), |done, total| {
        seen.push((done, total))
    })
    .unwrap();
    assert_eq!(packed.frames, 5);
    // progress(done, total): the file's size is the total.
    assert_eq!(seen.len(), 5);
    assert_eq!(seen.last(), Some(&(5_000_000, 5_000_000)));
    let mut unpacked = Vec::new();
    let reader = Reader::open(&archive, &ReadOptions::default()).unwrap();
    reader
        .unpack(Vec::new(), |done, total| unpacked.push((done, total)))
        .unwrap();
    assert_eq!(unpacked.last(), Some(&(5_000_000, 5_000_000)));
    assert_eq!(
        std::fs::metadata(&archive).unwrap().len(),
        packed.output_bytes
    );
    let size =
        seekable::unpack_file(&archive, &output, &ReadOptions::default(), |_, _| {}).unwrap();
    assert_eq!(size, 5_000_000);
    assert!(std::fs::read(&output).unwrap() == data);
    // A missing input names itself, and leaves no output behind.
    let missing = folder.path().join("missing");
    let message = seekable::pack_file(
        &missing,
        &folder.path().join("x.zst"),
        &WriteOptions::default(),
        |_, _| {},
    )
    .unwrap_err()
    .to_string();
    assert!(message.contains("missing"), "{message}");
    assert!(!folder.path().join("x.zst").exists());
}

#[test]
fn frames_too_large_to_hold_are_streamed() {
    // 80 MiB in one frame: above the size that is decompressed whole.
    let data: Vec<u8> = (0..80u32 << 20).map(|i| (i / 4099 % 251) as u8).collect();
    let archive = pack(
        &data,
        &WriteOptions {
            level: 1,
            frame_size: 1 << 30,
            ..WriteOptions::default()
        },
    );
    let reader = Reader::new(archive, &ReadOptions::default()).unwrap();
    assert_eq!(reader.frames().len(), 1);
    for offset in [70_000_000u64, 100, 70_000_500, 83_886_000] {
        let mut buf = vec![0; 4096];
        let n = reader.read_at(offset, &mut buf).unwrap();
        let end = (offset as usize + 4096).min(data.len());
        assert_eq!(&buf[..n], &data[offset as usize..end], "offset {offset}");
    }
    let mut whole = Vec::new();
    reader.unpack(&mut whole, |_, _| {}).unwrap();
    assert!(whole == data);
}

#[test]
fn pipes_are_decompressed_in_one_pass() {
    let data = data(1_500_000);
    let archive = pack(&data, &options(100_000, 2));
    let mut out = Vec::new();
    let size = seekable::unpack_stream(&archive[..], &mut out, |_, _| {}).unwrap();
    assert_eq!(size, data.len() as u64);
    assert!(out == data);
    // Cut inside a frame: an error, not a short output taken for whole.
    let frames = Reader::new(archive.clone(), &ReadOptions::default())
        .unwrap()
        .frames()
        .to_vec();
    let cut = &archive[..frames[7].compressed_offset as usize + 100];
    let message = seekable::unpack_stream(cut, &mut Vec::new(), |_, _| {})
        .unwrap_err()
        .to_string();
    assert!(message.contains("truncated"), "{message}");
    let message = seekable::unpack_stream(&b"not zstd at all"[..], &mut Vec::new(), |_, _| {})
        .unwrap_err()
        .to_string();
    assert!(message.contains("corrupt"), "{message}");
}
