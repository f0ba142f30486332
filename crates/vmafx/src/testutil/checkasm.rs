//! The kernel checker's driver, in the manner of dav1d's checkasm: every entry of every
//! table a feature's [`Dispatch`] lists is called, at every level this processor runs,
//! against the scalar entry on random inputs, and the first difference names the
//! feature, entry, level and seed that reproduce it.
//!
//! A feature describes its table once as a [`Suite`]: one [`Entry`] per function pointer
//! of the table, each drawing random sizes (odd widths, widths below a vector, every bit
//! depth) and edge values from the generator it is given and calling the scalar and the
//! SIMD table's entry on the same input. [`Suite::uncovered`] reads the table's field
//! names from its `Debug` form, so a table that grows an entry without a check fails
//! the checker (`crate::tests::checkasm`).
//!
//! Entries' widths are swept: trial `t` hands its entry a generator made by
//! [`TwinRng::for_trial`], whose first `size(lo, hi)` is `lo + t`, so an entry that draws
//! its width first meets every width of its range once (every partial last vector step,
//! every lane a row shorter than a vector ends on) before its trials turn random. Width
//! sweeps are the checker's, not separate twin tests'.

use std::fmt::Debug;

use super::twin_rng::TwinRng;
use crate::cpu::{CpuLevel, Dispatch, KernelTable};

/// What an entry's check returns: `Err` describes the first difference.
pub(crate) type Verdict = Result<(), String>;

/// One entry of a table and how to check it: `check(scalar, simd, rng)` draws one random
/// case and compares the two tables' entry on it.
pub(crate) struct Entry<T> {
    /// The table field it checks.
    pub name: &'static str,
    /// Draws a case and compares the entry of the SIMD table with the scalar one. Its
    /// first `rng.size` should be the width: that is the draw the trials sweep.
    pub check: fn(&T, &T, &mut TwinRng) -> Verdict,
}

/// A feature's tables and the checks of their entries.
pub(crate) struct Suite<T: 'static> {
    /// The feature, for messages.
    pub feature: &'static str,
    /// Its dispatch.
    pub dispatch: &'static Dispatch<T>,
    /// One check per table entry.
    pub entries: &'static [Entry<T>],
}

/// The checker's view of a [`Suite`] of any table type.
pub(crate) trait Checkable: Sync {
    /// The feature's name.
    fn feature(&self) -> &'static str;
    /// Runs `trials` cases of every entry at every SIMD level this processor runs (the
    /// first ones sweeping the entry's widths, see the module); returns the (level, entry)
    /// pairs checked, or the first difference.
    fn run(&self, trials: u64) -> Result<Vec<(CpuLevel, &'static str)>, String>;
    /// The table's function fields no entry checks.
    fn uncovered(&self) -> Vec<String>;
    /// The levels the feature has a table for on this architecture, lowest first.
    fn levels(&self) -> Vec<CpuLevel>;
    /// The names of the table's entries, in the order they are checked.
    fn entries(&self) -> Vec<&'static str>;
}

/// A seed from the names and the trial, so a failure is reproducible from its message
/// (which gives both: the trial also fixes the swept width).
fn seed(feature: &str, entry: &str, level: CpuLevel, trial: u64) -> u64 {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in feature
        .bytes()
        .chain(entry.bytes())
        .chain(level.name().bytes())
    {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    h ^ trial.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

impl<T: KernelTable + Debug + Sync> Checkable for Suite<T> {
    fn feature(&self) -> &'static str {
        self.feature
    }

    fn run(&self, trials: u64) -> Result<Vec<(CpuLevel, &'static str)>, String> {
        if !self.dispatch.is_well_formed() {
            return Err(format!(
                "{}: tables not scalar-first and rising",
                self.feature
            ));
        }
        let scalar = self.dispatch.scalar();
        let mut checked = Vec::new();
        for simd in self
            .dispatch
            .runnable()
            .filter(|t| t.level() != CpuLevel::Scalar)
        {
            for e in self.entries {
                for trial in 0..trials {
                    let s = seed(self.feature, e.name, simd.level(), trial);
                    // The trial's generator sweeps the entry's widths (see the module).
                    (e.check)(&scalar, &simd, &mut TwinRng::for_trial(s, trial)).map_err(|m| {
                        let l = simd.level().name();
                        format!(
                            "{}.{} at {l} (seed {s:#x}, trial {trial}): {m}",
                            self.feature, e.name
                        )
                    })?;
                }
                checked.push((simd.level(), e.name));
            }
        }
        Ok(checked)
    }

    fn uncovered(&self) -> Vec<String> {
        table_fields(&format!("{:?}", self.dispatch.scalar()))
            .into_iter()
            .filter(|f| f != "level" && !self.entries.iter().any(|e| e.name == f))
            .collect()
    }

    fn levels(&self) -> Vec<CpuLevel> {
        self.dispatch.all().iter().map(|t| t.level()).collect()
    }

    fn entries(&self) -> Vec<&'static str> {
        self.entries.iter().map(|e| e.name).collect()
    }
}

/// The field names of a struct's `Debug` form (`Name { a: .., b: .. }`).
fn table_fields(debug: &str) -> Vec<String> {
    let body = debug.split_once('{').map_or("", |(_, b)| b);
    body.split(", ")
        .filter_map(|part| {
            part.split_once(':')
                .map(|(name, _)| name.trim().to_string())
        })
        .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'))
        .collect()
}

/// `Ok` when the slices hold the same values, else where they first differ.
pub(crate) fn same<V: PartialEq + Debug>(what: &str, got: &[V], want: &[V]) -> Verdict {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} values, scalar {}",
            got.len(),
            want.len()
        ));
    }
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{what}: index {i} of {}: {:?}, scalar {:?}",
            got.len(),
            got[i],
            want[i]
        )),
    }
}

/// `Ok` when two values agree, else both.
pub(crate) fn equal<V: PartialEq + Debug>(what: &str, got: V, want: V) -> Verdict {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: {got:?}, scalar {want:?}"))
    }
}

/// `n` samples below `2^bpc`: uniform, all zero, all maximum, or alternating extremes
/// (the edge values a lane's overflow shows on), chosen at random.
pub(crate) fn samples(rng: &mut TwinRng, n: usize, bpc: u32) -> Vec<u16> {
    let max = ((1u32 << bpc) - 1) as i64;
    match rng.range(0, 5) {
        0 => vec![0; n],
        1 => vec![max as u16; n],
        2 => (0..n)
            .map(|i| if i % 2 == 0 { 0 } else { max as u16 })
            .collect(),
        _ => (0..n).map(|_| rng.range(0, max) as u16).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_fields_are_read_back() {
        #[derive(Debug)]
        #[allow(dead_code)]
        struct K {
            level: u8,
            row_a: fn(u8) -> u8,
            b: u32,
        }
        let k = K {
            level: 1,
            row_a: |x| x,
            b: 3,
        };
        assert_eq!(table_fields(&format!("{k:?}")), ["level", "row_a", "b"]);
        assert!(same("x", &[1, 2, 3], &[1, 2, 4])
            .unwrap_err()
            .contains("index 2"));
        assert!(equal("y", 1, 1).is_ok());
    }
}
