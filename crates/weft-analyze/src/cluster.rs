//! k-means over device vectors with the elbow method (paper 001 §5.2, Table 4): vectors
//! are scaled to unit length (so distances follow cosine similarity), centroids start by
//! a deterministic k-means++ (farthest-point) seeding and Lloyd's iterations run to a
//! fixed point; the number of clusters is the elbow of the distortion curve (the point
//! farthest from the line through its ends), and each cluster suggests the member
//! nearest its centroid.

use serde::Serialize;
use ts_rs::TS;

/// A clustering of devices.
#[derive(Clone, Debug, Serialize, TS)]
pub struct Clustering {
    pub k: usize,
    /// Distortion (sum of squared distances to the centroid) for k = 1, 2, ...
    pub distortions: Vec<f64>,
    /// `(device, cluster)` for every device.
    pub assignment: Vec<(usize, usize)>,
    /// Per cluster, the device to test (nearest its centroid).
    pub suggested: Vec<usize>,
}

fn unit(v: &[f64]) -> Vec<f64> {
    let n = v.iter().map(|x| x * x).sum::<f64>().sqrt();
    if n == 0.0 {
        v.to_vec()
    } else {
        v.iter().map(|x| x / n).collect()
    }
}

fn dist2(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| (x - y) * (x - y)).sum()
}

/// Lloyd's k-means with farthest-point seeding from the first point: (labels, distortion).
fn lloyd(x: &[Vec<f64>], k: usize) -> (Vec<usize>, Vec<Vec<f64>>, f64) {
    let n = x.len();
    let dim = x.first().map(Vec::len).unwrap_or(0);
    let mut centroids: Vec<Vec<f64>> = vec![x[0].clone()];
    while centroids.len() < k {
        let far = (0..n)
            .max_by(|&a, &b| {
                let da = centroids
                    .iter()
                    .map(|c| dist2(&x[a], c))
                    .fold(f64::INFINITY, f64::min);
                let db = centroids
                    .iter()
                    .map(|c| dist2(&x[b], c))
                    .fold(f64::INFINITY, f64::min);
                da.total_cmp(&db).then(b.cmp(&a))
            })
            .unwrap_or(0);
        centroids.push(x[far].clone());
    }
    let mut labels = vec![0usize; n];
    for _ in 0..200 {
        let mut changed = false;
        for i in 0..n {
            let best = (0..k)
                .min_by(|&a, &b| {
                    dist2(&x[i], &centroids[a]).total_cmp(&dist2(&x[i], &centroids[b]))
                })
                .unwrap_or(0);
            if best != labels[i] {
                labels[i] = best;
                changed = true;
            }
        }
        for (c, centroid) in centroids.iter_mut().enumerate() {
            let members: Vec<&Vec<f64>> =
                (0..n).filter(|&i| labels[i] == c).map(|i| &x[i]).collect();
            if members.is_empty() {
                continue;
            }
            *centroid = (0..dim)
                .map(|d| members.iter().map(|m| m[d]).sum::<f64>() / members.len() as f64)
                .collect();
        }
        if !changed {
            break;
        }
    }
    let distortion = (0..n).map(|i| dist2(&x[i], &centroids[labels[i]])).sum();
    (labels, centroids, distortion)
}

/// The elbow of a decreasing curve: the index farthest from the chord between its ends.
pub fn elbow(d: &[f64]) -> usize {
    let n = d.len();
    if n <= 2 {
        return n.max(1);
    }
    let (x0, y0, x1, y1) = (0.0, d[0], (n - 1) as f64, d[n - 1]);
    let len = ((x1 - x0) * (x1 - x0) + (y1 - y0) * (y1 - y0)).sqrt();
    let mut best = (0, -1.0);
    for (i, &y) in d.iter().enumerate() {
        let dist = ((y1 - y0) * i as f64 - (x1 - x0) * y + x1 * y0 - y1 * x0).abs() / len;
        if dist > best.1 {
            best = (i, dist);
        }
    }
    best.0 + 1
}

/// Clusters `vectors` (one per entry of `devices`) into `k` clusters, or into the elbow
/// of k = 1..=min(n, 10) when `k` is `None`.
pub fn kmeans(vectors: &[Vec<f64>], devices: &[usize], k: Option<usize>) -> Clustering {
    let x: Vec<Vec<f64>> = vectors.iter().map(|v| unit(v)).collect();
    let n = x.len();
    let kmax = n.clamp(1, 10);
    let distortions: Vec<f64> = (1..=kmax).map(|k| lloyd(&x, k).2).collect();
    let k = k.unwrap_or_else(|| elbow(&distortions)).clamp(1, n.max(1));
    let (labels, centroids, _) = lloyd(&x, k);
    // Clusters left empty (identical vectors) are dropped and the rest renumbered, so that
    // every cluster has a member to suggest.
    let used: Vec<usize> = (0..k).filter(|c| labels.contains(c)).collect();
    let renumber = |c: usize| used.iter().position(|&u| u == c).unwrap_or(0);
    let suggested: Vec<usize> = used
        .iter()
        .map(|&c| {
            (0..n)
                .filter(|&i| labels[i] == c)
                .min_by(|&a, &b| {
                    dist2(&x[a], &centroids[c]).total_cmp(&dist2(&x[b], &centroids[c]))
                })
                .map(|i| devices[i])
                .unwrap_or(devices[0])
        })
        .collect();
    let k = used.len();
    let labels: Vec<usize> = labels.into_iter().map(renumber).collect();
    Clustering {
        k,
        distortions,
        assignment: devices.iter().copied().zip(labels).collect(),
        suggested,
    }
}
