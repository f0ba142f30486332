//! Small synthetic extractors of each ordering, registered in test builds only, so the
//! context's tests can check scheduling without the cost of a real feature.

use super::ScoreStore;
use super::{ExtractInput, Extractor, ExtractorInfo, FrameScores, OptSpec, OptValues, Ordering};
use crate::error::{Error, Result};
use crate::frame::Geometry;

/// Writes the luma sum of the distorted frame.
struct Sum;
impl Extractor for Sum {
    fn init(&mut self, _g: Geometry) -> Result<()> {
        Ok(())
    }
    fn extract(&mut self, i: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let p = i.distorted.plane(0);
        let s: u64 = (0..p.height)
            .flat_map(|y| p.row_u8(y).iter().map(|&v| v as u64))
            .sum();
        out.put("test_sum", i.index, s as f64);
        Ok(())
    }
}

/// Writes the first luma sample of the previous reference; flush writes its doubled value.
struct Prev;
impl Extractor for Prev {
    fn init(&mut self, _g: Geometry) -> Result<()> {
        Ok(())
    }
    fn extract(&mut self, i: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        let v = i
            .prev_reference
            .map(|f| f.plane(0).get(0, 0) as f64)
            .unwrap_or(-1.0);
        out.put("test_prev", i.index, v);
        Ok(())
    }
    fn flush(&mut self, store: &mut dyn ScoreStore) -> Result<()> {
        let mut n = 0;
        while let Some(v) = store.get("test_prev", n) {
            store.put("test_prev_late", n, v * 2.0);
            n += 1;
        }
        Ok(())
    }
}

/// Counts frames seen, failing if indices do not increase by one.
struct Count {
    next: u64,
}
impl Extractor for Count {
    fn init(&mut self, _g: Geometry) -> Result<()> {
        Ok(())
    }
    fn extract(&mut self, i: &ExtractInput<'_>, out: &mut FrameScores) -> Result<()> {
        if i.index != self.next {
            return Err(Error::invalid(
                "test_count",
                format!("got {} expected {}", i.index, self.next),
            ));
        }
        self.next += 1;
        out.put("test_count", i.index, self.next as f64);
        Ok(())
    }
}

static NO_OPTS: &[OptSpec] = &[OptSpec::flag("debug", false, "")];

pub(crate) static TEST_EXTRACTORS: &[ExtractorInfo] = &[
    ExtractorInfo {
        name: "test_sum",
        aliases: &[],
        provided: &["test_sum"],
        options: NO_OPTS,
        ordering: Ordering::Independent,
        create: |_o: &OptValues| Ok(Box::new(Sum)),
    },
    ExtractorInfo {
        name: "test_prev",
        aliases: &[],
        provided: &["test_prev"],
        options: NO_OPTS,
        ordering: Ordering::PrevRef,
        create: |_o: &OptValues| Ok(Box::new(Prev)),
    },
    ExtractorInfo {
        name: "test_count",
        aliases: &[],
        provided: &["test_count"],
        options: NO_OPTS,
        ordering: Ordering::Temporal,
        create: |_o: &OptValues| Ok(Box::new(Count { next: 0 })),
    },
];
