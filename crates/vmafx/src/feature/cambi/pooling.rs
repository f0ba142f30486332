//! Spatial pooling of c-values (mean of the largest `topk` fraction, selected in place as
//! libvmaf does, so the summation order is the same) and the weighting across scales.
//! [`RowPool`] takes a scale's c-values a row at a time as they are made and keeps only
//! what the exact sum reads; the whole-plane pooling remains for where it is not exact.

/// Number of scales CAMBI scores.
pub(super) const NUM_SCALES: usize = 5;

/// Weight of each scale in the final score.
pub(super) const SCALE_WEIGHTS: [i32; NUM_SCALES] = [16, 8, 4, 2, 1];

/// Rearranges `arr` so that its first `k` entries are its `k` largest (libvmaf's
/// Hoare-partition quickselect, descending; the order of the first `k` follows from it).
/// The scans are searches over subslices, step for step those of
/// [`quick_select_reference`]. (The negated comparisons are libvmaf's loop conditions:
/// they stop at a NaN as its loops do.)
#[allow(clippy::neg_cmp_op_on_partial_ord)]
fn quick_select(arr: &mut [f32], k: usize) {
    let n = arr.len();
    if n == k {
        return;
    }
    let (mut left, mut right) = (0usize, n - 1);
    while left < right {
        let pivot = arr[k];
        let (mut i, mut j) = (left as isize, right as isize);
        loop {
            // Up from i while above the pivot (stopping at the last entry).
            let from = i as usize;
            i = match arr[from..n - 1].iter().position(|&x| !(x > pivot)) {
                Some(p) => (from + p) as isize,
                None => (n - 1) as isize,
            };
            // Down from j while below the pivot (stopping at the first entry).
            j = match arr[1..=j as usize].iter().rposition(|&x| !(x < pivot)) {
                Some(p) => p as isize + 1,
                None => 0,
            };
            if i <= j {
                arr.swap(i as usize, j as usize);
                i += 1;
                j -= 1;
            }
            if i > j {
                break;
            }
        }
        if j < k as isize {
            left = i as usize;
        }
        if (k as isize) < i {
            right = j as usize;
        }
    }
}

/// The quickselect written as libvmaf's loops, index by index: the twin of
/// [`quick_select`].
#[cfg(test)]
fn quick_select_reference(arr: &mut [f32], k: usize) {
    let n = arr.len();
    if n == k {
        return;
    }
    let k = k as isize;
    let (mut left, mut right) = (0isize, n as isize - 1);
    while left < right {
        let pivot = arr[k as usize];
        let (mut i, mut j) = (left, right);
        loop {
            while (i as usize) < n - 1 && arr[i as usize] > pivot {
                i += 1;
            }
            while j > 0 && arr[j as usize] < pivot {
                j -= 1;
            }
            if i <= j {
                arr.swap(i as usize, j as usize);
                i += 1;
                j -= 1;
            }
            if i > j {
                break;
            }
        }
        if j < k {
            left = i;
        }
        if k < i {
            right = j;
        }
    }
}

/// The mean of the largest `topk` fraction of `c_values` (at least one); where libvmaf's
/// quickselect runs, it reorders them.
///
/// libvmaf sums the `k` largest in the order its quickselect leaves them. Where every
/// partial sum is exact in double precision that order cannot matter, and
/// [`exact_top_sum`] finds the same sum without the quickselect; otherwise the
/// quickselect runs as libvmaf's does.
pub(super) fn spatial_pooling(c_values: &mut [f32], topk: f64, stats: PoolStatsFn) -> f64 {
    let k = top_count(c_values.len(), topk);
    if let Some(sum) = exact_top_sum(c_values, k, stats) {
        return sum / k as f64;
    }
    selected_sum(c_values, k) / k as f64
}

/// How many of `n` values the mean of the largest `topk` fraction takes (at least one).
fn top_count(n: usize, topk: f64) -> usize {
    ((topk * n as f64) as i64).clamp(1, n as i64) as usize
}

/// libvmaf's way: quickselect, then the first `k` summed in order.
fn selected_sum(c_values: &mut [f32], k: usize) -> f64 {
    quick_select(c_values, k);
    let mut sum = 0f64;
    for &v in &c_values[..k] {
        sum += v as f64;
    }
    sum
}

