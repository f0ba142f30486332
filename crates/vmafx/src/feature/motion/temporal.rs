//! The late motion scores: motion2 and motion3 from the collected per-frame SAD scores,
//! as libvmaf's motion flush computes them.

use crate::feature::ScoreStore;

/// The options that shape motion3.
#[derive(Debug, Clone, Copy)]
pub struct Blend {
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

/// Writes motion2 and motion3 for every index `0..n` where `sad` holds scores for all of
/// `0..n`. Writes nothing when there are none.
pub fn late_scores(
    store: &mut dyn ScoreStore,
    sad: &str,
    motion2_name: &str,
    motion3_name: &str,
    blend: &Blend,
) {
    let mut sads = Vec::new();
    while let Some(s) = store.get(sad, sads.len() as u64) {
        sads.push(s);
    }
    let n = sads.len();
    let (stride, min_idx) = if blend.five_frame_window {
        (2, 2)
    } else {
        (1, 1)
    };

    // Frames before the first comparison take the processed score of the first one.
    let stamp = if n > min_idx {
        blend.processed(sads[min_idx])
    } else {
        0.0
    };
    let mut prev_processed = 0.0;
    for i in 0..n {
        let (motion2, motion3) = if i < min_idx {
            prev_processed = stamp;
            (0.0, stamp)
        } else {
            let motion2 = match sads.get(i + 1) {
                None => sads[i],
                Some(&hi) => {
                    let lo_idx = i + 1 - stride;
                    if lo_idx >= min_idx {
                        let lo = sads[lo_idx];
                        if lo < hi {
                            lo
                        } else {
                            hi
                        }
                    } else {
                        hi
                    }
                }
            };
            let processed = blend.processed(motion2);
            let motion3 = if blend.moving_average {
                (processed + prev_processed) / 2.0
            } else {
                processed
            };
            prev_processed = processed;
            (motion2, motion3)
        };
        store.put(motion2_name, i as u64, motion2);
        store.put(motion3_name, i as u64, motion3);
    }
}
