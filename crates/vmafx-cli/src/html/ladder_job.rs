//! What the comparison page of a set of renditions shows: the job that `ladder` fills
//! and `ladder_page` renders (a leaf, so that the two need not import each other).

use vmafx::score::{ReportInfo, ScoreTable};

use super::{InputFacts, ModelOutputs};

/// One distorted input of the set and its scores.
pub struct Rendition<'a> {
    /// Its name on the page: the file's stem, as its log is named.
    pub stem: String,
    /// What the input says about itself.
    pub input: InputFacts,
    /// Its scores.
    pub table: &'a ScoreTable,
    /// What its pooled values pool over.
    pub info: &'a ReportInfo,
}

/// Everything the comparison page shows.
pub struct LadderJob<'a> {
    /// The reference.
    pub reference: InputFacts,
    /// The distorted inputs, in the order given.
    pub renditions: Vec<Rendition<'a>>,
    /// The models run (the same for every rendition).
    pub models: Vec<ModelOutputs>,
    /// Metrics to plot beside the models' scores.
    pub plot: &'a [String],
    /// The command line.
    pub command: String,
}

/// A rendition's pooled values: (metric, [min, max, mean, harmonic mean]).
pub type Pooled = Vec<(String, Option<[f64; 4]>)>;
