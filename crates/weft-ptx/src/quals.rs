//! The one correspondence between weft-IR memory attributes and PTX memory qualifiers.
//!
//! PTX spellings live in the typed qualifier enums of [`crate::ast`] (`Sem`, `Scope`,
//! `StateSpace`, `CacheOp`, `AtomOp`, each with `as_str`/`from_ptx`); this module maps them
//! to and from the IR's [`Order`], [`IrScope`], [`MemSpace`], [`IrCacheOp`] and [`RmwOp`],
//! and spells a memory instruction's mnemonic through [`crate::print::write_mnemonic`], so
//! that every reader and writer of PTX qualifiers (the PTX lowering, the GPU_PTX litmus
//! format, the CUDA litmus code generator) shares one table and one qualifier order
//! (PTX ISA §8.4 `.sem`, §8.5 `.scope`, §5.1 state spaces, §9.7 cache operators).

use weft_ir::{CacheOp as IrCacheOp, DataType, MemSpace, Order, RmwOp, Scope as IrScope};

use crate::ast::{AtomOp, CacheOp, Modifiers, Opcode, ScalarType, Scope, Sem, StateSpace};

/// The `.sem` qualifier of an atomic order (`None` for `Plain` and `Consume`, which PTX
/// spells without one or not at all).
pub fn sem_of(order: Order) -> Option<Sem> {
    Some(match order {
        Order::Relaxed => Sem::Relaxed,
        Order::Acquire => Sem::Acquire,
        Order::Release => Sem::Release,
        Order::AcqRel => Sem::AcqRel,
        Order::SeqCst => Sem::Sc,
        Order::Plain | Order::Consume => return None,
    })
}

/// The order a `.sem` qualifier gives (`.weak` and `.volatile` are `Plain`; `.mmio` has no
/// IR order).
pub fn order_of(sem: Sem) -> Option<Order> {
    Some(match sem {
        Sem::Weak | Sem::Volatile => Order::Plain,
        Sem::Relaxed => Order::Relaxed,
        Sem::Acquire => Order::Acquire,
        Sem::Release => Order::Release,
        Sem::AcqRel => Order::AcqRel,
        Sem::Sc => Order::SeqCst,
        Sem::Mmio => return None,
    })
}

/// The `.scope` qualifier of an IR scope (`.cta`, `.gpu`, `.sys`), if PTX has one.
pub fn scope_of(s: IrScope) -> Option<Scope> {
    Some(match s {
        IrScope::Cta => Scope::Cta,
        IrScope::Gpu => Scope::Gpu,
        IrScope::System => Scope::Sys,
        IrScope::Thread | IrScope::Warp | IrScope::QueueFamily => return None,
    })
}

/// The IR scope of a `.scope` qualifier (`.cluster` has none).
pub fn ir_scope(s: Scope) -> Option<IrScope> {
    Some(match s {
        Scope::Cta => IrScope::Cta,
        Scope::Gpu => IrScope::Gpu,
        Scope::Sys => IrScope::System,
        Scope::Cluster => return None,
    })
}

/// The PTX name of an IR scope without its dot (`cta`, `gpu`, `sys`), as litmus formats
/// write it in qualifiers and placements.
pub fn scope_name(s: IrScope) -> Option<&'static str> {
    scope_of(s).map(|q| q.as_str().trim_start_matches('.'))
}

/// The IR scope a PTX scope name without its dot names (`cta`, `gpu`, `sys`).
pub fn scope_by_name(name: &str) -> Option<IrScope> {
    Scope::from_ptx(&format!(".{name}")).and_then(ir_scope)
}

/// The IR scope of a `membar` level without its dot: `cta`, `gl` (PTX ISA §9.7 `membar`)
/// or `sys`; litmus formats also write the GPU level as `gpu`.
pub fn membar_scope_by_name(name: &str) -> Option<IrScope> {
    match name {
        "gl" => Some(IrScope::Gpu),
        _ => scope_by_name(name),
    }
}

/// The state-space qualifier of a memory space (`None` for a generic address).
pub fn state_space(s: MemSpace) -> Option<StateSpace> {
    Some(match s {
        MemSpace::Global => StateSpace::Global,
        MemSpace::Shared => StateSpace::Shared,
        MemSpace::Local => StateSpace::Local,
        MemSpace::Constant => StateSpace::Const,
        MemSpace::Param => StateSpace::Param,
        MemSpace::Generic => return None,
    })
}

/// The memory space a data state-space qualifier names (`.reg`, `.sreg`, `.tex` and the
/// cluster window name none).
pub fn mem_space(s: StateSpace) -> Option<MemSpace> {
    Some(match s {
        StateSpace::Global => MemSpace::Global,
        StateSpace::Shared | StateSpace::SharedCta => MemSpace::Shared,
        StateSpace::Local => MemSpace::Local,
        StateSpace::Const => MemSpace::Constant,
        StateSpace::Param | StateSpace::ParamEntry | StateSpace::ParamFunc => MemSpace::Param,
        StateSpace::Reg | StateSpace::Sreg | StateSpace::Tex | StateSpace::SharedCluster => {
            return None
        }
    })
}

/// The PTX cache operator of an IR cache operator.
pub fn cache_of(c: IrCacheOp) -> CacheOp {
    match c {
        IrCacheOp::Ca => CacheOp::Ca,
        IrCacheOp::Cg => CacheOp::Cg,
        IrCacheOp::Cs => CacheOp::Cs,
        IrCacheOp::Lu => CacheOp::Lu,
        IrCacheOp::Cv => CacheOp::Cv,
        IrCacheOp::Wb => CacheOp::Wb,
        IrCacheOp::Wt => CacheOp::Wt,
    }
}

