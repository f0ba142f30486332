//! The per-frame score table a context collects and the run's facts the writers print.

/// Every collected score of a run, one column per metric.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ScoreTable {
    /// Metric names in print order (the collector's order), already aliased as printed.
    pub names: Vec<String>,
    /// `(frame index, value per name)`; `None` where that metric was not collected for that
    /// frame. A row shorter than `names` counts as `None` for the missing tail; values past
    /// `names` are ignored. Rows may come in any order; of two rows with one index the first
    /// is used.
    pub frames: Vec<(u64, Vec<Option<f64>>)>,
}

/// The facts of a run the formats print beside the scores.
#[derive(Debug, Clone, PartialEq)]
pub struct ReportInfo {
    /// libvmaf version string (`version` in JSON and XML).
    pub version: String,
    /// The speed reading in frames per second (`fps`; JSON writes a non-finite one as null).
    pub fps: f64,
    /// Picture width (XML `qualityWidth`).
    pub width: u32,
    /// Picture height (XML `qualityHeight`).
    pub height: u32,
    /// Aggregate metrics, in order (`aggregate_metrics`).
    pub aggregate: Vec<(String, f64)>,
    /// libvmaf's `n_subsample`: above 1, only frames whose index is a multiple of it are
    /// written and pooled.
    pub subsample: u32,
    /// Pictures read (libvmaf's `pic_cnt`): a metric is pooled over frames `0..pic_count`
    /// (subsampled), and only if it has a value on every one of them.
    pub pic_count: u64,
    /// Set where the run stopped before its inputs ended; the logs then say so.
    pub partial: Option<super::partial::Partial>,
}

impl ReportInfo {
    /// Facts for a `width`×`height` run of `pic_count` pictures: libvmaf's version, fps 0,
    /// no subsampling, no aggregate metrics.
    pub fn new(width: u32, height: u32, pic_count: u64) -> Self {
        ReportInfo {
            version: crate::version::LIBVMAF_VERSION.to_string(),
            fps: 0.0,
            width,
            height,
            aggregate: Vec::new(),
            subsample: 1,
            pic_count,
            partial: None,
        }
    }

    /// Whether frame `index` is skipped by subsampling.
    pub fn skips(&self, index: u64) -> bool {
        self.subsample > 1 && !index.is_multiple_of(u64::from(self.subsample))
    }
}
