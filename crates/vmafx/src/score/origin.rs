//! What a partial score belongs to, and the check every merge of parts makes with it.
//!
//! A part scored from frames `A..B` of a pair records the settings that decide its scores,
//! the identity of both inputs ([`InputIdentity`]: size and digest, which survive a copy),
//! and the frames one pass over the pair scores. A merge refuses a part whose record
//! differs from the first part's, naming the part and the field, and refuses parts that
//! do not start at frame 0 or stop before the end of the video.

use std::ops::Range;

use crate::error::{Error, Result};
use crate::io::identity::InputIdentity;

/// What a part belongs to: see the module notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartOrigin {
    /// The settings that decide the scores (models, features, subsampling, skips, frame
    /// limit, ...) as text the face writes the same way for the same settings.
    pub settings: String,
    /// The reference's identity; `None` for a stream.
    pub reference: Option<InputIdentity>,
    /// The distorted input's identity; `None` for a stream.
    pub distorted: Option<InputIdentity>,
    /// Frames one pass over the pair scores, where the inputs tell it before scoring.
    pub video_frames: Option<u64>,
    /// Whether the part's range was open at its end, so that it ran to the end of the video.
    pub to_end: bool,
}

/// One part of a merge as [`check_parts`] sees it.
#[derive(Debug, Clone)]
pub struct PartRecord<'a> {
    /// How errors name the part (its file, or its place in the list).
    pub name: String,
    /// The frames it covers.
    pub frames: Range<u64>,
    /// What it belongs to; `None` where it recorded nothing (an older vmafx wrote it).
    pub origin: Option<&'a PartOrigin>,
}

fn show<T: std::fmt::Display>(v: Option<T>) -> String {
    v.map_or_else(|| "unknown".to_string(), |x| x.to_string())
}

/// The fields of an origin that must agree, named as errors print them.
fn fields(o: &PartOrigin) -> Vec<(&'static str, String)> {
    let mut out = vec![("settings", o.settings.clone())];
    for (side, id) in [("reference", &o.reference), ("distorted", &o.distorted)] {
        let (size, digest, frames) = match id {
            Some(i) => (
                format!("{} bytes", i.bytes),
                format!("sha256 {} of its first {} bytes", i.sha256, i.prefix),
                show(i.frames),
            ),
            None => ("a stream".into(), "a stream".into(), "unknown".into()),
        };
        let named = |f: &'static str| match (side, f) {
            ("reference", "size") => "reference size",
            ("reference", "digest") => "reference digest",
            ("reference", _) => "reference frame count",
            (_, "size") => "distorted size",
            (_, "digest") => "distorted digest",
            _ => "distorted frame count",
        };
        out.push((named("size"), size));
        out.push((named("digest"), digest));
        out.push((named("frames"), frames));
    }
    out.push(("video frame count", show(o.video_frames)));
    out
}

