//! The end of a decoded input: a decoder that reported errors (a truncated or corrupt file,
//! from which ffmpeg decodes only some frames or conceals broken ones) fails the read at
//! the end of its output, with the decoder's own messages and the frames lost, unless the
//! caller accepts such files ([`super::super::OpenOptions::accept_decode_errors`]); then
//! the loss is kept for the caller to report ([`DecodeWatch`]).

use std::sync::{Arc, Mutex};

use super::decoder::message_lines;

/// What a decoding lost: frames decoded, the count the container announced, and what
/// the decoder said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecodeLoss {
    /// Frames the decoder handed over.
    pub decoded: u64,
    /// Frames the container (or ffprobe's packet count) announced, where known.
    pub expected: Option<u64>,
    /// The decoder's messages, one line each, joined by ` | `.
    pub messages: String,
}

impl DecodeLoss {
    /// The frames lost, `decoded..expected`, where the count shows any.
    pub fn lost(&self) -> Option<std::ops::Range<u64>> {
        self.expected
            .filter(|&n| n > self.decoded)
            .map(|n| self.decoded..n)
    }

    /// One sentence for people: the frames decoded and lost, and the decoder's messages.
    pub fn describe(&self) -> String {
        let frames = match (self.lost(), self.expected) {
            (Some(r), Some(n)) => format!(
                "decoded {} of the {n} frames the container announces: frames {}..{} ({}) are \
                 lost",
                self.decoded,
                r.start,
                r.end,
                r.end - r.start
            ),
            _ => format!(
                "decoded {} frames, some of them possibly with broken parts concealed",
                self.decoded
            ),
        };
        format!(
            "ffmpeg reported decoding errors and {frames}; it said: {}",
            self.messages
        )
    }
}

/// The losses a lenient decoded input met, readable after the reader is used up.
#[derive(Debug, Clone, Default)]
pub struct DecodeWatch(Arc<Mutex<Option<DecodeLoss>>>);

impl DecodeWatch {
    /// The loss met at the end of the decoder's output, if any.
    pub fn loss(&self) -> Option<DecodeLoss> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// The check a reader of a decoder's output makes at its clean end.
#[derive(Debug)]
pub(crate) struct EndCheck {
    pub(crate) messages: Arc<Mutex<Vec<u8>>>,
    pub(crate) expected: Option<u64>,
    pub(crate) accept: bool,
    pub(crate) watch: DecodeWatch,
}

impl EndCheck {
    /// At the clean end of the output after `decoded` frames: `Err` with the loss where the
    /// decoder reported errors and they are not accepted.
    pub(crate) fn at_end(&self, decoded: u64) -> std::result::Result<(), DecodeLoss> {
        let text = self.messages.lock().unwrap_or_else(|p| p.into_inner());
        let lines = message_lines(&text);
        if lines.is_empty() {
            return Ok(());
        }
        let loss = DecodeLoss {
            decoded,
            expected: self.expected,
            messages: lines.join(" | "),
        };
        if self.accept {
            *self.watch.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(loss);
            return Ok(());
        }
        Err(loss)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(said: &[u8], accept: bool) -> EndCheck {
        EndCheck {
            messages: Arc::new(Mutex::new(said.to_vec())),
            expected: Some(10),
            accept,
            watch: DecodeWatch::default(),
        }
    }

    #[test]
    fn a_decoder_that_reported_errors_fails_naming_the_frames_lost() {
        assert_eq!(check(b"", false).at_end(10), Ok(()));
        let e = check(b"[mov] partial file\n\n[h264] error\n", false)
            .at_end(8)
            .unwrap_err();
        assert_eq!(e.lost(), Some(8..10));
        let d = e.describe();
        assert!(
            d.contains("8 of the 10")
                && d.contains("frames 8..10")
                && d.contains("partial file | [h264] error"),
            "{d}"
        );
    }

    #[test]
    fn an_accepted_loss_is_kept_for_the_caller() {
        let c = check(b"File ended prematurely\n", true);
        assert_eq!(c.at_end(10), Ok(()));
        let loss = c.watch.loss().unwrap();
        assert_eq!(loss.lost(), None);
        assert!(loss.describe().contains("concealed"), "{}", loss.describe());
    }
}
