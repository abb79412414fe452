//! Printing the AST back to PTX text ([`std::fmt::Display`] on [`Module`], [`Instruction`],
//! [`Operand`]). Qualifiers come out in the order of the ISA's syntax lines (for example
//! `ld.acquire.gpu.global.u32`, `atom.acq_rel.sys.global.cas.b32`, `cvta.to.global.u64`),
//! so printing then parsing gives back the same tree.

use crate::ast::*;
use std::fmt::{self, Write};

/// Appends `opcode.qualifiers` for an instruction to `out`.
pub fn write_mnemonic(out: &mut String, op: Opcode, m: &Modifiers) {
    out.push_str(op.as_str());
    let mut q = |s: &str| out.push_str(s);
    if m.warp {
        q(".warp");
    }
    if let Some(s) = m.sem {
        q(s.as_str());
    }
    if let Some(s) = m.scope {
        q(if op == Opcode::Membar && s == Scope::Gpu {
            ".gl"
        } else {
            s.as_str()
        });
    }
    if m.to {
        q(".to");
    }
    if let Some(s) = m.space {
        q(s.as_str());
    }
    if m.sync {
        q(".sync");
    }
    if m.arrive {
        q(".arrive");
    }
    if m.red {
        q(".red");
    }
    if let Some(r) = m.bar_red {
        q(r.as_str());
    }
    if let Some(c) = m.cmp {
        q(c.as_str());
    }
    if let Some(b) = m.bool_op {
        q(b.as_str());
    }
    if let Some(x) = m.mul {
        q(x.as_str());
    }
    if let Some(x) = m.shfl {
        q(x.as_str());
    }
    if let Some(x) = m.vote {
        q(x.as_str());
    }
    if let Some(x) = m.shf_dir {
        q(x.as_str());
    }
    if let Some(x) = m.shf_mode {
        q(x.as_str());
    }
    if m.approx {
        q(".approx");
    }
    if m.full {
        q(".full");
    }
    if let Some(r) = m.rounding {
        q(r.as_str());
    }
    if m.ftz {
        q(".ftz");
    }
    if m.sat {
        q(".sat");
    }
    if m.cc {
        q(".cc");
    }
    if let Some(c) = m.cache {
        q(c.as_str());
    }
    if m.nc {
        q(".nc");
    }
    if let Some(a) = m.atom {
        q(a.as_str());
    }
    for h in &m.hints {
        q(h.as_str());
    }
    if m.aligned {
        q(".aligned");
    }
    if m.uni {
        q(".uni");
    }
    if let Some(v) = m.vector {
        q(v.as_str());
    }
    for t in &m.types {
        q(t.as_str());
    }
}

fn offset(f: &mut fmt::Formatter<'_>, off: i64) -> fmt::Result {
    if off != 0 {
        write!(f, "+{off}")?;
    }
    Ok(())
}

fn list<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, x) in items.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{x}")?;
    }
    Ok(())
}

fn float(f: &mut fmt::Formatter<'_>, v: f64) -> fmt::Result {
    // `{:?}` always includes a `.` or an exponent, so it lexes back as a float.
    write!(f, "{v:?}")
}

impl fmt::Display for SpecialReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use SpecialReg::*;
        let (name, dim) = match self {
            Tid(d) => ("%tid", Some(d)),
            Ntid(d) => ("%ntid", Some(d)),
            Ctaid(d) => ("%ctaid", Some(d)),
            Nctaid(d) => ("%nctaid", Some(d)),
            Laneid => ("%laneid", None),
            Warpid => ("%warpid", None),
            Nwarpid => ("%nwarpid", None),
            Smid => ("%smid", None),
            Nsmid => ("%nsmid", None),
            Gridid => ("%gridid", None),
            LanemaskEq => ("%lanemask_eq", None),
            LanemaskLe => ("%lanemask_le", None),
            LanemaskLt => ("%lanemask_lt", None),
            LanemaskGe => ("%lanemask_ge", None),
            LanemaskGt => ("%lanemask_gt", None),
            Clock => ("%clock", None),
            Clock64 => ("%clock64", None),
            Globaltimer => ("%globaltimer", None),
            DynamicSmemSize => ("%dynamic_smem_size", None),
            TotalSmemSize => ("%total_smem_size", None),
        };
        f.write_str(name)?;
        if let Some(d) = dim {
            f.write_str(d.as_str())?;
        }
        Ok(())
    }
}

