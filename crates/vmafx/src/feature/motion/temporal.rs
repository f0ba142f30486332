//! The late motion scores: motion2 and motion3 from the collected per-frame SAD scores,
//! as libvmaf's motion flush computes them.

use crate::feature::ScoreStore;

/// The options that shape motion3.
#[derive(Debug, Clone, Copy)]
pub(super) struct Blend {
    /// Weight of the score itself (1 keeps it unblended).
    pub factor: f64,
    /// Scores above this are pulled towards it by `1 - factor`.
    pub offset: f64,
    /// Cap on motion3.
    pub max_val: f64,
    /// Average each motion3 with the previous frame's processed value.
    pub moving_average: bool,
    /// Compare with two frames back (motion2 then looks one frame further).
    pub five_frame_window: bool,
}

impl Blend {
    /// `score * factor + (1 - factor) * min(offset, score)`, then capped at `max_val`.
    fn processed(&self, score: f64) -> f64 {
        let low = if self.offset < score {
            self.offset
        } else {
            score
        };
        let blended = score * self.factor + (1.0 - self.factor) * low;
        if blended < self.max_val {
            blended
        } else {
            self.max_val
        }
    }
}

/// Writes motion2 and motion3 for every index of `first..n` where `sad` holds scores for
/// all of `first..n` (`first` is 0 from the start of a video, later for a chunk fed from its
/// pre-roll). Writes nothing when there are none. Past a later `first`, values whose inputs
/// precede it are not written (a chunk drops those frames).
pub(super) fn late_scores(
    store: &mut dyn ScoreStore,
    first: u64,
    sad: &str,
    motion2_name: &str,
    motion3_name: &str,
    blend: &Blend,
) {
    let mut sads = Vec::new();
    while let Some(s) = store.get(sad, first + sads.len() as u64) {
        sads.push(s);
    }
    let first = first as usize;
    let end = first + sads.len();
    let sad_at = |i: usize| sads[i - first];
    let (stride, min_idx) = if blend.five_frame_window {
        (2, 2)
    } else {
        (1, 1)
    };

    // Frames before the first comparison take the processed score of the first one.
    let stamp = if end > min_idx && first <= min_idx {
        blend.processed(sad_at(min_idx))
    } else {
        0.0
    };
    let mut prev_processed = None;
    for i in first..end {
        let (motion2, motion3) = if i < min_idx {
            prev_processed = Some(stamp);
            (Some(0.0), Some(stamp))
        } else {
            let motion2 = if i + 1 < end {
                let hi = sad_at(i + 1);
                let lo_idx = i + 1 - stride;
                if lo_idx < min_idx {
                    Some(hi)
                } else if lo_idx < first {
                    None
                } else {
                    let lo = sad_at(lo_idx);
                    Some(if lo < hi { lo } else { hi })
                }
            } else {
                Some(sad_at(i))
            };
            let processed = motion2.map(|m| blend.processed(m));
            let motion3 = if blend.moving_average {
                match (processed, prev_processed) {
                    (Some(p), Some(q)) => Some((p + q) / 2.0),
                    _ => None,
                }
            } else {
                processed
            };
            prev_processed = processed;
            (motion2, motion3)
        };
        if let Some(v) = motion2 {
            store.put(motion2_name, i as u64, v);
        }
        if let Some(v) = motion3 {
            store.put(motion3_name, i as u64, v);
        }
    }
}
