//! Small statistics for the campaign analyses: mean, median, cosine similarity (paper 001
//! §5.2) and Pearson's correlation with its Student t-test (§5.1).

use serde::Serialize;
use statrs::distribution::{ContinuousCDF, StudentsT};
use ts_rs::TS;

/// The mean (0 for no values).
pub fn mean(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        0.0
    } else {
        xs.iter().sum::<f64>() / xs.len() as f64
    }
}

/// The median (the mean of the middle two for an even count; 0 for no values).
pub fn median(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let mut v = xs.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

/// Cosine of the angle between `a` and `b` (0 when either is the zero vector).
pub fn cosine(a: &[f64], b: &[f64]) -> f64 {
    let dot: f64 = a.iter().zip(b).map(|(x, y)| x * y).sum();
    let na = a.iter().map(|x| x * x).sum::<f64>().sqrt();
    let nb = b.iter().map(|x| x * x).sum::<f64>().sqrt();
    if na == 0.0 || nb == 0.0 {
        0.0
    } else {
        (dot / (na * nb)).clamp(-1.0, 1.0)
    }
}

/// Pearson's r with its t statistic and two-sided p-value on `n - 2` degrees of freedom.
#[derive(Clone, Debug, PartialEq, Serialize, TS)]
pub struct Correlation {
    pub r: f64,
    pub t: f64,
    pub dof: usize,
    pub p: f64,
}

/// Pearson correlation of paired samples; `None` with fewer than 3 pairs or a constant
/// sample.
pub fn pearson(xs: &[f64], ys: &[f64]) -> Option<Correlation> {
    let n = xs.len().min(ys.len());
    if n < 3 {
        return None;
    }
    let (mx, my) = (mean(&xs[..n]), mean(&ys[..n]));
    let mut sxy = 0.0;
    let mut sxx = 0.0;
    let mut syy = 0.0;
    for i in 0..n {
        let (dx, dy) = (xs[i] - mx, ys[i] - my);
        sxy += dx * dy;
        sxx += dx * dx;
        syy += dy * dy;
    }
    if sxx == 0.0 || syy == 0.0 {
        return None;
    }
    let r = (sxy / (sxx * syy).sqrt()).clamp(-1.0, 1.0);
    let dof = n - 2;
    let (t, p) = if (1.0 - r * r) <= f64::EPSILON {
        (f64::INFINITY.copysign(r), 0.0)
    } else {
        let t = r * (dof as f64 / (1.0 - r * r)).sqrt();
        let dist = StudentsT::new(0.0, 1.0, dof as f64).ok()?;
        (t, 2.0 * (1.0 - dist.cdf(t.abs())))
    };
    Some(Correlation { r, t, dof, p })
}
