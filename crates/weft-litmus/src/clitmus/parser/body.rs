//! Thread bodies of C11/OpenCL litmus tests: statements (blocks flattened, `for` turned into
//! `while`) and expressions by precedence climbing, as the surface tree that
//! [`super::super::lower`] turns into IR.

use weft_ir::{BinOp, UnOp};

use super::super::lexer::{Kind, Tok};
use super::super::{is_reserved, MAX_DEPTH};
use super::{mk_bin, Parser, SExpr, SStmt, R, SK};
use crate::diag::ParseError;

impl<'a> Parser<'a> {
    // ---- statements ----

    /// Parses a statement list that forms one IR nesting level (a branch or loop body).
    fn branch(&mut self) -> R<Vec<SStmt<'a>>> {
        self.enter_stmt()?;
        let mut out = Vec::new();
        if self.eat("{") {
            loop {
                if self.eat("}") {
                    break;
                }
                if self.peek().is_none() {
                    return Err(self.expected("`}`"));
                }
                self.stmt(&mut out)?;
            }
        } else {
            self.stmt(&mut out)?;
        }
        self.stmt_nest -= 1;
        Ok(out)
    }

    pub(super) fn stmt(&mut self, out: &mut Vec<SStmt<'a>>) -> R<()> {
        self.work()?;
        // Labels: `L: stmt` (iteratively, so `L1: L2: ...` cannot exhaust the stack).
        loop {
            let is_label = matches!(
                (self.peek(), self.peek_at(1)),
                (Some(a), Some(b)) if a.kind == Kind::Ident && b.is(":") && !is_reserved(a.text)
            );
            if !is_label {
                break;
            }
            self.work()?;
            let (name, span) = self.new_name("label")?;
            self.advance(1);
            out.push(SStmt::Label { name, span });
            if self.at("}") {
                return Ok(());
            }
        }
        let Some(t) = self.peek().copied() else {
            return Err(self.expected("a statement"));
        };
        let span = t.span();
        if t.is(";") {
            self.advance(1);
            return Ok(());
        }
        if t.is("{") {
            self.enter_stmt()?;
            self.advance(1);
            loop {
                if self.eat("}") {
                    break;
                }
                if self.peek().is_none() {
                    return Err(self.expected("`}`"));
                }
                self.stmt(out)?;
            }
            self.stmt_nest -= 1;
            return Ok(());
        }
        match t.ident() {
            Some("if") => {
                self.advance(1);
                self.expect("(")?;
                let cond = self.expr()?;
                self.expect(")")?;
                let then = self.branch()?;
                let els = if self.eat_ident("else") {
                    self.branch()?
                } else {
                    Vec::new()
                };
                out.push(SStmt::If {
                    cond,
                    then,
                    els,
                    span,
                });
                return Ok(());
            }
            Some("while") => {
                self.advance(1);
                self.expect("(")?;
                let cond = self.expr()?;
                self.expect(")")?;
                let body = self.branch()?;
                out.push(SStmt::While { cond, body, span });
                return Ok(());
            }
            Some("for") => {
                self.advance(1);
                self.expect("(")?;
                if !self.eat(";") {
                    self.simple(out, ";")?;
                }
                let cond = if self.at(";") {
                    SExpr::leaf(SK::Int(1), self.here())
                } else {
                    self.expr()?
                };
                self.expect(";")?;
                let mut step = Vec::new();
                if !self.eat(")") {
                    self.simple(&mut step, ")")?;
                }
                let mut body = self.branch()?;
                body.extend(step);
                out.push(SStmt::While { cond, body, span });
                return Ok(());
            }
            Some("return") => {
                self.advance(1);
                if !self.at(";") {
                    self.int("`;` or an integer after `return`")?;
                }
                self.expect(";")?;
                out.push(SStmt::Return(span));
                return Ok(());
            }
            Some(w @ ("do" | "goto" | "break" | "continue" | "switch" | "case" | "default")) => {
                return Err(ParseError::at(span, format!("`{w}` is not supported")));
            }
            Some("else") => return Err(ParseError::at(span, "`else` without `if`")),
            _ => {}
        }
        self.simple(out, ";")
    }

    /// A declaration, assignment or expression statement ending with `end`.
    fn simple(&mut self, out: &mut Vec<SStmt<'a>>, end: &str) -> R<()> {
        let start = self.here();
        if self.at_ident("volatile") || self.at_ident("const") || self.at_ident("static") {
            return Err(self.err("qualified register declarations are not supported"));
        }
        if let Some(ct) = self.ctype()? {
            if ct.atomic {
                return Err(ParseError::at(
                    start,
                    "atomic registers are not supported: atomics live in the initial state",
                ));
            }
            loop {
                if self.at("*") {
                    return Err(self.err("pointer registers are not supported"));
                }
                let (name, span) = self.new_name("register")?;
                let init = if self.eat("=") {
                    Some(self.expr()?)
                } else {
                    None
                };
                out.push(SStmt::Decl {
                    ty: ct.ty,
                    name,
                    span,
                    init,
                });
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(end)?;
            return Ok(());
        }
        let lhs = self.expr()?;
        let op_tok = self.peek().copied();
        let mut value = match op_tok.map(|t| t.kind) {
            Some(Kind::Punct("=")) => {
                self.advance(1);
                self.expr()?
            }
            Some(Kind::Punct(p)) if compound(p).is_some() || p == "++" || p == "--" => {
                self.advance(1);
                let op_span = op_tok.map_or(start, |t| t.span());
                let (op, rhs) = match compound(p) {
                    Some(op) => (op, self.expr()?),
                    None => (
                        if p == "++" { BinOp::Add } else { BinOp::Sub },
                        SExpr::leaf(SK::Int(1), op_span),
                    ),
                };
                mk_bin(op, lhs.clone(), rhs, op_span)?
            }
            _ => {
                self.expect(end)?;
                out.push(SStmt::Expr(lhs));
                return Ok(());
            }
        };
        match lhs.kind {
            SK::Name(target) => out.push(SStmt::Assign {
                target,
                span: lhs.span,
                value: std::mem::replace(&mut value, SExpr::leaf(SK::Int(0), start)),
            }),
            SK::Deref(_) | SK::Index(..) => out.push(SStmt::Store {
                target: lhs,
                value,
                span: start,
            }),
            _ => {
                return Err(ParseError::at(
                    lhs.span,
                    "cannot assign to this expression: expected a register, `*p` or `p[i]`",
                ))
            }
        }
        self.expect(end)?;
        Ok(())
    }

    // ---- expressions ----

    fn expr(&mut self) -> R<SExpr<'a>> {
        self.binary(1)
    }

    fn binary(&mut self, min: u8) -> R<SExpr<'a>> {
        let mut lhs = self.unary()?;
        while let Some((op, prec)) = self.peek().and_then(binop) {
            if prec < min {
                break;
            }
            let op_span = self.here();
            self.work()?;
            self.advance(1);
            let rhs = self.binary(prec + 1)?;
            lhs = mk_bin(op, lhs, rhs, op_span)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self) -> R<SExpr<'a>> {
        let Some(t) = self.peek().copied() else {
            return Err(self.expected("an expression"));
        };
        let op =
            match t.kind {
                Kind::Punct("-") => Some(0u8),
                Kind::Punct("!") => Some(1),
                Kind::Punct("~") => Some(2),
                Kind::Punct("*") => Some(3),
                Kind::Punct("+") => Some(4),
                Kind::Punct("&") => return Err(ParseError::at(
                    t.span(),
                    "`&` (address-of) is not supported in thread code; pass pointers as parameters",
                )),
                Kind::Punct(p @ ("++" | "--")) => {
                    return Err(ParseError::at(
                        t.span(),
                        format!("prefix `{p}` is not supported; write `r = r + 1;`"),
                    ))
                }
                _ => None,
            };
        let Some(op) = op else {
            return self.postfix();
        };
        self.work()?;
        self.enter_expr()?;
        self.advance(1);
        let a = self.unary()?;
        self.expr_nest -= 1;
        if op == 4 {
            return Ok(a);
        }
        let depth = a.depth + 1;
        if depth > MAX_DEPTH {
            return Err(ParseError::at(
                t.span(),
                format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
            ));
        }
        let kind = match op {
            0 => SK::Un(UnOp::Neg, Box::new(a)),
            1 => SK::Un(UnOp::LNot, Box::new(a)),
            2 => SK::Un(UnOp::Not, Box::new(a)),
            _ => SK::Deref(Box::new(a)),
        };
        Ok(SExpr {
            kind,
            span: t.span(),
            depth,
        })
    }

    fn postfix(&mut self) -> R<SExpr<'a>> {
        let mut e = self.primary()?;
        while self.at("[") {
            let s = self.here();
            self.enter_expr()?;
            self.advance(1);
            let idx = self.expr()?;
            self.expect("]")?;
            self.expr_nest -= 1;
            let depth = e.depth.max(idx.depth) + 1;
            if depth > MAX_DEPTH {
                return Err(ParseError::at(
                    s,
                    format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
                ));
            }
            let span = e.span;
            e = SExpr {
                kind: SK::Index(Box::new(e), Box::new(idx)),
                span,
                depth,
            };
        }
        Ok(e)
    }

    fn primary(&mut self) -> R<SExpr<'a>> {
        self.work()?;
        let Some(t) = self.peek().copied() else {
            return Err(self.expected("an expression"));
        };
        match t.kind {
            Kind::Int(n) => {
                self.advance(1);
                Ok(SExpr::leaf(SK::Int(n), t.span()))
            }
            Kind::Ident => {
                self.advance(1);
                if !self.at("(") {
                    return Ok(SExpr::leaf(SK::Name(t.text), t.span()));
                }
                self.enter_expr()?;
                self.advance(1);
                let mut args = Vec::new();
                let mut depth = 1;
                if !self.at(")") {
                    loop {
                        let a = self.expr()?;
                        depth = depth.max(a.depth + 1);
                        args.push(a);
                        if !self.eat(",") {
                            break;
                        }
                    }
                }
                let close = self.here();
                if !self.at(")") {
                    return Err(self.expected(&format!("`,` or `)` in the call to `{}`", t.text)));
                }
                self.advance(1);
                self.expr_nest -= 1;
                if depth > MAX_DEPTH {
                    return Err(ParseError::at(
                        t.span(),
                        format!("expression nested too deeply (more than {MAX_DEPTH} levels)"),
                    ));
                }
                Ok(SExpr {
                    kind: SK::Call {
                        name: t.text,
                        args,
                        close,
                    },
                    span: t.span(),
                    depth,
                })
            }
            Kind::Punct("(") => {
                self.enter_expr()?;
                self.advance(1);
                let e = self.expr()?;
                self.expect(")")?;
                self.expr_nest -= 1;
                Ok(e)
            }
            _ => Err(self.expected("an expression")),
        }
    }
}

