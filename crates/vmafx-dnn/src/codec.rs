//! The codec context a codec-aware tiny model reads: the encoder one-hot over the sidecar's
//! vocabulary, then the preset's ordinal / 9 and the CRF / 63 (VMAFx's layout).

/// The encoder presets in ordinal order (x264/x265's names); an unknown or absent preset is
/// `medium`.
const PRESETS: &[&str] = &[
    "ultrafast",
    "superfast",
    "veryfast",
    "faster",
    "fast",
    "medium",
    "slow",
    "slower",
    "veryslow",
    "placebo",
];

/// What the caller said of the encode ([`crate::TinyModelScorer::set_codec`]).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct CodecContext {
    /// The encoder's name (`libx264`, ...); `None` the vocabulary's `unknown` bucket.
    pub codec: Option<String>,
    /// The preset's name; `None` is `medium`.
    pub preset: Option<String>,
    /// The CRF (clamped to 0..=63).
    pub crf: i32,
}

impl CodecContext {
    /// The `vocab.len() + 2` floats of the codec block, and whether the codec was found in
    /// `vocab` (when not, the last bucket, `unknown`, is set).
    pub fn block(&self, vocab: &[String]) -> (Vec<f32>, bool) {
        let mut b = vec![0.0f32; vocab.len() + 2];
        let found = self
            .codec
            .as_deref()
            .and_then(|c| vocab.iter().position(|v| v == c));
        let slot = found.unwrap_or(vocab.len().saturating_sub(1));
        if !vocab.is_empty() {
            b[slot] = 1.0;
        }
        let preset = self
            .preset
            .as_deref()
            .and_then(|p| PRESETS.iter().position(|q| *q == p))
            .unwrap_or(5);
        b[vocab.len()] = preset as f32 / 9.0;
        b[vocab.len() + 1] = self.crf.clamp(0, 63) as f32 / 63.0;
        (
            b,
            found.is_some() || self.codec.as_deref().is_none_or(str::is_empty),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn block_is_one_hot_then_preset_then_crf() {
        let vocab: Vec<String> = ["libx264", "libx265", "unknown"].map(String::from).into();
        let c = CodecContext {
            codec: Some("libx265".into()),
            preset: Some("slow".into()),
            crf: 70,
        };
        let (b, known) = c.block(&vocab);
        assert!(known);
        assert_eq!(b, vec![0.0, 1.0, 0.0, 6.0 / 9.0, 1.0]);
        let (b, known) = CodecContext {
            codec: Some("vp9".into()),
            ..c
        }
        .block(&vocab);
        assert!(!known);
        assert_eq!(&b[..3], &[0.0, 0.0, 1.0]);
    }
}