/// The sum of the `k` largest of `values` (non-negative), when it is exact in any order.
///
/// Every positive single-precision value is a multiple of the unit in the last place of
/// the smallest positive one, `q`, and every multiple of `q` below `2^53 q` is a double.
/// If the total of all of them stays below `2^53 q`, every partial sum of any subset is
/// such a multiple, so each double addition is exact and the sum of the `k` largest is the
/// same in every order. The total is itself summed first: its first inexact step (if any)
/// would round a partial sum of at least `2^53 q` (a double) to at least that, and adding
/// non-negative values never lowers a rounded sum, so a computed total below `2^53 q`
/// proves every step exact. `None` where the test fails or a value is negative or not a
/// number.
fn exact_top_sum(values: &[f32], k: usize, stats: PoolStatsFn) -> Option<f64> {
    exact_top_sum_of(pool_stats(values, stats), k, Some(values)).ok()
}

/// Why the row pooling found no exact top sum.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NotExact {
    /// The sum is not exact in every order (or a value is negative or not a number):
    /// libvmaf's quickselect must run over the whole plane.
    Inexact,
    /// The sum is exact but needs the values, which were not kept.
    Unkept,
}

/// [`exact_top_sum`] from the statistics of the values and any of their subsets that
/// holds every nonzero one (the `k` largest are among them where more than `k` are
/// nonzero), if kept.
fn exact_top_sum_of(stats: PoolStats, k: usize, nonzero: Option<&[f32]>) -> Result<f64, NotExact> {
    let PoolStats {
        positive,
        top,
        smallest,
        total,
    } = stats;
    if top >= f32::INFINITY.to_bits() {
        return Err(NotExact::Inexact);
    }
    if positive == 0 {
        return Ok(0.0);
    }
    // The unit in the last place of the smallest positive value (2^-149 for subnormals).
    let exponent = (smallest >> 23) as i32;
    let ulp_exp = exponent.max(1) - 127 - 23;
    if total >= 2f64.powi(53 + ulp_exp) {
        return Err(NotExact::Inexact);
    }
    if positive <= k {
        // The k largest are every positive value and zeros.
        return Ok(total);
    }
    nonzero
        .map(|v| sum_of_largest(v, k))
        .ok_or(NotExact::Unkept)
}

/// The pooling of one scale's c-values fed a row at a time as they are made: the
/// statistics of [`pool_stats`] (the kernel's eight running sums continued from row to
/// row, value `i` of the plane into sum `i % 8`, so every bit is that of the whole plane's)
/// and, when asked to, the groups of values that are not all zeros, all that the exact
/// top sum reads (it reads them only where more than `k` values are nonzero). Reused from
/// scale to scale and frame to frame.
#[derive(Debug, Default)]
pub(super) struct RowPool {
    acc: PoolAcc,
    /// The values after the last whole group of eight (`pending` of them).
    carry: [f32; 8],
    pending: usize,
    /// Values fed.
    count: usize,
    /// Every nonzero value, among zeros (the first `kept`; the rest is room for a row),
    /// while `keeping`.
    nonzero: Vec<f32>,
    kept: usize,
    keeping: bool,
}

impl RowPool {
    /// Starts a scale, keeping the values that are not zero or not.
    pub(super) fn start(&mut self, keep: bool) {
        self.acc = PoolAcc::default();
        self.pending = 0;
        self.count = 0;
        self.kept = 0;
        self.keeping = keep;
    }

    /// Adds the next row of c-values, its statistics by `kernel`.
    pub(super) fn push(&mut self, row: &[f32], kernel: PoolStatsFn) {
        self.count += row.len();
        if self.keeping {
            self.keep_nonzero(row);
        }
        let mut row = row;
        if self.pending > 0 {
            // Complete the group the last row began.
            let take = (8 - self.pending).min(row.len());
            self.carry[self.pending..self.pending + take].copy_from_slice(&row[..take]);
            self.pending += take;
            row = &row[take..];
            if self.pending < 8 {
                return;
            }
            kernel(&self.carry, &mut self.acc);
            self.pending = 0;
        }
        kernel(row, &mut self.acc);
        let rest = &row[row.len() / 8 * 8..];
        self.carry[..rest.len()].copy_from_slice(rest);
        self.pending = rest.len();
    }