fn binop(t: &Tok) -> Option<(BinOp, u8)> {
    let Kind::Punct(p) = t.kind else { return None };
    Some(match p {
        "||" => (BinOp::LOr, 1),
        "&&" => (BinOp::LAnd, 2),
        "|" => (BinOp::Or, 3),
        "^" => (BinOp::Xor, 4),
        "&" => (BinOp::And, 5),
        "==" => (BinOp::Eq, 6),
        "!=" => (BinOp::Ne, 6),
        "<" => (BinOp::Lt, 7),
        "<=" => (BinOp::Le, 7),
        ">" => (BinOp::Gt, 7),
        ">=" => (BinOp::Ge, 7),
        "<<" => (BinOp::Shl, 8),
        ">>" => (BinOp::Shr, 8),
        "+" => (BinOp::Add, 9),
        "-" => (BinOp::Sub, 9),
        "*" => (BinOp::Mul, 10),
        "/" => (BinOp::Div, 10),
        "%" => (BinOp::Rem, 10),
        _ => return None,
    })
}

fn compound(p: &str) -> Option<BinOp> {
    Some(match p {
        "+=" => BinOp::Add,
        "-=" => BinOp::Sub,
        "|=" => BinOp::Or,
        "&=" => BinOp::And,
        "^=" => BinOp::Xor,
        _ => return None,
    })
}