impl fmt::Display for Operand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Operand::Reg(r) => f.write_str(r),
            Operand::Special(s) => write!(f, "{s}"),
            Operand::Int(v) => write!(f, "{v}"),
            Operand::F32(b) => write!(f, "0f{b:08X}"),
            Operand::F64(b) => write!(f, "0d{b:016X}"),
            Operand::Float(v) => float(f, *v),
            Operand::Symbol { name, offset: o } => {
                f.write_str(name)?;
                offset(f, *o)
            }
            Operand::Addr(a) => {
                f.write_char('[')?;
                match &a.base {
                    AddrBase::Reg(r) | AddrBase::Symbol(r) => f.write_str(r)?,
                    AddrBase::Absolute(v) => write!(f, "{v}")?,
                }
                offset(f, a.offset)?;
                f.write_char(']')
            }
            Operand::Vector(v) => {
                f.write_char('{')?;
                list(f, v)?;
                f.write_char('}')
            }
            Operand::Sink => f.write_char('_'),
            Operand::Not(o) => write!(f, "!{o}"),
            Operand::PredPair(a, b) => write!(f, "{a}|{b}"),
            Operand::List(v) => {
                f.write_char('(')?;
                list(f, v)?;
                f.write_char(')')
            }
        }
    }
}

impl fmt::Display for Instruction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(g) = &self.guard {
            write!(f, "@{}{} ", if g.negated { "!" } else { "" }, g.pred)?;
        }
        f.write_str(&self.mnemonic())?;
        if !self.operands.is_empty() {
            f.write_char('\t')?;
            list(f, &self.operands)?;
        }
        f.write_char(';')
    }
}

impl fmt::Display for Initializer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Initializer::Int(v) => write!(f, "{v}"),
            Initializer::F32(b) => write!(f, "0f{b:08X}"),
            Initializer::F64(b) => write!(f, "0d{b:016X}"),
            Initializer::Float(v) => float(f, *v),
            Initializer::Symbol {
                name,
                offset: o,
                generic,
            } => {
                if *generic {
                    write!(f, "generic({name}")?;
                    offset(f, *o)?;
                    f.write_char(')')
                } else {
                    f.write_str(name)?;
                    offset(f, *o)
                }
            }
            Initializer::List(v) => {
                f.write_char('{')?;
                list(f, v)?;
                f.write_char('}')
            }
        }
    }
}

fn dims(f: &mut fmt::Formatter<'_>, d: &[Option<u64>]) -> fmt::Result {
    for x in d {
        match x {
            Some(n) => write!(f, "[{n}]")?,
            None => f.write_str("[]")?,
        }
    }
    Ok(())
}

impl fmt::Display for Variable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.linkage {
            write!(f, "{} ", l.as_str())?;
        }
        write!(f, "{}", self.space)?;
        if let Some(a) = self.align {
            write!(f, " .align {a}")?;
        }
        if let Some(v) = self.vector {
            write!(f, " {v}")?;
        }
        write!(f, " {} {}", self.ty, self.name)?;
        dims(f, &self.dims)?;
        if let Some(i) = &self.init {
            write!(f, " = {i}")?;
        }
        f.write_char(';')
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.space)?;
        if let Some(a) = self.align {
            write!(f, " .align {a}")?;
        }
        if let Some(v) = self.vector {
            write!(f, " {v}")?;
        }
        write!(f, " {}", self.ty)?;
        if let Some(p) = &self.ptr {
            f.write_str(" .ptr")?;
            if let Some(s) = p.space {
                write!(f, " {s}")?;
            }
            if let Some(a) = p.align {
                write!(f, " .align {a}")?;
            }
        }
        write!(f, " {}", self.name)?;
        dims(f, &self.dims)
    }
}

fn strings(f: &mut fmt::Formatter<'_>, v: &[String]) -> fmt::Result {
    for (i, s) in v.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(
            f,
            "\"{}\"",
            s.replace('\\', "\\\\")
                .replace('"', "\\\"")
                .replace('\n', "\\n")
        )?;
    }
    Ok(())
}

