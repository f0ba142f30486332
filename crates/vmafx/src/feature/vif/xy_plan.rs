//! Which sixteen-column blocks of a row the scale-0 vertical pass (AVX2, by row pairs, 8-
//! and 16-bit pictures) may leave without their `ref·dis` sums.
//!
//! A pixel's score reads `sigma12`, its filtered `ref·dis` sum, only where the pixel is
//! not flat (`sigma1_sq >= SIGMA_NSQ`), and flat pixels come in regions: on the 1080p pair
//! over half the blocks of a row feed only horizontal steps whose sixteen pixels are all
//! flat (three quarters at 2160p). That is known only after the row's horizontal pass, so
//! the vertical pass goes by the row above: it skips a block's `ref·dis` sums where the
//! previous row's horizontal pass found every pixel flat in the three steps that read the
//! block (the step of its columns and its two neighbours). Where the guess fails (under 1%
//! of the blocks on that pair), the horizontal pass leaves the step that would read a
//! skipped block, and the row's deferred pass computes those blocks from the pictures and
//! scores the step. Every pixel is scored once, from the sums the scalar code forms, and
//! the totals are integer sums: the result does not depend on the guesses.
//!
//! Only a row loop that runs the deferred pass after each horizontal pass turns the plan
//! on ([`XyPlan::enable`]); otherwise no plan is made and every block is computed.

/// The plan and its bookkeeping, kept in the row scratch. The per-block and per-step
/// flags are bytes with one spare entry at each end (index `b + 1` for block `b`), so that
/// a block's neighbours are read without a bound or a branch.
#[derive(Debug, Clone, Default)]
pub(super) struct XyPlan {
    /// Whether the horizontal pass makes plans (the row loop runs the deferred pass).
    enabled: bool,
    /// Per block of the next row's vertical pass: 1 to compute its `ref·dis` sums;
    /// empty: every block.
    plan: Vec<u8>,
    /// Per block of the current row: 1 where its `ref·dis` words were left unwritten;
    /// empty: none was.
    skipped: Vec<u8>,
    /// Per step of the current row's horizontal pass: 1 where a pixel is not flat.
    need: Vec<u8>,
    /// The first columns of the steps the horizontal pass left to the deferred pass.
    deferred: Vec<usize>,
}

impl XyPlan {
    /// Turns plans on (`true`) or off for the row loop that starts, dropping any plan
    /// left from an earlier one.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn enable(&mut self, on: bool) {
        self.enabled = on;
        self.plan.clear();
        self.skipped.clear();
        self.deferred.clear();
    }

    /// Starts a vertical pass over `blocks` blocks: returns the plan (1: compute block `b`
    /// at index `b + 1`; empty: all; the first and last blocks are always computed, the
    /// mirrors and scalar columns read them), to be handed back to
    /// [`XyPlan::end_vertical`].
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn begin_vertical(&mut self, blocks: usize) -> Vec<u8> {
        self.skipped.clear();
        self.deferred.clear();
        let mut plan = std::mem::take(&mut self.plan);
        if plan.len() != blocks + 2 || blocks == 0 {
            plan.clear();
        } else {
            plan[1] = 1;
            plan[blocks] = 1;
        }
        plan
    }

    /// Records block `b` of `blocks` as left without its `ref·dis` words.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn skip(&mut self, b: usize, blocks: usize) {
        if self.skipped.len() != blocks + 2 {
            self.skipped.clear();
            self.skipped.resize(blocks + 2, 0);
        }
        self.skipped[b + 1] = 1;
    }

    /// Ends a vertical pass, taking back the plan's storage.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn end_vertical(&mut self, mut plan: Vec<u8>) {
        plan.clear();
        self.plan = plan;
    }

    /// Starts a horizontal pass over `steps` steps of sixteen columns.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn begin_horizontal(&mut self, steps: usize) {
        self.need.clear();
        if self.enabled {
            self.need.resize(steps + 2, 0);
        }
    }

    /// Whether step `t` (columns `16t..16t + 16`) reads a block left without its
    /// `ref·dis` words: the blocks `t - 1`, `t` and `t + 1`.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn missing(&self, t: usize) -> bool {
        match self.skipped.get(t..t + 3) {
            Some(&[a, b, c]) => a | b | c != 0,
            _ => false,
        }
    }

    /// Notes that step `t` has a pixel that is not flat; leaves it to the deferred pass
    /// (starting at column `j`) when `defer`.
    #[inline]
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn not_flat(&mut self, t: usize, j: usize, defer: bool) {
        if let Some(n) = self.need.get_mut(t + 1) {
            *n = 1;
        }
        if defer {
            self.deferred.push(j);
        }
    }

    /// Ends a horizontal pass: the next row's plan computes block `b` where step `b - 1`,
    /// `b` or `b + 1` of this row had a pixel that is not flat.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn end_horizontal(&mut self) {
        self.plan.clear();
        if !self.enabled {
            return;
        }
        self.plan.push(0);
        self.plan
            .extend(self.need.windows(3).map(|w| w[0] | w[1] | w[2]));
        self.plan.push(0);
    }

    /// Whether the horizontal pass left steps to the deferred pass.
    #[inline]
    pub(super) fn has_deferred(&self) -> bool {
        !self.deferred.is_empty()
    }

    /// Takes the steps left to the deferred pass (their first columns).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn take_deferred(&mut self) -> Vec<usize> {
        std::mem::take(&mut self.deferred)
    }

    /// Returns the deferred list's storage (cleared).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn give_back(&mut self, mut steps: Vec<usize>) {
        steps.clear();
        self.deferred = steps;
    }

    /// Marks block `b` as written now; false if it was not skipped.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) fn fill(&mut self, b: usize) -> bool {
        match self.skipped.get_mut(b + 1) {
            Some(s) if *s != 0 => {
                *s = 0;
                true
            }
            _ => false,
        }
    }
}