    /// Appends the groups of eight of `row` that hold a nonzero value (and the values
    /// after its last whole group) to those kept: every group is copied to the next free
    /// place, which advances past it where it is not all zeros (no branch). The zeros
    /// kept with them cannot be among the `k` largest where the selection runs (more
    /// than `k` values are nonzero then).
    fn keep_nonzero(&mut self, row: &[f32]) {
        if self.nonzero.len() < self.kept + row.len() + 8 {
            self.nonzero.resize(self.kept + row.len() + 8, 0.0);
        }
        let (out, mut kept) = (&mut self.nonzero, self.kept);
        let groups = row.chunks_exact(8);
        let rest = groups.remainder();
        for group in groups {
            let any = group.iter().fold(0, |a, v| a | v.to_bits()) != 0;
            out[kept..kept + 8].copy_from_slice(group);
            kept += 8 * usize::from(any);
        }
        out[kept..kept + rest.len()].copy_from_slice(rest);
        self.kept = kept + rest.len();
    }

    /// The statistics of the values fed since [`RowPool::start`].
    pub(super) fn stats(&self) -> PoolStats {
        self.acc.finish(&self.carry[..self.pending])
    }

    /// The mean of the largest `topk` fraction of the values fed, as
    /// [`spatial_pooling`] finds it, where the sum is exact in any order and the values
    /// it reads were kept.
    pub(super) fn exact_mean(&self, topk: f64) -> Result<f64, NotExact> {
        let k = top_count(self.count, topk);
        let nonzero = self.keeping.then(|| &self.nonzero[..self.kept]);
        exact_top_sum_of(self.stats(), k, nonzero).map(|s| s / k as f64)
    }

    /// Whether the values are worth keeping at the next frame's same scale: more than
    /// four fifths of `k` were nonzero in this one (a guess; where it misses, the scale is
    /// pooled again keeping them).
    pub(super) fn keep_next(&self, topk: f64) -> bool {
        5 * self.stats().positive > 4 * top_count(self.count, topk)
    }
}

/// Low bits dropped from a value's bits to find its bucket: the exponent and the top five
/// bits of the mantissa remain, 32 buckets an octave.
const BUCKET_SHIFT: u32 = 18;
/// Buckets of the finite non-negative values (and infinity).
const BUCKETS: usize = (0x7f80_0000 >> BUCKET_SHIFT) + 1;
/// Histograms counted side by side, so that runs of one bucket do not wait on each other.
const HISTOGRAMS: usize = 4;

/// The sum of the `k` largest of `values` (non-negative and finite, `k` at most their
/// number), in an order that only an exact sum may use (see [`exact_top_sum`]).
///
/// Non-negative values order as their bits, so a histogram of their top bits finds the
/// bucket holding the `k`-th largest: every value in a higher bucket is summed, and only
/// that bucket's values are selected among. Two reads of the values, no writes to them.
fn sum_of_largest(values: &[f32], k: usize) -> f64 {
    let mut counts = vec![0u32; HISTOGRAMS * BUCKETS];
    let groups = values.chunks_exact(HISTOGRAMS);
    let rest = groups.remainder();
    for group in groups {
        for (h, &v) in group.iter().enumerate() {
            counts[h * BUCKETS + (v.to_bits() >> BUCKET_SHIFT) as usize] += 1;
        }
    }
    for &v in rest {
        counts[(v.to_bits() >> BUCKET_SHIFT) as usize] += 1;
    }
    // From the top down to the bucket where the k largest end.
    let (mut above, mut edge) = (0usize, 0usize);
    for b in (0..BUCKETS).rev() {
        let n: usize = (0..HISTOGRAMS)
            .map(|h| counts[h * BUCKETS + b] as usize)
            .sum();
        if above + n >= k {
            edge = b;
            break;
        }
        above += n;
    }
    let edge_bits = edge as u32;
    let in_edge: usize = (0..HISTOGRAMS)
        .map(|h| counts[h * BUCKETS + edge] as usize)
        .sum();
    // Every value is written at the next free place and kept (the place advanced) when
    // it is in the edge bucket: no branch, and one spare place for the writes after the
    // last kept value.
    let mut at_edge = vec![0f32; in_edge + 1];
    let mut kept = 0;
    let mut sums = [0f64; 8];
    let groups = values.chunks_exact(8);
    let rest = groups.remainder();
    for group in groups {
        for (s, &v) in sums.iter_mut().zip(group) {
            let b = v.to_bits() >> BUCKET_SHIFT;
            *s += if b > edge_bits { v as f64 } else { 0.0 };
            at_edge[kept] = v;
            kept += usize::from(b == edge_bits);
        }
    }
    for &v in rest {
        let b = v.to_bits() >> BUCKET_SHIFT;
        sums[0] += if b > edge_bits { v as f64 } else { 0.0 };
        at_edge[kept] = v;
        kept += usize::from(b == edge_bits);
    }
    // The largest `k - above` of the edge bucket.
    let m = k - above;
    let at_edge = &mut at_edge[..kept];
    at_edge.select_nth_unstable_by(m - 1, |a, b| b.total_cmp(a));
    for &v in &at_edge[..m] {
        sums[0] += v as f64;
    }
    sums.iter().sum()
}

