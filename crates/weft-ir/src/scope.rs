//! The GPU execution hierarchy: scope levels and where a thread sits in the scope tree
//! (paper 000 §2.1 and §4.1 "Execution hierarchy"; Vulkan adds the queue family).

use serde::{Deserialize, Serialize};

/// A level of the execution hierarchy, ordered from the finest to the widest.
///
/// Names per dialect: PTX `cta`/`gpu`/`sys` (`membar.gl` = gpu); Vulkan `sg`/`wg`/`qf`/`dv`;
/// OpenCL `work_item`/`sub_group`/`work_group`/`device`/`all_svm_devices`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scope {
    /// A single thread (work-item, invocation).
    Thread,
    /// Warp / subgroup / wavefront.
    Warp,
    /// CTA / thread block / workgroup.
    Cta,
    /// Vulkan queue family.
    QueueFamily,
    /// The whole device (PTX `gpu`, Vulkan `dv`, OpenCL `device`).
    Gpu,
    /// The system: host and all devices (PTX `sys`, OpenCL `all_svm_devices`).
    System,
}

impl Scope {
    /// Every scope, finest first.
    pub const ALL: [Scope; 6] = [
        Scope::Thread,
        Scope::Warp,
        Scope::Cta,
        Scope::QueueFamily,
        Scope::Gpu,
        Scope::System,
    ];

    /// The IR's own spelling, used in JSON and diagnostics.
    pub fn name(self) -> &'static str {
        match self {
            Scope::Thread => "thread",
            Scope::Warp => "warp",
            Scope::Cta => "cta",
            Scope::QueueFamily => "queue_family",
            Scope::Gpu => "gpu",
            Scope::System => "system",
        }
    }

    /// The Vulkan (Dat3M litmus) spelling of the scope (`sg`, `wg`, `qf`, `dv`), if any.
    pub fn vulkan(self) -> Option<&'static str> {
        VULKAN_SCOPES
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
    }

    /// The scope a Vulkan (Dat3M litmus) scope name names.
    pub fn from_vulkan(name: &str) -> Option<Scope> {
        VULKAN_SCOPES
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(s, _)| *s)
    }
}

/// Vulkan scopes as Dat3M's litmus tests spell them: subgroup, workgroup, queue family,
/// device.
pub const VULKAN_SCOPES: [(Scope, &str); 4] = [
    (Scope::Warp, "sg"),
    (Scope::Cta, "wg"),
    (Scope::QueueFamily, "qf"),
    (Scope::Gpu, "dv"),
];

/// Where a thread sits in the scope tree: the instance id at each level it names,
/// innermost first (`P0@cta 0,gpu 0` is `[(Cta, 0), (Gpu, 0)]`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Placement {
    pub levels: Vec<(Scope, u32)>,
}

impl Placement {
    pub fn new(levels: Vec<(Scope, u32)>) -> Self {
        Placement { levels }
    }

    /// The instance id this thread has at `scope`, if the placement names that level.
    pub fn id_at(&self, scope: Scope) -> Option<u32> {
        self.levels
            .iter()
            .find(|(s, _)| *s == scope)
            .map(|(_, id)| *id)
    }

    /// The finest level named, if any.
    pub fn innermost(&self) -> Option<Scope> {
        self.levels.iter().map(|(s, _)| *s).min()
    }

    /// Whether two *distinct* threads share one instance of `scope`.
    ///
    /// Levels finer than the finest one named are private to each thread (a PTX test that
    /// names only `cta` and `gpu` puts every thread in its own warp); levels coarser than
    /// the widest one named are shared by all; in between, every named level at or above
    /// `scope` must carry the same id in both placements.
    pub fn same_instance(&self, other: &Placement, scope: Scope) -> bool {
        if scope == Scope::Thread {
            return false;
        }
        let finest = match (self.innermost(), other.innermost()) {
            (Some(a), Some(b)) => a.max(b),
            (Some(a), None) | (None, Some(a)) => a,
            (None, None) => return true,
        };
        if scope < finest {
            return false;
        }
        Scope::ALL.iter().filter(|s| **s >= scope).all(|s| {
            match (self.id_at(*s), other.id_at(*s)) {
                (Some(a), Some(b)) => a == b,
                _ => true,
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialect_spellings_round_trip() {
        assert_eq!(Scope::QueueFamily.vulkan(), Some("qf"));
        assert_eq!(Scope::System.vulkan(), None);
        assert_eq!(Scope::from_vulkan("sg"), Some(Scope::Warp));
        for s in Scope::ALL {
            assert_eq!(s.vulkan().and_then(Scope::from_vulkan).map_or(s, |t| t), s);
        }
    }

    fn p(levels: &[(Scope, u32)]) -> Placement {
        Placement::new(levels.to_vec())
    }

    #[test]
    fn ptx_threads_in_one_cta_share_cta_but_not_warp() {
        let a = p(&[(Scope::Cta, 0), (Scope::Gpu, 0)]);
        let b = p(&[(Scope::Cta, 0), (Scope::Gpu, 0)]);
        assert!(a.same_instance(&b, Scope::Cta));
        assert!(a.same_instance(&b, Scope::Gpu));
        assert!(a.same_instance(&b, Scope::System));
        assert!(!a.same_instance(&b, Scope::Warp));
    }

    #[test]
    fn different_ctas_share_only_the_gpu() {
        let a = p(&[(Scope::Cta, 0), (Scope::Gpu, 0)]);
        let b = p(&[(Scope::Cta, 1), (Scope::Gpu, 0)]);
        assert!(!a.same_instance(&b, Scope::Cta));
        assert!(a.same_instance(&b, Scope::Gpu));
    }

    #[test]
    fn vulkan_subgroups() {
        let a = p(&[(Scope::Warp, 0), (Scope::Cta, 0), (Scope::QueueFamily, 0)]);
        let b = p(&[(Scope::Warp, 0), (Scope::Cta, 1), (Scope::QueueFamily, 0)]);
        // Same subgroup id but in different workgroups: different subgroup instances.
        assert!(!a.same_instance(&b, Scope::Warp));
        assert!(a.same_instance(&b, Scope::QueueFamily));
    }
}
