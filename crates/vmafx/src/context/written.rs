//! Every score written so far and who wrote it, for provenance records: the collector after
//! the flush; before it, what the workers have collected and the imported scores waiting.

use super::collector::{FeatureCollector, Rank};
use super::{Context, State};
use crate::feature::name::alias;

/// Who wrote a series of scores.
#[derive(Debug, Clone, PartialEq)]
pub enum Writer {
    /// A registered extractor, with the options the caller set (`key=value` joined by `:`
    /// in key order).
    Extractor {
        /// The extractor's name.
        name: &'static str,
        /// Its options.
        options: String,
    },
    /// A model's prediction, by the model's name.
    Model(String),
    /// A score imported with [`Context::import_score`].
    Imported,
    /// Not recorded.
    Unknown,
}

/// One feature's scores.
#[derive(Debug, Clone, PartialEq)]
pub struct WrittenSeries {
    /// The name as outputs print it (the alias of the collector key).
    pub name: String,
    /// The collector key.
    pub key: String,
    /// Who wrote it.
    pub writer: Writer,
    /// (frame index, value), in index order.
    pub values: Vec<(u64, f64)>,
}

impl Context {
    /// Every series of scores written so far, in byte order of their printed names.
    pub fn written_scores(&self) -> Vec<WrittenSeries> {
        let mut out = Vec::new();
        match &self.state {
            State::Done(c) => self.add(&mut out, c),
            State::Running(s) => {
                let (c, _) = s.collected();
                self.add(&mut out, &c);
            }
            State::Setup | State::Failed => {}
        }
        for (name, index, value) in &self.imported {
            match out.iter_mut().find(|s| &s.key == name) {
                Some(s) => s.values.push((*index, *value)),
                None => out.push(WrittenSeries {
                    name: alias(name).to_string(),
                    key: name.clone(),
                    writer: Writer::Imported,
                    values: vec![(*index, *value)],
                }),
            }
        }
        for s in &mut out {
            s.values.sort_by_key(|v| v.0);
        }
        out.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        out
    }

    /// Who wrote the scores of `name` (a collector key or the alias outputs print), if the
    /// context has any.
    pub fn writer_of(&self, name: &str) -> Option<Writer> {
        let find = |c: &FeatureCollector| {
            c.rank_of(name).or_else(|| {
                let key = c.names().into_iter().find(|k| alias(k) == name)?;
                c.rank_of(&key)
            })
        };
        let rank = match &self.state {
            State::Done(c) => find(c),
            State::Running(s) => find(&s.collected().0),
            State::Setup | State::Failed => None,
        };
        match rank {
            Some(r) => Some(self.writer_by_rank(r)),
            None => self
                .imported
                .iter()
                .any(|(n, _, _)| n == name)
                .then_some(Writer::Imported),
        }
    }

    fn add(&self, out: &mut Vec<WrittenSeries>, c: &FeatureCollector) {
        for (key, rank, values) in c.series() {
            out.push(WrittenSeries {
                name: alias(key).to_string(),
                key: key.to_string(),
                writer: self.writer_by_rank(rank),
                values,
            });
        }
    }

    fn writer_by_rank(&self, rank: Rank) -> Writer {
        if rank.writer == usize::MAX {
            return Writer::Imported;
        }
        if rank.phase == 2 {
            return self
                .models
                .iter()
                .find(|h| h.slot() == rank.writer)
                .map_or(Writer::Unknown, |h| {
                    Writer::Model(h.model().name().to_string())
                });
        }
        match self.registrations.get(rank.writer) {
            Some(r) => Writer::Extractor {
                name: r.info.name,
                options: r
                    .options
                    .set_pairs()
                    .into_iter()
                    .map(|(k, v)| format!("{k}={v}"))
                    .collect::<Vec<_>>()
                    .join(":"),
            },
            None => Writer::Unknown,
        }
    }
}
