//! Well-formedness of programs: every register, location, thread and label a program
//! mentions exists, aliases are acyclic, read-modify-writes have their operands. Front-ends
//! build valid programs; this check guards programs that arrive as JSON IR.

use std::collections::HashSet;

use crate::code::{walk, Expr, Reg, Stmt, StmtKind};
use crate::cond::{Prop, Term};
use crate::program::{LocId, Program, Thread, Value};
use crate::span::Span;

/// A structural error in a program, with the position of the offending node.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{span}: {message}")]
pub struct IrError {
    pub span: Span,
    pub message: String,
}

impl IrError {
    pub fn new(span: Span, message: impl Into<String>) -> Self {
        IrError {
            span,
            message: message.into(),
        }
    }
}

impl From<IrError> for weft_diag::Diagnostic {
    fn from(e: IrError) -> Self {
        weft_diag::Diagnostic::at(e.span, e.message)
    }
}

impl Program {
    /// Checks that the program is well formed.
    pub fn validate(&self) -> Result<(), IrError> {
        self.check_locations()?;
        self.check_alias_chains()?;
        let mut tnames = HashSet::new();
        for t in &self.threads {
            if !tnames.insert(t.name.as_str()) {
                return Err(IrError::new(
                    Span::default(),
                    format!("thread `{}` declared twice", t.name),
                ));
            }
            self.check_thread(t)?;
        }
        for r in &self.relations {
            if r.from >= self.threads.len() || r.to >= self.threads.len() {
                return Err(IrError::new(
                    Span::default(),
                    format!("relation `{}` names an unknown thread", r.name),
                ));
            }
        }
        let mut terms: Vec<&Term> = Vec::new();
        if let Some(c) = &self.condition {
            c.prop.terms(&mut terms);
        }
        if let Some(f) = &self.filter {
            f.terms(&mut terms);
        }
        terms.extend(self.observed.iter());
        for term in terms {
            self.check_term(term)?;
        }
        Ok(())
    }

    /// Location names are distinct, aliases and initial addresses name locations, no
    /// location is empty.
    fn check_locations(&self) -> Result<(), IrError> {
        let nloc = self.locations.len();
        let loc_ok = |l: LocId| l.index() < nloc;
        let mut names = HashSet::new();
        for l in &self.locations {
            if !names.insert(l.name.as_str()) {
                return Err(IrError::new(
                    l.span,
                    format!("location `{}` declared twice", l.name),
                ));
            }
            if let Some(a) = &l.alias {
                if !loc_ok(a.of) {
                    return Err(IrError::new(
                        l.span,
                        format!("`{}` aliases an unknown location", l.name),
                    ));
                }
            }
            if let Value::Addr(a) = l.init {
                if !loc_ok(a) {
                    return Err(IrError::new(
                        l.span,
                        format!("`{}` initialised to an unknown address", l.name),
                    ));
                }
            }
            if l.size == 0 {
                return Err(IrError::new(
                    l.span,
                    format!("location `{}` has size 0", l.name),
                ));
            }
        }
        Ok(())
    }

    /// Alias chains must end. Each location is resolved once (memoised), so the check is
    /// linear in the number of locations even for long chains.
    fn check_alias_chains(&self) -> Result<(), IrError> {
        let nloc = self.locations.len();
        let mut state = vec![0u8; nloc]; // 0 unvisited, 1 on the current path, 2 known to end
        for i in 0..nloc {
            let mut path = Vec::new();
            let mut cur = i;
            loop {
                match state[cur] {
                    2 => break,
                    1 => {
                        let l = &self.locations[i];
                        return Err(IrError::new(
                            l.span,
                            format!("alias cycle through `{}`", l.name),
                        ));
                    }
                    _ => {}
                }
                state[cur] = 1;
                path.push(cur);
                match &self.locations[cur].alias {
                    Some(a) => cur = a.of.index(),
                    None => break,
                }
            }
            for k in path {
                state[k] = 2;
            }
        }
        Ok(())
    }