/// What the exactness test of [`exact_top_sum`] reads from the values (as their bits:
/// non-negative floats order as their bits do; a negative value, -0.0 or a NaN has bits
/// above those of infinity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PoolStats {
    /// Values whose bits are not zero.
    pub positive: usize,
    /// The largest bits.
    pub top: u32,
    /// The smallest nonzero bits (`u32::MAX` when none).
    pub smallest: u32,
    /// The values' sum in double precision: value `i` into running sum `i % 8` while
    /// whole groups of eight remain, the rest into sum 0, then the eight sums in order
    /// (each is the sum of a subset, so the exactness test covers them as it covers one).
    pub total: f64,
}

/// The statistics of whole groups of eight values, as a kernel gathers them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PoolAcc {
    /// Values whose bits are not zero.
    pub positive: usize,
    /// The largest bits.
    pub top: u32,
    /// The smallest nonzero bits (`u32::MAX` when none).
    pub smallest: u32,
    /// Value `j` of each group added into sum `j`, group after group.
    pub sums: [f64; 8],
}

impl Default for PoolAcc {
    fn default() -> Self {
        PoolAcc {
            positive: 0,
            top: 0,
            smallest: u32::MAX,
            sums: [0.0; 8],
        }
    }
}

impl PoolAcc {
    /// The statistics with the values after the last whole group, `rest` (fewer than
    /// eight), added into sum 0.
    pub(super) fn finish(&self, rest: &[f32]) -> PoolStats {
        let PoolAcc {
            mut positive,
            mut top,
            mut smallest,
            mut sums,
        } = *self;
        for &v in rest {
            let bits = v.to_bits();
            positive += usize::from(bits != 0);
            top = top.max(bits);
            smallest = smallest.min(if bits == 0 { u32::MAX } else { bits });
            sums[0] += v as f64;
        }
        PoolStats {
            positive,
            top,
            smallest,
            total: sums.iter().sum::<f64>(),
        }
    }
}

/// A pooling-statistics kernel: adds the whole groups of eight at the start of the values
/// to the statistics (the last `len % 8` values are left to the caller).
pub(super) type PoolStatsFn = fn(&[f32], &mut PoolAcc);

/// The statistics of `values` by `kernel`.
pub(super) fn pool_stats(values: &[f32], kernel: PoolStatsFn) -> PoolStats {
    let mut acc = PoolAcc::default();
    kernel(values, &mut acc);
    acc.finish(&values[values.len() / 8 * 8..])
}

/// The scalar pooling-statistics kernel.
pub(super) fn pool_groups(values: &[f32], acc: &mut PoolAcc) {
    for chunk in values.chunks_exact(8) {
        for (s, &v) in acc.sums.iter_mut().zip(chunk) {
            let bits = v.to_bits();
            acc.positive += usize::from(bits != 0);
            acc.top = acc.top.max(bits);
            acc.smallest = acc.smallest.min(if bits == 0 { u32::MAX } else { bits });
            *s += v as f64;
        }
    }
}

