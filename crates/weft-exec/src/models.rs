//! The bundled `.cat` models (repository `models/`), compiled into the binary so that
//! `weft sim -m NAME` works from any directory. Adding a model is adding its file to
//! `models/` and one line to [`BUNDLED`].

use std::path::Path;

use weft_cat::{CatError, Model};

/// `(name, source)` of every bundled model.
pub const BUNDLED: &[(&str, &str)] = &[
    ("sc", include_str!("../../../models/sc.cat")),
    ("tso", include_str!("../../../models/tso.cat")),
    ("rc11", include_str!("../../../models/rc11.cat")),
    (
        "scoped-rc11",
        include_str!("../../../models/scoped-rc11.cat"),
    ),
    (
        "ptx-asplos15",
        include_str!("../../../models/ptx-asplos15.cat"),
    ),
    ("opencl", include_str!("../../../models/opencl.cat")),
    ("ptx-v6.0", include_str!("../../../models/ptx-v6.0.cat")),
    ("ptx-v7.5", include_str!("../../../models/ptx-v7.5.cat")),
    ("vulkan", include_str!("../../../models/vulkan.cat")),
    (
        "vulkan-nochains",
        include_str!("../../../models/vulkan-nochains.cat"),
    ),
    ("webgpu", include_str!("../../../models/webgpu.cat")),
];

/// The names of the bundled models.
pub fn names() -> Vec<&'static str> {
    BUNDLED.iter().map(|(n, _)| *n).collect()
}

/// A bundled model by name (`sc`, `ptx-asplos15`, ...; a trailing `.cat` is ignored), or
/// else a model file by path.
pub fn load(name_or_path: &str) -> Result<Model, CatError> {
    let bare = name_or_path.strip_suffix(".cat").unwrap_or(name_or_path);
    if let Some((n, src)) = BUNDLED.iter().find(|(n, _)| *n == bare) {
        if !Path::new(name_or_path).is_file() || !name_or_path.contains('/') {
            return Model::parse(&format!("{n}.cat"), src);
        }
    }
    let path = Path::new(name_or_path);
    let dir = path.parent().map(|d| d.to_path_buf()).unwrap_or_default();
    Model::load(path, &[dir])
}

#[cfg(test)]
mod tests {
    /// The checks each bundled model lets the enumerator apply to partial candidates
    /// (monotone in rf and co): the axioms, never the flags nor a check that subtracts
    /// something rf-dependent (OpenCL's visible side effects).
    #[test]
    fn prunable_checks_of_bundled_models() {
        let expect: &[(&str, &[&str], &[&str])] = &[
            ("ptx-v7.5", &["causality", "coherence", "fence-sc"], &[]),
            (
                "opencl",
                &["coherence-global", "sc"],
                &["na-visible", "data_race"],
            ),
            ("scoped-rc11", &["coherence", "no-thin-air"], &["data-race"]),
            ("vulkan", &["location-order", "coherence"], &[]),
        ];
        for (name, yes, no) in expect {
            let src = super::BUNDLED.iter().find(|(n, _)| n == name).unwrap().1;
            let m = weft_cat::Model::parse(name, src).unwrap();
            let mut prunable = std::collections::BTreeMap::new();
            for i in &m.instrs {
                if let weft_cat::ast::InstrKind::Check(c) = &i.kind {
                    let p = m.prunable.contains(&(i.span.file, i.span.start));
                    prunable.insert(c.name.clone().unwrap_or_default(), p);
                }
            }
            for y in *yes {
                assert_eq!(prunable.get(*y), Some(&true), "{name}: {y}");
            }
            for n in *no {
                assert_eq!(prunable.get(*n), Some(&false), "{name}: {n}");
            }
        }
    }

    #[test]
    fn every_bundled_model_parses() {
        for (n, src) in super::BUNDLED {
            if let Err(e) = weft_cat::Model::parse(n, src) {
                panic!("{n}: {}", e.render());
            }
        }
    }
}