    /// One thread: its registers, parameters, labels, and every statement's registers,
    /// locations, operands and jump targets.
    fn check_thread(&self, t: &Thread) -> Result<(), IrError> {
        let nloc = self.locations.len();
        let loc_ok = |l: LocId| l.index() < nloc;
        let mut rnames = HashSet::new();
        for r in &t.regs {
            if !rnames.insert(r.name.as_str()) {
                return Err(IrError::new(
                    Span::default(),
                    format!("register `{}` declared twice in {}", r.name, t.name),
                ));
            }
            if let Some(Value::Addr(a)) = r.init {
                if !loc_ok(a) {
                    return Err(IrError::new(
                        Span::default(),
                        format!("{}:{} initialised to an unknown address", t.name, r.name),
                    ));
                }
            }
        }
        for p in &t.params {
            if !loc_ok(p.loc) {
                return Err(IrError::new(
                    Span::default(),
                    format!("parameter `{}` of {} names no location", p.name, t.name),
                ));
            }
        }
        let mut labels: HashSet<&str> = HashSet::new();
        let mut err: Option<IrError> = None;
        walk(&t.code, &mut |s| {
            if err.is_some() {
                return;
            }
            if let StmtKind::Label(l) = &s.kind {
                if !labels.insert(l.as_str()) {
                    err = Some(IrError::new(s.span, format!("label `{l}` defined twice")));
                }
            }
        });
        walk(&t.code, &mut |s| {
            if err.is_none() {
                err = check_stmt(s, t, &labels, nloc);
            }
        });
        match err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn check_term(&self, term: &Term) -> Result<(), IrError> {
        match term {
            Term::Reg { thread, reg } => {
                let t = self.threads.get(*thread).ok_or_else(|| {
                    IrError::new(
                        Span::default(),
                        format!("condition names unknown thread {thread}"),
                    )
                })?;
                if reg.index() >= t.regs.len() {
                    return Err(IrError::new(
                        Span::default(),
                        format!("condition names unknown register of {}", t.name),
                    ));
                }
            }
            Term::Mem { loc, index } => {
                let l = self.locations.get(loc.index()).ok_or_else(|| {
                    IrError::new(Span::default(), "condition names an unknown location")
                })?;
                if *index >= l.size {
                    return Err(IrError::new(
                        Span::default(),
                        format!("index {index} out of bounds for `{}`", l.name),
                    ));
                }
            }
            Term::Addr(loc) => {
                if loc.index() >= self.locations.len() {
                    return Err(IrError::new(
                        Span::default(),
                        "condition names an unknown location",
                    ));
                }
            }
            Term::Int(_) => {}
        }
        Ok(())
    }
}

/// One statement of thread `t`: the last problem found in it (a later check overrides an
/// earlier one, as they are checked in order).
fn check_stmt(s: &Stmt, t: &Thread, labels: &HashSet<&str>, nloc: usize) -> Option<IrError> {
    let nreg = t.regs.len();
    let mut err = None;
    let mut exprs: Vec<&Expr> = Vec::new();
    let mut regs: Vec<Reg> = Vec::new();
    if let Some(g) = s.guard {
        regs.push(g.reg);
    }
    match &s.kind {
        StmtKind::Load(l) => {
            regs.push(l.dst);
            exprs.push(&l.addr);
        }
        StmtKind::Store(st) => {
            exprs.push(&st.addr);
            exprs.push(&st.value);
        }
        StmtKind::Rmw(r) => {
            regs.extend(r.dst);
            exprs.push(&r.addr);
            exprs.extend(r.args.iter());
            if r.args.len() != r.op.arity() {
                err = Some(IrError::new(
                    s.span,
                    format!(
                        "`{}` takes {} operand(s), got {}",
                        r.op.name(),
                        r.op.arity(),
                        r.args.len()
                    ),
                ));
            }
        }
        StmtKind::Barrier(b) => {
            exprs.push(&b.id);
            exprs.extend(b.operands.iter());
        }
        StmtKind::Assign { dst, value } => {
            regs.push(*dst);
            exprs.push(value);
        }
        StmtKind::Jump { target, cond } => {
            exprs.extend(cond.iter());
            if !labels.contains(target.as_str()) {
                err = Some(IrError::new(
                    s.span,
                    format!("jump to undefined label `{target}`"),
                ));
            }
        }
        StmtKind::If { cond, .. } | StmtKind::While { cond, .. } => exprs.push(cond),
        StmtKind::Assume(e) | StmtKind::Assert(e) => exprs.push(e),
        StmtKind::Fence(_) | StmtKind::Label(_) => {}
    }
    for e in exprs {
        e.regs(&mut regs);
        if let Some(l) = first_bad_addr(e, nloc) {
            err = Some(IrError::new(s.span, format!("unknown location #{}", l.0)));
        }
    }
    if let Some(r) = regs.iter().find(|r| r.index() >= nreg) {
        err = Some(IrError::new(
            s.span,
            format!("unknown register #{} in {}", r.0, t.name),
        ));
    }
    err
}

fn first_bad_addr(e: &Expr, nloc: usize) -> Option<LocId> {
    match e {
        Expr::Addr(l) if l.index() >= nloc => Some(*l),
        Expr::Un(_, a) => first_bad_addr(a, nloc),
        Expr::Bin(_, a, b) => first_bad_addr(a, nloc).or_else(|| first_bad_addr(b, nloc)),
        _ => None,
    }
}

/// Convenience for callers that only need to know whether a proposition mentions memory.
pub fn mentions_memory(p: &Prop) -> bool {
    let mut terms = Vec::new();
    p.terms(&mut terms);
    terms.iter().any(|t| matches!(t, Term::Mem { .. }))
}

#[cfg(test)]
mod tests {
    use crate::program::{Alias, Arch, LocId, Location, Program, Thread};
    use crate::{Span, Stmt, StmtKind};