/// Checks that `parts` belong to one run over one pair and reach from frame 0 to the end
/// of the video (their gaps and overlaps are the merge's own checks). Every refusal's
/// subject is the part's name; its message names the field or the frames missing.
pub fn check_parts(parts: &[PartRecord<'_>]) -> Result<()> {
    let Some(first) = parts.first() else {
        return Err(Error::invalid("parts", "nothing to merge: no part given"));
    };
    for p in parts {
        if p.origin.is_none() {
            return Err(Error::invalid(
                &p.name,
                "the part records no origin (the inputs' identity and frame count, the \
                 settings): it was written by an older vmafx; score it again with this one",
            ));
        }
    }
    let want = fields(first.origin.expect("checked above"));
    for p in &parts[1..] {
        let got = fields(p.origin.expect("checked above"));
        if let Some(((field, a), (_, b))) = got.iter().zip(&want).find(|(g, w)| g.1 != w.1) {
            return Err(Error::invalid(
                &p.name,
                format!(
                    "its {field} is {a}, but {} has {b}: the parts are not of one run over one \
                     pair of inputs",
                    first.name
                ),
            ));
        }
    }
    let start = parts.iter().min_by_key(|p| p.frames.start).expect("parts");
    if start.frames.start > 0 {
        return Err(Error::invalid(
            &start.name,
            format!(
                "frames 0..{} are in no part: the first part starts at frame {}",
                start.frames.start, start.frames.start
            ),
        ));
    }
    let last = parts
        .iter()
        .max_by_key(|p| (p.frames.end, p.origin.is_some_and(|o| o.to_end)))
        .expect("parts");
    let end = last.frames.end;
    match last.origin.and_then(|o| o.video_frames) {
        Some(n) if end < n => Err(Error::invalid(
            &last.name,
            format!(
                "the parts stop at frame {end}, but the video has {n} frames: frames {end}..{n} \
                 are in no part"
            ),
        )),
        Some(n) if end > n => Err(Error::invalid(
            &last.name,
            format!("the part ends at frame {end}, past the video's {n} frames"),
        )),
        Some(_) => Ok(()),
        None if last.origin.is_some_and(|o| o.to_end) => Ok(()),
        None => Err(Error::invalid(
            &last.name,
            format!(
                "the parts stop at frame {end}, and nothing tells that the video ends there: \
                 its frame count was unknown when the parts were scored (a stream, or a file \
                 whose size does not tell it); score the last part to the end of the video \
                 (an open range)"
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn origin(settings: &str, frames: Option<u64>) -> PartOrigin {
        let id = |sha: &str| InputIdentity {
            bytes: 100,
            sha256: sha.into(),
            prefix: 50,
            frames,
        };
        PartOrigin {
            settings: settings.into(),
            reference: Some(id("aa")),
            distorted: Some(id("bb")),
            video_frames: frames,
            to_end: false,
        }
    }

    fn rec<'a>(name: &str, frames: Range<u64>, o: &'a PartOrigin) -> PartRecord<'a> {
        PartRecord {
            name: name.into(),
            frames,
            origin: Some(o),
        }
    }

    #[test]
    fn parts_of_one_video_pass_and_others_are_named_with_the_field() {
        let o = origin("m", Some(10));
        check_parts(&[rec("a", 0..5, &o), rec("b", 5..10, &o)]).unwrap();
        let mut other = origin("m", Some(10));
        other.distorted.as_mut().unwrap().sha256 = "cc".into();
        let e = check_parts(&[rec("a", 0..5, &o), rec("b", 5..10, &other)]).unwrap_err();
        assert_eq!(e.subject(), "b");
        assert!(e.message().contains("distorted digest"), "{e}");
        let model = origin("n", Some(10));
        let e = check_parts(&[rec("a", 0..5, &o), rec("b", 5..10, &model)]).unwrap_err();
        assert!(e.message().contains("settings"), "{e}");
    }

    #[test]
    fn parts_that_stop_early_or_start_late_are_refused() {
        let o = origin("m", Some(10));
        let e = check_parts(&[rec("a", 0..5, &o), rec("b", 5..8, &o)]).unwrap_err();
        assert_eq!(e.subject(), "b");
        assert!(e.message().contains("8..10"), "{e}");
        let e = check_parts(&[rec("b", 2..10, &o)]).unwrap_err();
        assert!(e.message().contains("0..2"), "{e}");
        let unknown = origin("m", None);
        let e = check_parts(&[rec("a", 0..5, &unknown)]).unwrap_err();
        assert!(e.message().contains("unknown"), "{e}");
        let open = PartOrigin {
            to_end: true,
            ..unknown.clone()
        };
        check_parts(&[rec("a", 0..5, &unknown), rec("b", 5..9, &open)]).unwrap();
        let old = PartRecord {
            name: "old.json".into(),
            frames: 0..10,
            origin: None,
        };
        let e = check_parts(&[old]).unwrap_err();
        assert!(e.message().contains("older vmafx"), "{e}");
    }
}
