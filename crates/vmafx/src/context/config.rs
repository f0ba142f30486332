//! Context configuration and logging.

use std::sync::Arc;
use std::time::Duration;

use crate::error::{Error, Result};

/// Severity of a log line, with libvmaf's levels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Nothing is logged.
    None = 0,
    /// Failures.
    Error = 1,
    /// Suspicious conditions.
    Warning = 2,
    /// Progress and choices.
    Info = 3,
    /// Details for debugging.
    Debug = 4,
}

/// Receives log lines at or above the configured level.
pub type LogCallback = Arc<dyn Fn(LogLevel, &str) + Send + Sync>;

/// The default wait of the import rule before its one retry (ADR-1929 item 8).
pub const DEFAULT_IMPORT_RETRY_WAIT: Duration = Duration::from_secs(10);

/// The longest import-retry wait accepted.
pub const MAX_IMPORT_RETRY_WAIT: Duration = Duration::from_secs(600);

/// How a [`super::Context`] runs.
#[derive(Clone)]
pub struct ContextConfig {
    /// Worker threads for extraction, as libvmaf's `n_threads`: 0 extracts on the caller's
    /// thread; N >= 1 starts N workers, so that even one worker scores while the caller
    /// reads the next pair.
    pub threads: usize,
    /// Score every n-th frame only (0 and 1 score every frame), as libvmaf's `n_subsample`.
    pub subsample: u32,
    /// Lines below this level are not logged.
    pub log_level: LogLevel,
    /// Where log lines go; `None` writes them to stderr as `libvmaf`-style lines.
    pub log_callback: Option<LogCallback>,
    /// Wait on an acquire fence before the import rule's one retry; 0 means 10 s.
    pub import_retry_wait_ns: u64,
    /// How far ahead of the next index in order a frame may be submitted.
    pub reorder_window: usize,
    /// Frame pairs queued for the workers before `submit` blocks (bounds memory); 0 queues
    /// none: `submit` hands each pair straight to an idle worker (each worker holds the
    /// pair it scores).
    pub max_frames_in_flight: usize,
    /// The order logs and score tables list features in (see [`FeatureOrder`]).
    pub feature_order: FeatureOrder,
}

/// The order a context lists features in: the order libvmaf's feature collector first
/// received each one, which depends on whether libvmaf ran a thread pool.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FeatureOrder {
    /// libvmaf without a thread pool (`n_threads` 0): within each frame, extractors in
    /// registration order; whatever thread count this context uses.
    #[default]
    Serial,
    /// libvmaf with a thread pool (`n_threads` >= 1): the extractors libvmaf runs on the
    /// thread that reads the pictures (those it flags temporal: `psnr`, `float_motion`,
    /// `speed_temporal`) list first, then the ones its pool runs, each group in the serial
    /// order. Where libvmaf's own order is a race (a temporal extractor writing its first
    /// score of a feature at a later frame while the pool still runs frame 0) this is the
    /// order it gives when the reader is ahead of the pool.
    Pool,
}

impl FeatureOrder {
    /// libvmaf's order for `n_threads` worker threads.
    pub fn for_libvmaf_threads(n_threads: usize) -> FeatureOrder {
        if n_threads == 0 {
            FeatureOrder::Serial
        } else {
            FeatureOrder::Pool
        }
    }
}

impl Default for ContextConfig {
    fn default() -> Self {
        ContextConfig {
            threads: 0,
            subsample: 0,
            log_level: LogLevel::Warning,
            log_callback: None,
            import_retry_wait_ns: 0,
            reorder_window: 64,
            max_frames_in_flight: 0,
            feature_order: FeatureOrder::Serial,
        }
    }
}

impl std::fmt::Debug for ContextConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ContextConfig")
            .field("threads", &self.threads)
            .field("subsample", &self.subsample)
            .field("log_level", &self.log_level)
            .field("import_retry_wait_ns", &self.import_retry_wait_ns)
            .field("reorder_window", &self.reorder_window)
            .field("max_frames_in_flight", &self.max_frames_in_flight)
            .field("feature_order", &self.feature_order)
            .finish()
    }
}

impl ContextConfig {
    /// Checks ranges; a value out of range is refused naming its field, never clamped.
    pub fn validate(&self) -> Result<()> {
        if self.import_retry_wait_ns as u128 > MAX_IMPORT_RETRY_WAIT.as_nanos() {
            return Err(Error::range(
                "import_retry_wait_ns",
                format!(
                    "{} ns is above the limit of {} ns (10 minutes)",
                    self.import_retry_wait_ns,
                    MAX_IMPORT_RETRY_WAIT.as_nanos()
                ),
            ));
        }
        if self.threads > 1024 {
            return Err(Error::range(
                "threads",
                format!("{} is above 1024", self.threads),
            ));
        }
        if self.reorder_window == 0 {
            return Err(Error::range("reorder_window", "must be at least 1"));
        }
        Ok(())
    }

    /// The import rule's wait, with 0 read as the default.
    pub fn import_retry_wait(&self) -> Duration {
        if self.import_retry_wait_ns == 0 {
            DEFAULT_IMPORT_RETRY_WAIT
        } else {
            Duration::from_nanos(self.import_retry_wait_ns)
        }
    }

    /// Logs `msg` at `level` through the callback or to stderr.
    pub fn log(&self, level: LogLevel, msg: &str) {
        if level == LogLevel::None || level > self.log_level {
            return;
        }
        match &self.log_callback {
            Some(cb) => cb(level, msg),
            None => {
                let tag = match level {
                    LogLevel::Error => "ERROR",
                    LogLevel::Warning => "WARNING",
                    LogLevel::Info => "INFO",
                    _ => "DEBUG",
                };
                eprintln!("vmafx {tag} {msg}");
            }
        }
    }
}
