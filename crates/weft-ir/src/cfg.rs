//! Control-flow graphs: any thread's code (structured `if`/`while`, labels and jumps, PTX
//! predicates) flattened into basic blocks of straight-line statements ending in a
//! terminator. Engines that step through code (simulator unrolling, model checker, SIMT
//! emulator) read this form.

use std::collections::HashMap;

use crate::code::{Expr, Guard, Stmt, StmtKind, UnOp};
use crate::validate::IrError;

/// Index of a block in [`Cfg::blocks`].
pub type BlockId = usize;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Terminator {
    Goto(BlockId),
    /// Go to `then_block` when `cond` is non-zero, else to `else_block`.
    Branch {
        cond: Expr,
        then_block: BlockId,
        else_block: BlockId,
    },
    /// The thread ends.
    Exit,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Straight-line statements: memory accesses, fences, barriers, assignments,
    /// assume/assert; never labels, jumps or structured statements, and never guarded.
    pub stmts: Vec<Stmt>,
    pub term: Terminator,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cfg {
    pub blocks: Vec<Block>,
    pub entry: BlockId,
}

enum Flat {
    Op(Stmt),
    Label(usize),
    Jump { target: usize, cond: Option<Expr> },
}

struct Flattener {
    out: Vec<Flat>,
    labels: HashMap<String, usize>,
    next_label: usize,
}

impl Flattener {
    fn fresh(&mut self) -> usize {
        self.next_label += 1;
        self.next_label - 1
    }

    fn named(&mut self, name: &str) -> usize {
        if let Some(l) = self.labels.get(name) {
            return *l;
        }
        let l = self.fresh();
        self.labels.insert(name.to_string(), l);
        l
    }

    fn guard_expr(g: Guard) -> Expr {
        if g.negated {
            Expr::un(UnOp::LNot, Expr::Reg(g.reg))
        } else {
            Expr::Reg(g.reg)
        }
    }

    fn code(&mut self, code: &[Stmt]) {
        for s in code {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        // A guarded jump folds its guard into its condition; any other guarded statement
        // is skipped over when the guard fails.
        if let (Some(g), StmtKind::Jump { target, cond }) = (s.guard, &s.kind) {
            let t = self.named(target);
            let ge = Self::guard_expr(g);
            let cond = match cond {
                Some(c) => Expr::bin(crate::code::BinOp::LAnd, ge, c.clone()),
                None => ge,
            };
            self.out.push(Flat::Jump {
                target: t,
                cond: Some(cond),
            });
            return;
        }
        let skip = s.guard.map(|g| {
            let l = self.fresh();
            let not = Expr::un(UnOp::LNot, Self::guard_expr(g));
            self.out.push(Flat::Jump {
                target: l,
                cond: Some(not),
            });
            l
        });
        match &s.kind {
            StmtKind::Label(name) => {
                let l = self.named(name);
                self.out.push(Flat::Label(l));
            }
            StmtKind::Jump { target, cond } => {
                let t = self.named(target);
                self.out.push(Flat::Jump {
                    target: t,
                    cond: cond.clone(),
                });
            }
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let (l_else, l_end) = (self.fresh(), self.fresh());
                let not = Expr::un(UnOp::LNot, cond.clone());
                self.out.push(Flat::Jump {
                    target: l_else,
                    cond: Some(not),
                });
                self.code(then_branch);
                self.out.push(Flat::Jump {
                    target: l_end,
                    cond: None,
                });
                self.out.push(Flat::Label(l_else));
                self.code(else_branch);
                self.out.push(Flat::Label(l_end));
            }
            StmtKind::While {
                prelude,
                cond,
                body,
            } => {
                let (l_head, l_end) = (self.fresh(), self.fresh());
                self.out.push(Flat::Label(l_head));
                self.code(prelude);
                let not = Expr::un(UnOp::LNot, cond.clone());
                self.out.push(Flat::Jump {
                    target: l_end,
                    cond: Some(not),
                });
                self.code(body);
                self.out.push(Flat::Jump {
                    target: l_head,
                    cond: None,
                });
                self.out.push(Flat::Label(l_end));
            }
            _ => {
                let mut plain = s.clone();
                plain.guard = None;
                self.out.push(Flat::Op(plain));
            }
        }
        if let Some(l) = skip {
            self.out.push(Flat::Label(l));
        }
    }
}

impl Cfg {
    /// Builds the CFG of a thread's code. Fails if a jump names a label that is not defined.
    pub fn build(code: &[Stmt]) -> Result<Cfg, IrError> {
        let mut f = Flattener {
            out: Vec::new(),
            labels: HashMap::new(),
            next_label: 0,
        };
        // Pre-register source labels so that their definitions are known.
        let mut defined = HashMap::new();
        crate::code::walk(code, &mut |s| {
            if let StmtKind::Label(n) = &s.kind {
                defined.insert(n.clone(), s.span);
            }
        });
        let mut undefined = None;
        crate::code::walk(code, &mut |s| {
            if let StmtKind::Jump { target, .. } = &s.kind {
                if !defined.contains_key(target) && undefined.is_none() {
                    undefined = Some((target.clone(), s.span));
                }
            }
        });
        if let Some((t, span)) = undefined {
            return Err(IrError::new(span, format!("jump to undefined label `{t}`")));
        }
        f.code(code);

        // Split into blocks: a new block starts at every label and after every jump.
        let mut blocks: Vec<Block> = vec![Block {
            stmts: Vec::new(),
            term: Terminator::Exit,
        }];
        let mut label_block: HashMap<usize, BlockId> = HashMap::new();
        let mut pending: Vec<(BlockId, usize, Option<Expr>)> = Vec::new();
        let mut open = true; // whether the last block falls through into the next one
        for item in f.out {
            match item {
                Flat::Op(s) => {
                    if !open {
                        blocks.push(Block {
                            stmts: Vec::new(),
                            term: Terminator::Exit,
                        });
                        open = true;
                    }
                    let stmts = &mut blocks.last_mut().expect("non-empty").stmts;
                    if let Some(u) = s.unseq {
                        // Unsequenced statements are operands of one expression: they
                        // share a block (no label or jump between them).
                        if (u.skip as usize).saturating_add(u.count as usize) > stmts.len() {
                            return Err(IrError::new(
                                s.span,
                                "statement unsequenced with statements outside its block",
                            ));
                        }
                    }
                    stmts.push(s);
                }
                Flat::Label(l) => {
                    let cur = blocks.len() - 1;
                    let reuse = open
                        && blocks[cur].stmts.is_empty()
                        && !label_block.values().any(|b| *b == cur)
                        && cur != 0;
                    let id = if reuse {
                        cur
                    } else {
                        blocks.push(Block {
                            stmts: Vec::new(),
                            term: Terminator::Exit,
                        });
                        let id = blocks.len() - 1;
                        if open {
                            blocks[cur].term = Terminator::Goto(id);
                        }
                        id
                    };
                    label_block.insert(l, id);
                    open = true;
                }
                Flat::Jump { target, cond } => {
                    if !open {
                        blocks.push(Block {
                            stmts: Vec::new(),
                            term: Terminator::Exit,
                        });
                    }
                    let cur = blocks.len() - 1;
                    pending.push((cur, target, cond.clone()));
                    if cond.is_some() {
                        // Fall through to a fresh block on the false edge.
                        blocks.push(Block {
                            stmts: Vec::new(),
                            term: Terminator::Exit,
                        });
                        open = true;
                    } else {
                        open = false;
                    }
                }
            }
        }
        for (b, target, cond) in pending {
            let t = *label_block.get(&target).expect("labels validated");
            blocks[b].term = match cond {
                Some(c) => Terminator::Branch {
                    cond: c,
                    then_block: t,
                    else_block: b + 1,
                },
                None => Terminator::Goto(t),
            };
        }
        Ok(Cfg { blocks, entry: 0 })
    }

    /// Successor blocks of `b`.
    pub fn successors(&self, b: BlockId) -> Vec<BlockId> {
        match &self.blocks[b].term {
            Terminator::Goto(t) => vec![*t],
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => vec![*then_block, *else_block],
            Terminator::Exit => vec![],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::code::{BinOp, Reg, StmtKind};
    use crate::span::Span;

    fn st(kind: StmtKind) -> Stmt {
        Stmt::new(kind, Span::default())
    }

    fn assign(r: u32, v: i64) -> Stmt {
        st(StmtKind::Assign {
            dst: Reg(r),
            value: Expr::Int(v),
        })
    }

    #[test]
    fn straight_line_is_one_block() {
        let cfg = Cfg::build(&[assign(0, 1), assign(1, 2)]).unwrap();
        assert_eq!(cfg.blocks.len(), 1);
        assert_eq!(cfg.blocks[0].stmts.len(), 2);
        assert_eq!(cfg.blocks[0].term, Terminator::Exit);
    }

    #[test]
    fn spin_loop_has_a_back_edge() {
        // LC00: r0 = 1; beq r0, 0, LC00; r1 = 2
        let code = vec![
            st(StmtKind::Label("LC00".into())),
            assign(0, 1),
            st(StmtKind::Jump {
                target: "LC00".into(),
                cond: Some(Expr::bin(BinOp::Eq, Expr::Reg(Reg(0)), Expr::Int(0))),
            }),
            assign(1, 2),
        ];
        let cfg = Cfg::build(&code).unwrap();
        let head = cfg.successors(cfg.entry)[0];
        assert_eq!(cfg.blocks[head].stmts.len(), 1);
        match &cfg.blocks[head].term {
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => {
                assert_eq!(*then_block, head);
                assert_eq!(cfg.blocks[*else_block].stmts.len(), 1);
            }
            t => panic!("expected a branch, got {t:?}"),
        }
    }

    #[test]
    fn guarded_statement_is_skipped_when_false() {
        let mut s = assign(1, 5);
        s.guard = Some(Guard {
            reg: Reg(0),
            negated: true,
        });
        let cfg = Cfg::build(&[s]).unwrap();
        match &cfg.blocks[0].term {
            Terminator::Branch {
                then_block,
                else_block,
                ..
            } => {
                assert_eq!(cfg.blocks[*else_block].stmts.len(), 1);
                assert!(cfg.blocks[*then_block].stmts.is_empty());
            }
            t => panic!("expected a branch, got {t:?}"),
        }
    }

    #[test]
    fn undefined_label_is_an_error() {
        let code = vec![st(StmtKind::Jump {
            target: "nowhere".into(),
            cond: None,
        })];
        assert!(Cfg::build(&code).is_err());
    }

    #[test]
    fn if_else_joins() {
        let code = vec![st(StmtKind::If {
            cond: Expr::Reg(Reg(0)),
            then_branch: vec![assign(1, 1)],
            else_branch: vec![assign(1, 2)],
        })];
        let cfg = Cfg::build(&code).unwrap();
        let total: usize = cfg.blocks.iter().map(|b| b.stmts.len()).sum();
        assert_eq!(total, 2);
        let exits = cfg
            .blocks
            .iter()
            .filter(|b| b.term == Terminator::Exit)
            .count();
        assert!(exits >= 1);
    }
}
