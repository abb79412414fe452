//! Annotations: the sink stores of `weft_verify.h`, contracts of called functions, and
//! adding checks.

use super::*;

impl Exec<'_> {
    /// An annotation sink store?
    pub(super) fn sink(&mut self, addr: &weft_ir::kernel::Addr) -> Option<&'static str> {
        let name_of = |v: u32| self.k.vars.get(v as usize).map(|x| x.name.as_str());
        let var = match addr.base {
            AddrBase::Var(v) => Some(v),
            AddrBase::Reg(_) => {
                let a = self.address(0, addr).ok()?;
                match self.split(&a, 0) {
                    Some(ps) if ps.len() == 1 => match ps[0].base {
                        Base::Var(v) => Some(v),
                        _ => None,
                    },
                    _ => None,
                }
            }
            _ => None,
        }?;
        let n = name_of(var)?;
        [
            ASSERT_SINK,
            ASSUME_SINK,
            INVARIANT_SINK,
            REQUIRES_SINK,
            ENSURES_SINK,
            GREQUIRES_SINK,
            GENSURES_SINK,
            LINE_SINK,
            FWD_RESET_SINK,
            FRAME_SINK,
            BARRIER_FLAGS_SINK,
            BI_INST_SINK,
            BI_UNARY_SINK,
            BI_SNAP_SINK,
        ]
        .into_iter()
        .find(|s| n.contains(s))
    }

    /// The function other than a kernel whose body holds source `line` (of the kernel's
    /// file): whether it is a specification function whose postconditions may be assumed,
    /// and whether its body is a contract only; neither when it writes a frame
    /// (`__writes_to`, not modelled).
    pub(super) fn callee_of(&self, line: Option<u64>) -> Option<(bool, bool)> {
        let line = usize::try_from(line?).ok()?;
        self.o
            .contracts
            .callee_at(line)
            .map(|c| (c.spec && !c.writes, c.contract_only && !c.writes))
    }

    /// What a contract annotation at source `line` means here (GPUVerify's modular contracts, with
    /// every call inlined): the sink it acts as (assert or assume), or `None` when it is not
    /// checked (a kernel's postcondition; a postcondition of a function with a body, which
    /// would have to be evaluated on return, not where it is written).
    pub(super) fn contract_sink(&mut self, line: Option<u64>, sink: &str) -> Option<&'static str> {
        let callee = self.callee_of(line);
        let requires = sink == REQUIRES_SINK || sink == GREQUIRES_SINK;
        // A postcondition moved to the function's return (`contract::ensures_on_return`):
        // checked there; assuming it after the call would add nothing, the body is inlined.
        let on_return = line
            .and_then(|l| usize::try_from(l).ok())
            .and_then(|l| self.o.contracts.callee_at(l))
            .is_some_and(|c| c.ensures_on_return);
        if on_return && !requires {
            return Some(ASSERT_SINK);
        }
        match callee {
            None if requires => Some(ASSUME_SINK),
            None => None,
            Some(_) if requires => Some(ASSERT_SINK),
            Some((true, _)) => Some(ASSUME_SINK),
            Some((_, true)) => Some(ASSERT_SINK),
            Some(_) => {
                self.note_once("`__ensures` of a `__spec_` function with a `__writes_to` frame is not assumed (only its `__write_implies` bounds the frame's write), nor checked or assumed for a function with a body whose parameters cannot be named");
                None
            }
        }
    }

    /// A global contract (`__global_requires(e)`, `__global_ensures(e)`): `vals` are the
    /// two threads' `!e`, evaluated whether or not the thread makes the call (a register
    /// first written on a disabled path takes the computed value). When either thread
    /// reaches the annotation, both must satisfy it; `t`'s instance is dropped when it reads
    /// the access history (see [`Self::annotation`]).
    pub(super) fn global_contract(
        &mut self,
        pc: usize,
        sink: &str,
        en: &[T; 2],
        vals: [T; 2],
    ) -> R<()> {
        let line = self.contract_line.take();
        let Some(eff) = self.contract_sink(line, sink) else {
            return Ok(());
        };
        self.global_annotation(pc, eff, en, vals)
    }

    /// An unguarded annotation acting as `eff` (assert or assume): `vals` are the two
    /// threads' negated conditions; when either thread reaches it, both must satisfy it.
    pub(super) fn global_annotation(
        &mut self,
        pc: usize,
        eff: &str,
        en: &[T; 2],
        vals: [T; 2],
    ) -> R<()> {
        let viol = vals.map(|v| self.truthy(&v));
        let reached = self.c.or(&en[0], &en[1]);
        let v1 = if mentions_log_query(&viol[1]) {
            self.c.ff()
        } else {
            viol[1].clone()
        };
        let either = self.c.or(&viol[0], &v1);
        let v = self.c.and(&reached, &either);
        let ff = self.c.ff();
        self.annotation(pc, eff, &[v, ff])
    }

    pub(super) fn annotation(&mut self, pc: usize, sink: &str, en: &[T; 2]) -> R<()> {
        // An annotation over `s`'s access history is instantiated for `s` only (sound: `s`
        // ranges over every thread; dropping `t`'s instance only weakens an assumption).
        if std::env::var_os("WEFT_VERIFY_DEBUG").is_some() {
            eprintln!("annot {sink}: {:?} / {:?}", en[0], en[1]);
        }
        let en1 = if mentions_log_query(&en[1]) {
            self.c.ff()
        } else {
            en[1].clone()
        };
        let either = self.c.or(&en[0], &en1);
        if sink == ASSERT_SINK {
            self.add_check(CheckKind::Assert { pc }, either, vec![]);
        } else if sink == ASSUME_SINK {
            let n = self.c.not(&either);
            self.assumptions.push(n);
        } else if self.in_abstract > 0 && self.first_off_rec.is_some() {
            // Probe of a loop being cut: the hit condition becomes a user invariant.
            self.inv_hits.push((pc, either));
        } else if self.in_abstract > 0 {
            self.inv_hits.push((pc, either.clone()));
            self.add_check(CheckKind::Invariant { pc, entry: false }, either, vec![]);
        } else {
            self.add_check(CheckKind::Invariant { pc, entry: false }, either, vec![]);
        }
        Ok(())
    }

    pub fn add_check(&mut self, kind: CheckKind, viol: T, values: Vec<(String, T)>) {
        if viol.is_false() {
            return;
        }
        let mut parts = self.assumptions.clone();
        parts.push(viol);
        let cond = self.c.and_all(&parts);
        if cond.is_false() {
            return;
        }
        self.checks.push(Check { kind, cond, values });
    }
}
