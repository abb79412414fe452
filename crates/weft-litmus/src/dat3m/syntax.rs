//! Spellings and rules shared by the Dat3M parser and printers: the two dialects, their
//! scope and order names, the identifier classes (registers are `r<digits>`, as in Dat3M's
//! grammars), and which combinations of annotations each memory instruction accepts. The
//! parser and the printers both call the `check_*` functions, so whatever one accepts the
//! other can write.

use weft_ir::{Arch, MemAttrs, Order, Proxy, Scope};

/// One of the two column-program dialects this module reads and writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Dialect {
    Ptx,
    Vulkan,
}

impl Dialect {
    pub(crate) fn arch(self) -> Arch {
        match self {
            Dialect::Ptx => Arch::Ptx,
            Dialect::Vulkan => Arch::Vulkan,
        }
    }

    /// The header keyword the printers write.
    pub(crate) fn header(self) -> &'static str {
        match self {
            Dialect::Ptx => "PTX",
            Dialect::Vulkan => "VULKAN",
        }
    }

    /// A scope (or placement level) by its dialect spelling.
    pub(crate) fn scope_by_name(self, s: &str) -> Option<Scope> {
        match self {
            Dialect::Ptx => weft_ptx::quals::scope_by_name(s),
            Dialect::Vulkan => Scope::from_vulkan(s),
        }
    }

    /// The dialect spelling of a scope, if it has one.
    pub(crate) fn scope_name(self, s: Scope) -> Option<&'static str> {
        match self {
            Dialect::Ptx => weft_ptx::quals::scope_name(s),
            Dialect::Vulkan => s.vulkan(),
        }
    }

    /// The scope names, for messages.
    pub(crate) fn scope_list(self) -> &'static str {
        match self {
            Dialect::Ptx => "cta, gpu, sys",
            Dialect::Vulkan => "sg, wg, qf, dv",
        }
    }

    /// An example thread declaration, for messages.
    pub(crate) fn thread_example(self) -> &'static str {
        match self {
            Dialect::Ptx => "`P0@cta 0,gpu 0`",
            Dialect::Vulkan => "`P0@sg 0,wg 0,qf 0`",
        }
    }
}

/// Words that start or structure the final condition; they cannot name locations or labels.
pub(crate) const KEYWORDS: [&str; 9] = [
    "exists",
    "forall",
    "filter",
    "locations",
    "not",
    "final",
    "with",
    "true",
    "false",
];

pub(crate) fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

/// `[A-Za-z_][A-Za-z0-9_]*`.
pub(crate) fn is_ident(s: &str) -> bool {
    let mut cs = s.bytes();
    matches!(cs.next(), Some(c) if c.is_ascii_alphabetic() || c == b'_')
        && cs.all(|c| c.is_ascii_alphanumeric() || c == b'_')
}

/// Registers are `r` followed by digits (Dat3M's `Register` token).
pub(crate) fn is_register(s: &str) -> bool {
    s.len() > 1 && s.starts_with('r') && s.bytes().skip(1).all(|c| c.is_ascii_digit())
}

pub(crate) fn is_location_name(s: &str) -> bool {
    is_ident(s) && !is_register(s) && !is_keyword(s)
}

pub(crate) fn is_label_name(s: &str) -> bool {
    is_ident(s) && !is_keyword(s)
}

/// The number of a canonical thread name `P<n>` (no leading zeros, fits in `u32`).
pub(crate) fn thread_number(s: &str) -> Option<u32> {
    let digits = s.strip_prefix('P')?;
    if digits.is_empty()
        || !digits.bytes().all(|c| c.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    digits.parse().ok()
}

/// A storage-class number `N` of `scN`/`semscN`: decimal, no leading zeros, at most 255.
pub(crate) fn class_number(s: &str) -> Option<u8> {
    if s.is_empty() || !s.bytes().all(|c| c.is_ascii_digit()) || (s.len() > 1 && s.starts_with('0'))
    {
        return None;
    }
    s.parse().ok()
}

/// PTX spelling of an access order (`volatile` is spelled as an order, as in the ISA).
pub(crate) fn ptx_order_name(order: Order, volatile: bool) -> Option<&'static str> {
    Some(match (order, volatile) {
        (Order::Plain, false) => "weak",
        (Order::Plain, true) => "volatile",
        (Order::Relaxed, false) => "relaxed",
        (Order::Acquire, false) => "acquire",
        (Order::Release, false) => "release",
        (Order::AcqRel, false) => "acq_rel",
        (Order::SeqCst, false) => "sc",
        _ => return None,
    })
}