/// The weighted sum of the per-scale scores, divided by the samples of the window.
pub(super) fn weight_scales(scores: &[f64; NUM_SCALES], window: usize) -> f64 {
    let mut score = 0f64;
    for (s, w) in scores.iter().zip(SCALE_WEIGHTS) {
        score += s * w as f64;
    }
    let odd = 2 * (window >> 1) + 1;
    score / (odd * odd) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_the_largest() {
        let mut v = vec![0.5f32, 3.0, 1.0, 0.0, 2.0, 4.0, 0.25, 1.5];
        let mean = spatial_pooling(&mut v, 0.4, pool_groups);
        // 0.4 * 8 = 3.2 -> 3 largest: 4, 3, 2.
        assert_eq!(mean, 3.0);
        let mut z = vec![0f32; 10];
        assert_eq!(spatial_pooling(&mut z, 0.0001, pool_groups), 0.0);
        let mut all = vec![1f32, 2.0];
        assert_eq!(spatial_pooling(&mut all, 1.0, pool_groups), 1.5);
    }

    /// Values as c-values are made (weight x counts x a reciprocal), many zeros.
    fn c_value_like(
        rng: &mut crate::testutil::twin_rng::TwinRng,
        n: usize,
        zeros: i64,
    ) -> Vec<f32> {
        (0..n)
            .map(|_| {
                if rng.range(0, 100) < zeros {
                    return 0.0;
                }
                let (p0, p) = (rng.range(1, 300), rng.range(0, 300));
                let w = rng.range(1, 10);
                (w * p0 * p) as f32 * (1.0 / (p0 + p) as f32)
            })
            .collect()
    }

    #[test]
    fn exact_sum_matches_libvmafs_order_and_declines_when_inexact() {
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0x9001);
        let (mut fast, mut below_k) = (0, 0);
        for case in 0..400 {
            let n = rng.size(1, 3000);
            let zeros = rng.range(0, 100);
            let mut v = c_value_like(&mut rng, n, zeros);
            if case % 7 == 0 {
                // Magnitudes far apart: partial sums round, the fast path must decline.
                for x in v.iter_mut().step_by(3) {
                    *x *= 1.0e9;
                }
            }
            if case % 11 == 5 {
                // Every positive value in one bucket of the selection's histogram.
                for x in v.iter_mut().filter(|x| **x > 0.0) {
                    *x = 1.0 + (x.to_bits() % 64) as f32 / 4096.0;
                }
            }
            let topk = [0.6, 0.2, 0.01, 1.0, 0.9][case % 5];
            let k = ((topk * n as f64) as i64).clamp(1, n as i64) as usize;
            let mut a = v.clone();
            let want = selected_sum(&mut a, k);
            if let Some(got) = exact_top_sum(&v, k, pool_groups) {
                assert_eq!(got.to_bits(), want.to_bits(), "case {case}: n {n} k {k}");
                fast += 1;
                below_k += usize::from(v.iter().filter(|&&x| x > 0.0).count() <= k);
            } else {
                assert_eq!(case % 7, 0, "case {case} declined");
            }
            let mut c = v.clone();
            assert_eq!(
                spatial_pooling(&mut c, topk, pool_groups).to_bits(),
                (want / k as f64).to_bits()
            );
        }
        // The fast path both with every positive value among the k and with a selection.
        assert!(
            fast > 300 && below_k > 50 && fast - below_k > 100,
            "{fast} fast, {below_k} below k"
        );
        // Inexact partial sums: 2^30 and many values of 2^-24 granularity.
        let v = vec![1.0e9f32, 0.5000001, 0.7];
        assert_eq!(exact_top_sum(&v, 2, pool_groups), None);
        assert_eq!(exact_top_sum(&[0.0, -1.0], 1, pool_groups), None);
        assert_eq!(exact_top_sum(&[0.0, f32::NAN], 1, pool_groups), None);
        assert_eq!(exact_top_sum(&[0.0, 0.0], 1, pool_groups), Some(0.0));
    }

    #[test]
    fn exact_sum_bound_is_two_to_the_53_units() {
        // Totals just below 2^53 q take the fast path and give the quickselect's bits (k
        // below and above the positives); just above, the fast path declines.
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0xb0b53);
        let (mut below, mut above) = (0, 0);
        for case in 0..200 {
            let n = rng.size(50, 2000);
            let zeros = rng.range(0, 80);
            let mut v = c_value_like(&mut rng, n, zeros);
            let Some(small) = v.iter().copied().filter(|&x| x > 0.0).reduce(f32::min) else {
                continue;
            };
            let ulp_exp = (small.to_bits() >> 23) as i32 - 150;
            let limit = 2f64.powi(53 + ulp_exp);
            // Raise values until the total is within a factor of two of the limit, on the
            // side the case asks for.
            let target = if case % 2 == 0 {
                0.75 * limit
            } else {
                1.5 * limit
            };
            let mut total: f64 = v.iter().map(|&x| x as f64).sum();
            let big = (limit / 64.0) as f32;
            for x in v.iter_mut() {
                if total + big as f64 > target || *x == small {
                    continue;
                }
                total += (big - *x) as f64;
                *x = big;
            }
            let k = rng.size(1, n);
            let got = exact_top_sum(&v, k, pool_groups);
            let total = pool_stats(&v, pool_groups).total;
            if total < limit {
                let want = selected_sum(&mut v.clone(), k);
                assert_eq!(got.map(f64::to_bits), Some(want.to_bits()), "case {case}");
                below += usize::from(total >= limit / 2.0);
            } else {
                assert_eq!(got, None, "case {case}");
                above += 1;
            }
        }
        assert!(below > 50 && above > 50, "{below} below, {above} above");
    }

    #[test]
    fn quick_select_rearranges_as_libvmafs_loops() {
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0x5e1ec7);
        for case in 0..600 {
            let n = rng.size(1, 400);
            // Few distinct values (many ties, as the zeros of real c-values) or many.
            let levels = [1, 2, 5, 1000][case % 4];
            let v: Vec<f32> = (0..n).map(|_| rng.range(0, levels) as f32 * 0.5).collect();
            let k = rng.range(1, n as i64) as usize;
            let (mut a, mut b) = (v.clone(), v);
            quick_select(&mut a, k);
            quick_select_reference(&mut b, k);
            assert_eq!(a, b, "case {case}: n {n} k {k}");
        }
    }

    /// The statistics kernels this CPU runs: the scalar one and the table's.
    fn kernels() -> Vec<PoolStatsFn> {
        let mut k: Vec<PoolStatsFn> = vec![pool_groups];
        k.extend(
            super::super::dispatch::KERNELS
                .runnable()
                .map(|t| t.pool_stats),
        );
        k
    }

    #[test]
    fn row_pool_matches_the_whole_plane() {
        // Planes fed a row at a time (widths of every remainder modulo eight) against
        // the whole plane: the statistics bit for bit, the pooled mean bit for bit, and a
        // decline exactly where the whole-plane pooling runs the quickselect.
        let mut rng = crate::testutil::twin_rng::TwinRng::new(0x0715);
        let mut pool = RowPool::default();
        let (mut exact, mut selected, mut declined, mut unkept) = (0, 0, 0, 0);
        for case in 0..600 {
            let (w, h) = (rng.size(1, 70), rng.size(1, 30));
            let zeros = [0, 30, 90, 100][case % 4];
            let mut v = c_value_like(&mut rng, w * h, zeros);
            if case % 9 == 4 {
                for x in v.iter_mut().step_by(5) {
                    *x *= 1.0e9;
                }
            }
            if case % 23 == 7 {
                v[rng.size(0, w * h - 1)] = [-1.0, f32::NAN, f32::INFINITY, -0.0][case % 4];
            }
            let topk = [0.6, 0.05, 0.9, 1.0, 0.0001, 0.3][case % 6];
            for (i, kernel) in kernels().into_iter().enumerate() {
                let keep = case % 3 != 0 || i > 0;
                pool.start(keep);
                for row in v.chunks(w) {
                    pool.push(row, kernel);
                }
                let whole = pool_stats(&v, pool_groups);
                let bits = |p: PoolStats| (p.positive, p.top, p.smallest, p.total.to_bits());
                assert_eq!(bits(pool.stats()), bits(whole), "case {case}: {w}x{h}");
                let want = spatial_pooling(&mut v.clone(), topk, pool_groups);
                let k = top_count(v.len(), topk);
                match pool.exact_mean(topk) {
                    Ok(got) => {
                        assert_eq!(got.to_bits(), want.to_bits(), "case {case}: {w}x{h}");
                        let nonzero = v.iter().filter(|x| x.to_bits() != 0).count();
                        if nonzero > k {
                            selected += 1;
                        } else {
                            exact += 1;
                        }
                    }
                    Err(NotExact::Unkept) => {
                        assert!(!keep, "case {case}: values kept");
                        let nonzero = v.iter().filter(|x| x.to_bits() != 0).count();
                        assert!(nonzero > k, "case {case}: values not needed");
                        assert!(exact_top_sum(&v, k, pool_groups).is_some(), "case {case}");
                        unkept += 1;
                    }
                    Err(NotExact::Inexact) => {
                        assert_eq!(exact_top_sum(&v, k, pool_groups), None, "case {case}");
                        declined += 1;
                    }
                }
            }
        }
        assert!(
            exact > 200 && selected > 200 && declined > 50 && unkept > 30,
            "{exact} total, {selected} selected, {declined} declined, {unkept} unkept"
        );
    }

    #[test]
    fn weights() {
        let s = [1.0, 1.0, 1.0, 1.0, 1.0];
        assert_eq!(weight_scales(&s, 5), 31.0 / 25.0);
    }
}