/// The IR cache operator of a PTX cache operator.
pub fn ir_cache(c: CacheOp) -> IrCacheOp {
    match c {
        CacheOp::Ca => IrCacheOp::Ca,
        CacheOp::Cg => IrCacheOp::Cg,
        CacheOp::Cs => IrCacheOp::Cs,
        CacheOp::Lu => IrCacheOp::Lu,
        CacheOp::Cv => IrCacheOp::Cv,
        CacheOp::Wb => IrCacheOp::Wb,
        CacheOp::Wt => IrCacheOp::Wt,
    }
}

/// The `atom`/`red` operation of an RMW (`None` for `sub` and C11 compare-exchange, which
/// PTX has no single operation for).
pub fn atom_op_of(op: RmwOp) -> Option<AtomOp> {
    Some(match op {
        RmwOp::Exch => AtomOp::Exch,
        RmwOp::Cas => AtomOp::Cas,
        RmwOp::Add => AtomOp::Add,
        RmwOp::And => AtomOp::And,
        RmwOp::Or => AtomOp::Or,
        RmwOp::Xor => AtomOp::Xor,
        RmwOp::Min => AtomOp::Min,
        RmwOp::Max => AtomOp::Max,
        RmwOp::Inc => AtomOp::Inc,
        RmwOp::Dec => AtomOp::Dec,
        RmwOp::Sub | RmwOp::CompareExchange { .. } => return None,
    })
}

/// The PTX type of an IR value type (`.s32`, `.b64`, `.pred`, ...), if PTX has it.
pub fn scalar_type(t: DataType) -> Option<ScalarType> {
    ScalarType::from_ptx(&format!(".{}", t.ptx_name()))
}

/// The mnemonic `opcode.qualifiers` of an instruction, in the ISA's qualifier order.
pub fn mnemonic(op: Opcode, m: &Modifiers) -> String {
    let mut s = String::new();
    crate::print::write_mnemonic(&mut s, op, m);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mappings_round_trip() {
        for o in [
            Order::Relaxed,
            Order::Acquire,
            Order::Release,
            Order::AcqRel,
            Order::SeqCst,
        ] {
            assert_eq!(sem_of(o).and_then(order_of), Some(o));
        }
        for s in [IrScope::Cta, IrScope::Gpu, IrScope::System] {
            assert_eq!(scope_of(s).and_then(ir_scope), Some(s));
        }
        for s in [
            MemSpace::Global,
            MemSpace::Shared,
            MemSpace::Local,
            MemSpace::Constant,
            MemSpace::Param,
        ] {
            assert_eq!(state_space(s).and_then(mem_space), Some(s));
        }
        for c in IrCacheOp::ALL {
            assert_eq!(ir_cache(cache_of(c)), c);
            // Both enums spell the operator the same way (PTX ISA "Cache Operators").
            assert_eq!(cache_of(c).as_str(), format!(".{}", c.name()));
        }
        assert_eq!(scope_name(IrScope::Gpu), Some("gpu"));
        assert_eq!(scope_name(IrScope::System), Some("sys"));
        assert_eq!(scope_name(IrScope::Warp), None);
        assert_eq!(scope_by_name("cta"), Some(IrScope::Cta));
        assert_eq!(scope_by_name("gl"), None);
        assert_eq!(scope_by_name("cluster"), None);
        assert_eq!(membar_scope_by_name("gl"), Some(IrScope::Gpu));
        assert_eq!(membar_scope_by_name("gpu"), Some(IrScope::Gpu));
        assert_eq!(membar_scope_by_name("sys"), Some(IrScope::System));
        assert_eq!(membar_scope_by_name("warp"), None);
        for s in IrScope::ALL {
            assert_eq!(scope_name(s).and_then(scope_by_name).map_or(s, |t| t), s);
        }
        assert_eq!(scalar_type(DataType::U32), Some(ScalarType::U32));
        assert_eq!(scalar_type(DataType::PRED), Some(ScalarType::Pred));
    }

    #[test]
    fn mnemonics_in_isa_order() {
        // The ISA's syntax line: ld{.sem}{.scope}{.ss}{.cop}.type.
        let m = Modifiers {
            sem: sem_of(Order::Acquire),
            scope: scope_of(IrScope::Gpu),
            space: state_space(MemSpace::Global),
            types: vec![ScalarType::B32],
            ..Modifiers::default()
        };
        assert_eq!(mnemonic(Opcode::Ld, &m), "ld.acquire.gpu.global.b32");
        let m = Modifiers {
            space: state_space(MemSpace::Shared),
            cache: Some(cache_of(IrCacheOp::Cg)),
            types: vec![ScalarType::S32],
            ..Modifiers::default()
        };
        assert_eq!(mnemonic(Opcode::St, &m), "st.shared.cg.s32");
        let m = Modifiers {
            sem: sem_of(Order::Relaxed),
            scope: scope_of(IrScope::Cta),
            atom: atom_op_of(RmwOp::Exch),
            types: vec![ScalarType::B32],
            ..Modifiers::default()
        };
        assert_eq!(mnemonic(Opcode::Atom, &m), "atom.relaxed.cta.exch.b32");
        let m = Modifiers {
            scope: scope_of(IrScope::Gpu),
            ..Modifiers::default()
        };
        assert_eq!(mnemonic(Opcode::Membar, &m), "membar.gl");
    }
}
