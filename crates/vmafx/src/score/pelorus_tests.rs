use super::*;

/// A blob as Pelorus packs one: UUID, header, directory, 8-aligned sections, then `maps`
/// appended past `total_size` (each section's map offsets are the caller's to set).
fn pack(grid: (u16, u16), sections: &[(u32, Vec<u8>)], maps: &[u8]) -> Vec<u8> {
    let dir_end = HEADER_SIZE + sections.len() * DIR_ENTRY_SIZE;
    let mut offsets = Vec::new();
    let mut at = dir_end.next_multiple_of(8);
    for (_, body) in sections {
        offsets.push(at);
        at += body.len().next_multiple_of(8);
    }
    let total = at;
    let mut img = vec![0u8; total];
    img[..8].copy_from_slice(&MAGIC);
    img[8..10].copy_from_slice(&ABI_MAJOR.to_le_bytes());
    img[10..12].copy_from_slice(&3u16.to_le_bytes());
    img[12..16].copy_from_slice(&(total as u32).to_le_bytes());
    let mask = sections.iter().fold(0, |m, (id, _)| m | id);
    img[16..20].copy_from_slice(&mask.to_le_bytes());
    img[20..22].copy_from_slice(&(sections.len() as u16).to_le_bytes());
    img[22..24].copy_from_slice(&(HEADER_SIZE as u16).to_le_bytes());
    img[34..36].copy_from_slice(&grid.0.to_le_bytes());
    img[36..38].copy_from_slice(&grid.1.to_le_bytes());
    for (i, ((id, body), off)) in sections.iter().zip(&offsets).enumerate() {
        let d = HEADER_SIZE + i * DIR_ENTRY_SIZE;
        img[d..d + 4].copy_from_slice(&id.to_le_bytes());
        img[d + 4..d + 8].copy_from_slice(&(*off as u32).to_le_bytes());
        img[d + 8..d + 12].copy_from_slice(&(body.len() as u32).to_le_bytes());
        img[d + 12..d + 16].copy_from_slice(&3u32.to_le_bytes());
        img[*off..*off + body.len()].copy_from_slice(body);
    }
    let mut blob = UUID.to_vec();
    blob.extend_from_slice(&img);
    blob.extend_from_slice(maps);
    blob
}

fn words(fields: &[u32]) -> Vec<u8> {
    fields.iter().flat_map(|f| f.to_le_bytes()).collect()
}

fn banding(risk: f32, flat: f32, map: (u32, u32)) -> (u32, Vec<u8>) {
    let body = words(&[risk.to_bits(), flat.to_bits(), map.0, map.1, 0, 0]);
    (SEC_BANDING, body)
}

fn variance(global: f32, map: (u32, u32)) -> (u32, Vec<u8>) {
    (
        SEC_VARIANCE,
        words(&[global.to_bits(), 0, 0, map.0, map.1, 0, 0]),
    )
}

fn complexity(c: f32) -> (u32, Vec<u8>) {
    (SEC_COMPLEXITY, words(&[c.to_bits(), 0, 0, 0]))
}

/// Where a map appended to a blob of sections of these sizes starts (relative to the magic).
fn map_at(sections: &[(u32, Vec<u8>)]) -> u32 {
    (pack((0, 0), sections, &[]).len() - UUID.len()) as u32
}

/// Banding, variance and complexity sections without maps.
fn three() -> [(u32, Vec<u8>); 3] {
    [
        banding(0.0, 0.0, (0, 0)),
        variance(0.0, (0, 0)),
        complexity(0.0),
    ]
}

#[test]
fn banding_cell_map_is_the_salience() {
    // 2x2 cells of risk 255, 255, 0, 51 after the section.
    let at = map_at(&[banding(0.0, 0.0, (0, 0))]);
    let blob = pack((2, 2), &[banding(0.9, 0.9, (at, 4))], &[255, 255, 0, 51]);
    let s = parse(&blob).unwrap();
    let mean = 561.0 / (4.0 * 255.0);
    assert_eq!(s.banding.unwrap().cell_mean, Some(mean));
    assert_eq!(salience(&s), mean);
}

#[test]
fn empty_grid_reads_the_frame_scalars() {
    let blob = pack((0, 0), &[banding(0.8, 0.5, (0, 0))], &[]);
    let s = parse(&blob).unwrap();
    let risk = f64::from(0.8f32);
    assert_eq!(salience(&s), 0.75 * risk + 0.25 * (risk * 0.5));
    // No banding section: nothing salient.
    let blob = pack((4, 4), &[variance(0.1, (0, 0))], &[]);
    assert_eq!(salience(&parse(&blob).unwrap()), 0.0);
}

