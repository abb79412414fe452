//! The execution adapter (`weft_exec::exec`: a candidate as a `weft_cat` execution),
//! re-exported under its former path, with its tests on candidates the simulator
//! enumerates.

pub use weft_exec::exec::*;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::candidates::for_each_candidate;
    use crate::traces::{thread_traces, Limits};
    use weft_cat::Execution;
    use weft_ir::Program;

    #[test]
    fn gpu_ptx_mp_has_scopes_fences_and_tags() {
        let src = std::fs::read_to_string(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../tests/corpus/paper000/mp-L1+membar.cta.litmus"
        ))
        .unwrap();
        let p = weft_litmus::parse(&src).unwrap();
        let tt = thread_traces(&p, Limits::default()).unwrap();
        let mut seen = 0;
        for_each_candidate(&p, &tt, &mut |c| {
            let x = execution(&p, c);
            // Two initial writes, T0: st, membar, st; T1: ld, membar, ld.
            assert_eq!(x.num_events(), 8);
            let m = x.base_relation("membar.cta").unwrap();
            assert!(m.contains(2, 4) && m.contains(5, 7));
            assert!(x.base_relation("membar.gl").unwrap().is_empty());
            let cta = x.base_relation("cta").unwrap();
            assert!(!cta.contains(2, 5) && cta.contains(2, 4) && cta.contains(0, 5));
            assert!(x.base_relation("gl").unwrap().contains(2, 5));
            assert!(x.base_set("CG").unwrap().contains(2));
            assert!(x.base_set("CA").unwrap().contains(5));
            assert!(x.base_set("SC").unwrap().contains(3));
            assert!(x.base_set("TEX").unwrap().is_empty());
            // The two membar.cta are in different CTAs: not in each other's scope.
            assert!(!x.base_relation("sync_fence").unwrap().contains(3, 6));
            seen += 1;
            true
        });
        assert_eq!(seen, 4);
    }

    /// The names every test below asks for: the adapter's sets and relations, the kind
    /// sets, the relations `ExecutionBase` computes, and names nobody provides.
    fn every_name(p: &Program) -> (Vec<String>, Vec<String>) {
        let mut sets: Vec<String> = SETS.iter().map(|s| s.to_string()).collect();
        sets.extend(
            [
                "R", "W", "M", "F", "B", "IW", "FW", "RMW", "emptyset", "NOPE",
            ]
            .map(String::from),
        );
        let mut rels: Vec<String> = RELATIONS.iter().map(|s| s.to_string()).collect();
        rels.extend(["loc", "int", "ext", "id", "nope"].map(String::from));
        rels.extend(p.relations.iter().map(|r| r.name.clone()));
        (sets, rels)
    }

    /// `CandidateExec` (cached sets, scope relations built as bit matrices, names answered
    /// as declared without declaring them) gives every set and relation exactly as the
    /// complete `ExecutionBase` of the same candidate does, on tests with scopes, fences,
    /// Vulkan storage classes and test-named relations.
    #[test]
    fn candidate_exec_agrees_with_the_complete_execution() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../");
        let mut files = vec![format!(
            "{root}tests/corpus/paper000/mp-L1+membar.cta.litmus"
        )];
        let dir = format!("{root}tests/corpus/vulkan-races");
        let mut vk: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path().display().to_string())
            .filter(|f| f.ends_with(".litmus"))
            .collect();
        vk.sort();
        files.extend(vk.into_iter().take(8));
        let mut checked = 0;
        for f in &files {
            let p = weft_litmus::parse(&std::fs::read_to_string(f).unwrap()).unwrap();
            let tt = thread_traces(&p, Limits::default()).unwrap();
            let (sets, rels) = every_name(&p);
            let mut n = 0;
            for_each_candidate(&p, &tt, &mut |c| {
                let sx = SkeletonExec::new(&p, c.skeleton);
                for choice in 0..sx.choices() {
                    let full = sx.with_choice(c, choice);
                    let x = sx.candidate(c, choice);
                    for s in &sets {
                        assert_eq!(x.base_set(s), full.base_set(s), "{f}: set {s}");
                    }
                    for r in &rels {
                        assert_eq!(
                            x.base_relation(r),
                            full.base_relation(r),
                            "{f}: relation {r}"
                        );
                    }
                    checked += 1;
                }
                n += 1;
                n < 20
            });
        }
        assert!(checked >= files.len(), "{checked} candidates checked");
    }
}