/// Vulkan spelling of an order (`None` for the orders that have no qualifier).
pub(crate) fn vk_order_name(order: Order) -> Option<&'static str> {
    match order {
        Order::Acquire => Some("acq"),
        Order::Release => Some("rel"),
        Order::AcqRel => Some("acq_rel"),
        _ => None,
    }
}

/// The kinds of PTX memory instruction, for [`check_ptx`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PtxOp {
    Load,
    Store,
    /// `atom` (with a destination) and `red` (without).
    Rmw,
    /// `fence.sc` / `fence.acq_rel`.
    Fence,
}

/// Whether Dat3M's PTX dialect can spell these annotations on this instruction; the error
/// says why not.
pub(crate) fn check_ptx(op: PtxOp, a: &MemAttrs) -> Result<(), String> {
    if let Some(c) = a.cache {
        return Err(format!("cache operator `.{}`", c.name()));
    }
    if let Some(s) = a.space {
        return Err(format!("state space `.{}`", s.name()));
    }
    if a.ty.is_some() {
        return Err("a value type".into());
    }
    if !a.vulkan.is_empty() {
        return Err("Vulkan annotations".into());
    }
    let scoped = |a: &MemAttrs| match a.scope {
        Some(Scope::Cta | Scope::Gpu | Scope::System) => Ok(()),
        Some(s) => Err(format!("scope `{}`", s.name())),
        None => Err("a missing scope".to_string()),
    };
    match op {
        PtxOp::Load | PtxOp::Store => {
            let release = if op == PtxOp::Load {
                Order::Acquire
            } else {
                Order::Release
            };
            if op == PtxOp::Store && !matches!(a.proxy, Proxy::Generic | Proxy::Surface) {
                return Err(format!("a store through the {} proxy", a.proxy.name()));
            }
            match a.order {
                Order::Plain if a.scope.is_none() => Ok(()),
                Order::Plain => Err("a scope on a weak access".into()),
                o if (o == Order::Relaxed || o == release) && !a.volatile => scoped(a),
                o => Err(format!(
                    "a {} {}",
                    o.name(),
                    if op == PtxOp::Load { "load" } else { "store" }
                )),
            }
        }
        PtxOp::Rmw => {
            if !matches!(a.proxy, Proxy::Generic | Proxy::Surface) {
                return Err(format!("an atomic through the {} proxy", a.proxy.name()));
            }
            match a.order {
                Order::Relaxed | Order::Acquire | Order::Release | Order::AcqRel if !a.volatile => {
                    scoped(a)
                }
                o => Err(format!("a {} atomic", o.name())),
            }
        }
        PtxOp::Fence => {
            if a.proxy != Proxy::Generic || a.volatile {
                return Err("a proxy or volatile fence".into());
            }
            match a.order {
                Order::SeqCst | Order::AcqRel => scoped(a),
                o => Err(format!("a {} fence", o.name())),
            }
        }
    }
}

/// The kinds of Vulkan instruction that carry memory annotations, for [`check_vulkan`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VkOp {
    Load,
    Store,
    Rmw,
    Membar,
    Cbar,
}

