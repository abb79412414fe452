//! Relation algebra laws for `BitSet` and `Relation` (checked against a naive pair-set
//! model), and the same laws through the interpreter.

use std::collections::BTreeSet;

use proptest::prelude::*;
use weft_cat::{BitSet, EvalOptions, Event, ExecutionBase, Model, Relation};

/// A universe size (crossing the 64-bit word boundary) and two relations over it.
fn two_relations() -> impl Strategy<Value = (usize, Relation, Relation)> {
    (1usize..=80).prop_flat_map(|n| {
        let pairs = proptest::collection::vec((0..n, 0..n), 0..3 * n);
        (Just(n), pairs.clone(), pairs)
            .prop_map(|(n, a, b)| (n, Relation::from_pairs(n, a), Relation::from_pairs(n, b)))
    })
}

fn sparse_relation() -> impl Strategy<Value = (usize, Relation)> {
    (1usize..=70).prop_flat_map(|n| {
        proptest::collection::vec((0..n, 0..n), 0..n + 4)
            .prop_map(move |p| (n, Relation::from_pairs(n, p)))
    })
}

fn pairs(r: &Relation) -> BTreeSet<(usize, usize)> {
    r.iter().collect()
}

/// Naive closure: repeat r ∪ r;r until stable.
fn naive_closure(r: &Relation) -> BTreeSet<(usize, usize)> {
    let mut s = pairs(r);
    loop {
        let mut next = s.clone();
        for &(a, b) in &s {
            for &(c, d) in &s {
                if b == c {
                    next.insert((a, d));
                }
            }
        }
        if next == s {
            return s;
        }
        s = next;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn closure_is_the_least_transitive_superset((_n, r) in sparse_relation()) {
        let plus = r.transitive_closure();
        prop_assert!(r.is_subset(&plus));
        prop_assert!(plus.compose(&plus).is_subset(&plus));
        prop_assert_eq!(pairs(&plus), naive_closure(&r));
        // r+ = r ∪ r;r+
        prop_assert_eq!(&plus, &r.union(&r.compose(&plus)));
        // r* = r+ ∪ id, r? = r ∪ id
        prop_assert_eq!(r.reflexive_transitive_closure(), plus.union(&Relation::identity(r.universe())));
        prop_assert_eq!(r.reflexive_closure(), r.union(&Relation::identity(r.universe())));
    }

    #[test]
    fn inverse_laws((_n, r, s) in two_relations()) {
        prop_assert_eq!(r.compose(&s).inverse(), s.inverse().compose(&r.inverse()));
        prop_assert_eq!(r.inverse().inverse(), r.clone());
        prop_assert_eq!(r.union(&s).inverse(), r.inverse().union(&s.inverse()));
        prop_assert_eq!(r.transitive_closure().inverse(), r.inverse().transitive_closure());
        prop_assert_eq!(r.domain(), r.inverse().range());
    }

    #[test]
    fn boolean_laws((n, r, s) in two_relations()) {
        // De Morgan, double complement, difference as intersection with the complement.
        prop_assert_eq!(r.union(&s).complement(), r.complement().intersection(&s.complement()));
        prop_assert_eq!(r.intersection(&s).complement(), r.complement().union(&s.complement()));
        prop_assert_eq!(r.complement().complement(), r.clone());
        prop_assert_eq!(r.difference(&s), r.intersection(&s.complement()));
        prop_assert_eq!(r.complement().len() + r.len(), n * n);
        let (pr, ps) = (pairs(&r), pairs(&s));
        prop_assert_eq!(pairs(&r.union(&s)), pr.union(&ps).copied().collect::<BTreeSet<_>>());
        prop_assert_eq!(pairs(&r.intersection(&s)), pr.intersection(&ps).copied().collect::<BTreeSet<_>>());
        prop_assert_eq!(pairs(&r.difference(&s)), pr.difference(&ps).copied().collect::<BTreeSet<_>>());
    }

    #[test]
    fn composition_matches_its_definition((_n, r, s) in two_relations()) {
        let expected: BTreeSet<(usize, usize)> = r
            .iter()
            .flat_map(|(a, b)| s.successors(b).map(move |c| (a, c)).collect::<Vec<_>>())
            .collect();
        prop_assert_eq!(pairs(&r.compose(&s)), expected);
        // Associativity and distribution over union.
        let t = r.union(&s);
        prop_assert_eq!(r.compose(&s).compose(&t), r.compose(&s.compose(&t)));
        prop_assert_eq!(r.compose(&s.union(&t)), r.compose(&s).union(&r.compose(&t)));
    }

    #[test]
    fn acyclicity_and_cycles((_n, r) in sparse_relation()) {
        let acyclic = r.is_acyclic();
        prop_assert_eq!(acyclic, r.transitive_closure().is_irreflexive());
        match r.find_cycle() {
            None => prop_assert!(acyclic),
            Some(c) => {
                prop_assert!(!c.is_empty());
                for i in 0..c.len() {
                    prop_assert!(r.contains(c[i], c[(i + 1) % c.len()]));
                }
                let distinct: BTreeSet<usize> = c.iter().copied().collect();
                prop_assert_eq!(distinct.len(), c.len());
            }
        }
        let all = BitSet::full(r.universe());
        match r.topological_order(&all) {
            Some(order) => {
                prop_assert!(acyclic);
                let mut pos = vec![0; r.universe()];
                for (i, &e) in order.iter().enumerate() {
                    pos[e] = i;
                }
                for (a, b) in r.iter() {
                    prop_assert!(pos[a] < pos[b]);
                }
            }
            None => prop_assert!(!acyclic),
        }
    }

    #[test]
    fn sets_products_and_identity(n in 1usize..=90, a in proptest::collection::vec(0usize..90, 0..40), b in proptest::collection::vec(0usize..90, 0..40)) {
        let sa = BitSet::from_events(n, a.into_iter().filter(|&e| e < n));
        let sb = BitSet::from_events(n, b.into_iter().filter(|&e| e < n));
        let prod = Relation::cartesian(&sa, &sb);
        prop_assert_eq!(prod.len(), sa.len() * sb.len());
        for x in 0..n {
            for y in 0..n {
                prop_assert_eq!(prod.contains(x, y), sa.contains(x) && sb.contains(y));
            }
        }
        let id = Relation::identity_on(&sa);
        prop_assert_eq!(id.domain(), sa.clone());
        prop_assert_eq!(id.range(), sa.clone());
        prop_assert_eq!(sa.union(&sb).complement(), sa.complement().intersection(&sb.complement()));
        prop_assert_eq!(sa.len() + sa.complement().len(), n);
        prop_assert!(sa.intersection(&sb).is_subset(&sa));
        prop_assert_eq!(Relation::full(n).restrict(&sa, &sb), prod);
    }

    /// The interpreter agrees: laws stated as cat checks hold on random relations.
    #[test]
    fn laws_hold_through_the_interpreter((n, r, s) in two_relations()) {
        let mut x = ExecutionBase::new();
        for i in 0..n {
            x.add_event(Event::write(i % 3, i % 2));
        }
        x.declare_relation("r");
        x.declare_relation("s");
        for (a, b) in r.iter() {
            x.add_edge("r", a, b);
        }
        for (a, b) in s.iter() {
            x.add_edge("s", a, b);
        }
        let m = Model::parse("laws.cat", LAWS).unwrap();
        let e = m.evaluate(&x, &EvalOptions::default()).unwrap();
        let run = &e.runs[0];
        for c in run.checks.iter().filter(|c| !c.label().starts_with("r-")) {
            prop_assert!(c.holds, "{} fails", c.label());
        }
        prop_assert_eq!(run.allowed(), r.is_acyclic());
        prop_assert_eq!(run.flags().count(), usize::from(!r.is_acyclic()));
    }
}

const LAWS: &str = r#""algebraic laws"
let eq(a, b) = (a \ b) | (b \ a)
empty eq((r ; s)^-1, s^-1 ; r^-1) as inverse-of-sequence
empty eq(~(r | s), ~r & ~s) as de-morgan-union
empty eq(~(r & s), ~r | ~s) as de-morgan-inter
empty eq(r+, r | (r ; r+)) as closure-unfolds
empty (r+ ; r+) \ r+ as closure-transitive
empty r \ r+ as closure-contains
empty eq(r*, r+ | id) as star
empty eq(r?, r | id) as opt
let rec t = r | (t ; t)
empty eq(t, r+) as let-rec-closure
empty eq(domain(r), range(r^-1)) as domain-range
empty eq([domain(r)] ; r, r) as domain-identity
empty eq(r \ s \ r, 0) as left-diff
empty eq(r \ (s \ r), r) as right-diff
irreflexive (r \ id) & id as irreflexive-minus-id
acyclic r as r-acyclic
flag ~acyclic r as r-cyclic
"#;