    fn prog() -> Program {
        let mut p = Program::new(Arch::Ptx, "t");
        p.locations = vec![Location::scalar("x", 0), Location::scalar("y", 0)];
        p.threads.push(Thread::new("P0"));
        p
    }

    #[test]
    fn alias_cycles_are_rejected_and_chains_accepted() {
        let mut p = prog();
        p.locations[1].alias = Some(Alias {
            of: LocId(0),
            proxy: None,
        });
        assert!(p.validate().is_ok());
        assert_eq!(p.storage_of(LocId(1)), LocId(0));
        p.locations[0].alias = Some(Alias {
            of: LocId(1),
            proxy: None,
        });
        let e = p.validate().unwrap_err();
        assert!(e.message.contains("alias cycle"), "{e}");
    }

    #[test]
    fn long_alias_chain_validates_quickly() {
        let mut p = prog();
        p.locations.clear();
        for i in 0..100_000u32 {
            let mut l = Location::scalar(format!("l{i}"), 0);
            if i > 0 {
                l.alias = Some(Alias {
                    of: LocId(i - 1),
                    proxy: None,
                });
            }
            p.locations.push(l);
        }
        let t = std::time::Instant::now();
        assert!(p.validate().is_ok());
        assert!(t.elapsed().as_secs() < 2, "{:?}", t.elapsed());
    }

    #[test]
    fn duplicate_labels_and_undefined_jumps_are_rejected() {
        let mut p = prog();
        let l = |n: &str| Stmt::new(StmtKind::Label(n.into()), Span::new(3, 1));
        p.threads[0].code = vec![l("L"), l("L")];
        assert!(p.validate().unwrap_err().message.contains("defined twice"));
        p.threads[0].code = vec![Stmt::new(
            StmtKind::Jump {
                target: "M".into(),
                cond: None,
            },
            Span::new(4, 2),
        )];
        let e = p.validate().unwrap_err();
        assert_eq!((e.span.line, e.span.col), (4, 2));
    }
}