/// Whether Dat3M's Vulkan dialect can spell these annotations on this instruction (the
/// Vulkan memory model's rules on av/vis, semantics and storage classes); the error says
/// why not. A `cbar` carries its scope in the barrier; its attributes repeat it when the
/// barrier has memory semantics.
pub(crate) fn check_vulkan(op: VkOp, a: &MemAttrs) -> Result<(), String> {
    if let Some(c) = a.cache {
        return Err(format!("cache operator `.{}`", c.name()));
    }
    if let Some(s) = a.space {
        return Err(format!("state space `.{}`", s.name()));
    }
    if a.ty.is_some() {
        return Err("a value type".into());
    }
    if a.volatile {
        return Err("a volatile access".into());
    }
    if a.proxy != Proxy::Generic {
        return Err(format!("the {} proxy", a.proxy.name()));
    }
    let v = &a.vulkan;
    if let Some(s) = a.scope {
        if Dialect::Vulkan.scope_name(s).is_none() {
            return Err(format!("scope `{}`", s.name()));
        }
    }
    if v.sem_classes.windows(2).any(|w| w[0] >= w[1]) {
        return Err("storage classes of the semantics must be ascending and distinct".into());
    }
    let has_sem = !v.sem_classes.is_empty() || v.sem_av || v.sem_vis;
    if has_sem && !matches!(a.order, Order::Acquire | Order::Release | Order::AcqRel) {
        return Err("`.semscN`/`.semav`/`.semvis` need `.acq`, `.rel` or `.acq_rel`".into());
    }
    if v.sem_av && !matches!(a.order, Order::Release | Order::AcqRel) {
        return Err("`.semav` needs `.rel` or `.acq_rel`".into());
    }
    if v.sem_vis && !matches!(a.order, Order::Acquire | Order::AcqRel) {
        return Err("`.semvis` needs `.acq` or `.acq_rel`".into());
    }
    match op {
        VkOp::Load | VkOp::Store | VkOp::Rmw => {
            if v.storage_class.is_none() {
                return Err("an access without a storage class `.scN`".into());
            }
            let atomic = a.order != Order::Plain;
            let allowed: &[Order] = match op {
                VkOp::Load => &[Order::Relaxed, Order::Acquire],
                VkOp::Store => &[Order::Relaxed, Order::Release],
                _ => &[
                    Order::Relaxed,
                    Order::Acquire,
                    Order::Release,
                    Order::AcqRel,
                ],
            };
            if op == VkOp::Rmw && !atomic {
                return Err("a non-atomic `rmw` (it needs `.atom`)".into());
            }
            if atomic && !allowed.contains(&a.order) {
                return Err(format!("a {} {}", a.order.name(), vk_op_word(op)));
            }
            if v.av && op != VkOp::Store {
                return Err("`.av` on a load (it is for stores)".into());
            }
            if v.vis && op != VkOp::Load {
                return Err("`.vis` on a store (it is for loads)".into());
            }
            if atomic && (v.av || v.vis) {
                return Err("`.av`/`.vis` on an atomic (use `.semav`/`.semvis`)".into());
            }
            let needs_scope = atomic || v.av || v.vis;
            match (needs_scope, a.scope.is_some()) {
                (true, false) => Err("an atomic, `.av` or `.vis` access without a scope".into()),
                (false, true) => Err("a scope on a non-atomic access without `.av`/`.vis`".into()),
                _ => Ok(()),
            }
        }
        VkOp::Membar | VkOp::Cbar => {
            if v.av || v.vis || v.nonpriv || v.storage_class.is_some() {
                return Err(format!(
                    "`.av`, `.vis`, `.nonpriv` or `.scN` on `{}`",
                    vk_op_word(op)
                ));
            }
            match a.order {
                Order::Acquire | Order::Release | Order::AcqRel => {
                    if a.scope.is_none() {
                        return Err(format!("a `{}` without a scope", vk_op_word(op)));
                    }
                    Ok(())
                }
                Order::Plain if op == VkOp::Cbar => {
                    if a.scope.is_some() {
                        return Err("a scope on a `cbar` without memory semantics".into());
                    }
                    Ok(())
                }
                o => Err(format!("a {} `{}`", o.name(), vk_op_word(op))),
            }
        }
    }
}

fn vk_op_word(op: VkOp) -> &'static str {
    match op {
        VkOp::Load => "load",
        VkOp::Store => "store",
        VkOp::Rmw => "rmw",
        VkOp::Membar => "membar",
        VkOp::Cbar => "cbar",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifier_classes() {
        assert!(
            is_register("r0") && is_register("r12") && !is_register("r") && !is_register("rd1")
        );
        assert!(is_location_name("rd1") && !is_location_name("r1") && !is_location_name("exists"));
        assert_eq!(thread_number("P12"), Some(12));
        assert_eq!(thread_number("P01"), None);
        assert_eq!(thread_number("T1"), None);
        assert_eq!(class_number("3"), Some(3));
        assert_eq!(class_number("01"), None);
        assert_eq!(class_number("256"), None);
    }

    #[test]
    fn vulkan_rules() {
        let mut a = MemAttrs::scoped(Order::Acquire, Scope::Cta);
        a.vulkan.storage_class = Some(0);
        a.vulkan.sem_classes = vec![0];
        assert!(check_vulkan(VkOp::Load, &a).is_ok());
        assert!(check_vulkan(VkOp::Store, &a).is_err());
        a.vulkan.sem_av = true;
        assert!(check_vulkan(VkOp::Load, &a).is_err());
    }
}
