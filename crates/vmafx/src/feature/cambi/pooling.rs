//! Spatial pooling of c-values (mean of the largest `topk` fraction, selected in place as
//! libvmaf does, so the summation order is the same) and the weighting across scales.

/// Number of scales CAMBI scores.
pub const NUM_SCALES: usize = 5;

/// Weight of each scale in the final score.
pub const SCALE_WEIGHTS: [i32; NUM_SCALES] = [16, 8, 4, 2, 1];

/// Rearranges `arr` so that its first `k` entries are its `k` largest (libvmaf's
/// Hoare-partition quickselect, descending; the order of the first `k` follows from it).
fn quick_select(arr: &mut [f32], k: usize) {
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

/// The mean of the largest `topk` fraction of `c_values` (at least one), reordering them.
pub fn spatial_pooling(c_values: &mut [f32], topk: f64) -> f64 {
    let n = c_values.len();
    let k = ((topk * n as f64) as i64).clamp(1, n as i64) as usize;
    quick_select(c_values, k);
    let mut sum = 0f64;
    for &v in &c_values[..k] {
        sum += v as f64;
    }
    sum / k as f64
}

/// The weighted sum of the per-scale scores, divided by the samples of the window.
pub fn weight_scales(scores: &[f64; NUM_SCALES], window: usize) -> f64 {
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
        let mean = spatial_pooling(&mut v, 0.4);
        // 0.4 * 8 = 3.2 -> 3 largest: 4, 3, 2.
        assert_eq!(mean, 3.0);
        let mut sorted: Vec<_> = v[..3].to_vec();
        sorted.sort_by(|a, b| b.partial_cmp(a).unwrap());
        assert_eq!(sorted, vec![4.0, 3.0, 2.0]);
        let mut z = vec![0f32; 10];
        assert_eq!(spatial_pooling(&mut z, 0.0001), 0.0);
        let mut all = vec![1f32, 2.0];
        assert_eq!(spatial_pooling(&mut all, 1.0), 1.5);
    }

    #[test]
    fn weights() {
        let s = [1.0, 1.0, 1.0, 1.0, 1.0];
        assert_eq!(weight_scales(&s, 5), 31.0 / 25.0);
    }
}