#[test]
fn variance_and_complexity_modulate() {
    let at = map_at(&three());
    let mut maps = vec![255u8, 255];
    maps.extend_from_slice(&[0; 6]); // the float map 8-aligned after the bytes
    for v in [0.25f32, 2.0] {
        maps.extend_from_slice(&v.to_le_bytes());
    }
    let sections = [
        banding(0.0, 0.0, (at, 2)),
        variance(0.9, (at + 8, 8)),
        complexity(0.5),
    ];
    let s = parse(&pack((2, 1), &sections, &maps)).unwrap();
    // Cells 0.25 and 2 (clamped to 1): activity 0.625, flatness 0.375.
    assert_eq!(s.variance.unwrap().cell_mean, Some(0.625));
    let expected = 1.0 * (0.75 + 0.5 * 0.375) * (1.0 - 0.5 * 0.5);
    assert_eq!(salience(&s), expected);
    // A NaN complexity reads as 0 (no attenuation); the salience stays within [0, 1].
    let s = parse(&pack(
        (0, 0),
        &[banding(1.0, 1.0, (0, 0)), complexity(f32::NAN)],
        &[],
    ))
    .unwrap();
    assert_eq!(salience(&s), 1.0);
}

#[test]
fn sections_of_other_sizes_and_ids() {
    // An older, shorter banding section reads zeros past its end (no map: the scalars).
    let short = (SEC_BANDING, words(&[0.4f32.to_bits()]));
    let s = parse(&pack((3, 3), &[short], &[])).unwrap();
    assert_eq!(s.banding.unwrap().flat_area_fraction, 0.0);
    assert_eq!(s.banding.unwrap().cell_mean, None);
    // A section this reader does not know is skipped.
    let s = parse(&pack(
        (0, 0),
        &[(1 << 4, vec![7; 32]), banding(0.2, 0.0, (0, 0))],
        &[],
    ));
    assert_eq!(s.unwrap().banding.unwrap().global_banding_risk, 0.2);
}

fn refused(blob: &[u8]) -> (Status, String) {
    let e = parse(blob).unwrap_err();
    (e.status(), e.subject().to_string())
}

fn set_u32(blob: &mut [u8], image_at: usize, v: u32) {
    let at = UUID.len() + image_at;
    blob[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn malformed_blobs_are_refused_naming_the_field() {
    let at = map_at(&[banding(0.0, 0.0, (0, 0))]);
    let good = pack((2, 2), &[banding(0.5, 0.5, (at, 4))], &[1, 2, 3, 4]);
    assert!(parse(&good).is_ok());
    assert_eq!(refused(&[]), (Status::NotFound, "data".into()));
    let mut foreign = good.clone();
    foreign[3] ^= 1;
    assert_eq!(refused(&foreign), (Status::NotFound, "data".into()));
    let cases: [(usize, u32, Status, &str); 8] = [
        (0, 0, Status::Invalid, "data.magic"),
        (8, 2, Status::Abi, "data.abi_major"),
        (12, 1 << 20, Status::Invalid, "data.total_size"),
        (16, 3, Status::Invalid, "data.section_mask"),
        (20, 48 << 16 | 9, Status::Invalid, "data.section_count"),
        (20, 44 << 16 | 1, Status::Invalid, "data.header_size"),
        (HEADER_SIZE + 4, 68, Status::Invalid, "data.dir[0].offset"),
        (
            HEADER_SIZE + 8,
            1 << 16,
            Status::Invalid,
            "data.dir[0].size",
        ),
    ];
    for (field_at, value, status, subject) in cases {
        let mut bad = good.clone();
        let keep_major = if field_at == 8 { 0xffff_0000 } else { 0 };
        let old = u32::from_le_bytes(bad[16 + field_at..20 + field_at].try_into().unwrap());
        set_u32(&mut bad, field_at, value | (old & keep_major));
        assert_eq!(refused(&bad), (status, subject.to_string()), "{subject}");
    }
    // The map: past the bytes received, or too short for the grid.
    let mut bad = good.clone();
    bad.pop();
    assert_eq!(refused(&bad).1, "data.banding.cell_data_size");
    let bad = pack((2, 2), &[banding(0.5, 0.5, (at, 3))], &[1, 2, 3, 4]);
    assert_eq!(refused(&bad).1, "data.banding.cell_data_size");
    // A section id that is no single bit, or one listed twice.
    let twice = pack((0, 0), &[complexity(0.1), complexity(0.2)], &[]);
    assert_eq!(refused(&twice).1, "data.dir[1].section_id");
    let mut bad = good.clone();
    set_u32(&mut bad, HEADER_SIZE, 3);
    assert_eq!(refused(&bad).1, "data.dir[0].section_id");
}

#[test]
fn every_truncation_and_mutation_is_handled() {
    let at = map_at(&three());
    let mut maps = vec![9u8, 200, 0, 0, 0, 0, 0, 0];
    maps.extend_from_slice(&[0.5f32.to_le_bytes(), 0.1f32.to_le_bytes()].concat());
    let sections = [
        banding(0.3, 0.2, (at, 2)),
        variance(0.1, (at + 8, 8)),
        complexity(0.4),
    ];
    let good = pack((2, 1), &sections, &maps);
    assert!(parse(&good).is_ok());
    // Every truncation is refused (the map is the last thing received).
    for n in 0..good.len() {
        assert!(parse(&good[..n]).is_err(), "{n} bytes");
    }
    // Seeded byte mutations never panic, and an accepted blob gives a salience in [0, 1].
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20_000 {
        let mut b = good.clone();
        for _ in 0..1 + (x % 3) {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x >> 8) as usize % b.len();
            b[i] = (x >> 40) as u8;
        }
        if let Ok(s) = parse(&b) {
            let v = salience(&s);
            assert!((0.0..=1.0).contains(&v), "{v}");
        }
    }
}