fn statements(f: &mut fmt::Formatter<'_>, body: &[Statement], indent: usize) -> fmt::Result {
    let pad = "\t".repeat(indent);
    for s in body {
        match s {
            Statement::Reg(r) => {
                write!(f, "{pad}.reg")?;
                if let Some(a) = r.align {
                    write!(f, " .align {a}")?;
                }
                if let Some(v) = r.vector {
                    write!(f, " {v}")?;
                }
                write!(f, " {} ", r.ty)?;
                for (i, n) in r.names.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    f.write_str(&n.name)?;
                    if let Some(c) = n.count {
                        write!(f, "<{c}>")?;
                    }
                }
                writeln!(f, ";")?;
            }
            Statement::Var(v) => writeln!(f, "{pad}{v}")?,
            Statement::Label { name, .. } => writeln!(f, "{name}:")?,
            Statement::Instr(i) => writeln!(f, "{pad}{i}")?,
            Statement::Block { body, .. } => {
                writeln!(f, "{pad}{{")?;
                statements(f, body, indent + 1)?;
                writeln!(f, "{pad}}}")?;
            }
            Statement::CallPrototype { text, .. } => writeln!(f, "{pad}.callprototype {text};")?,
            Statement::Pragma { values, .. } => {
                write!(f, "{pad}.pragma ")?;
                strings(f, values)?;
                writeln!(f, ";")?;
            }
            Statement::Loc {
                file, line, col, ..
            } => writeln!(f, "{pad}.loc {file} {line} {col}")?,
        }
    }
    Ok(())
}

fn u32s(v: &[u32]) -> String {
    v.iter()
        .map(|x| x.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(l) = self.linkage {
            write!(f, "{} ", l.as_str())?;
        }
        f.write_str(match self.kind {
            FunctionKind::Entry => ".entry",
            FunctionKind::Func => ".func",
        })?;
        if !self.returns.is_empty() {
            f.write_str(" (")?;
            list(f, &self.returns)?;
            f.write_char(')')?;
        }
        write!(f, " {}", self.name)?;
        if !self.params.is_empty() {
            f.write_str("(\n")?;
            for (i, p) in self.params.iter().enumerate() {
                write!(f, "\t{p}")?;
                f.write_str(if i + 1 < self.params.len() {
                    ",\n"
                } else {
                    "\n"
                })?;
            }
            f.write_char(')')?;
        } else if self.kind == FunctionKind::Entry {
            f.write_str("()")?;
        }
        for d in &self.directives {
            match d {
                FunctionDirective::Maxntid(v) => write!(f, "\n.maxntid {}", u32s(v))?,
                FunctionDirective::Reqntid(v) => write!(f, "\n.reqntid {}", u32s(v))?,
                FunctionDirective::Minnctapersm(n) => write!(f, "\n.minnctapersm {n}")?,
                FunctionDirective::Maxnctapersm(n) => write!(f, "\n.maxnctapersm {n}")?,
                FunctionDirective::Maxnreg(n) => write!(f, "\n.maxnreg {n}")?,
                FunctionDirective::Noreturn => f.write_str("\n.noreturn")?,
                FunctionDirective::Pragma(v) => {
                    f.write_str("\n.pragma ")?;
                    strings(f, v)?;
                    f.write_char(';')?;
                }
            }
        }
        match &self.body {
            None => f.write_str(";\n"),
            Some(b) => {
                f.write_str("\n{\n")?;
                statements(f, b, 1)?;
                f.write_str("}\n")
            }
        }
    }
}

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(v) = self.version {
            writeln!(f, ".version {}.{}", v.major, v.minor)?;
        }
        if !self.target.is_empty() {
            writeln!(f, ".target {}", self.target.join(", "))?;
        }
        if let Some(a) = self.address_size {
            writeln!(f, ".address_size {a}")?;
        }
        for item in &self.items {
            f.write_char('\n')?;
            match item {
                Item::Function(func) => write!(f, "{func}")?,
                Item::Variable(v) => writeln!(f, "{v}")?,
                Item::File { index, path, .. } => {
                    write!(f, ".file {index} ")?;
                    strings(f, std::slice::from_ref(path))?;
                    f.write_char('\n')?;
                }
                Item::Pragma { values, .. } => {
                    f.write_str(".pragma ")?;
                    strings(f, values)?;
                    f.write_str(";\n")?;
                }
            }
        }
        Ok(())
    }
}
