//! A CUDA launch statement `kernel<<<grid, block>>>(args)` as the host writes it (`weft mc
//! --launch`), parsed into the kernel name, the geometry as `--grid`/`--block` take it, and
//! the arguments; [`LaunchCall::label`] is how a launch is named in reports.

/// A CUDA launch statement `kernel<<<GRID, BLOCK>>>(a, b, ...)` (`weft mc --launch`):
/// GRID and BLOCK are `N`, `dim3(X[,Y[,Z]])` or `(X[,Y[,Z]])`; each argument is a buffer
/// name (a `--buffer NAME=...`) or a scalar value, in the kernel's parameter order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchCall {
    pub kernel: String,
    /// `X[,Y[,Z]]`, as `--grid` and `--block` take them.
    pub grid: String,
    pub block: String,
    pub args: Vec<String>,
}

/// Splits `s` at the commas outside parentheses.
fn split_top(s: &str) -> Vec<String> {
    let (mut out, mut cur, mut depth) = (Vec::new(), String::new(), 0i32);
    for c in s.chars() {
        match c {
            '(' | '{' | '[' => depth += 1,
            ')' | '}' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(cur.trim().to_string());
                cur.clear();
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() || !out.is_empty() {
        out.push(cur.trim().to_string());
    }
    out
}

/// `N`, `dim3(X,Y)`, `(X,Y,Z)` → `X[,Y[,Z]]`.
fn dims(s: &str, what: &str, call: &str) -> Result<String, String> {
    let t = s.trim();
    let inner = t
        .strip_prefix("dim3")
        .unwrap_or(t)
        .trim()
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(t);
    let parts = split_top(inner);
    if parts.is_empty()
        || parts.len() > 3
        || parts
            .iter()
            .any(|p| p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()))
    {
        return Err(format!(
            "--launch {call}: the {what} `{t}` is not N, dim3(X,Y,Z) or (X,Y,Z) with numbers"
        ));
    }
    Ok(parts.join(","))
}

impl LaunchCall {
    /// Parses `kernel<<<grid, block>>>(args)` (a trailing `;` is allowed).
    pub fn parse(s: &str) -> Result<LaunchCall, String> {
        let t = s.trim().trim_end_matches(';').trim();
        let bad = || format!("--launch {t}: expected KERNEL<<<GRID, BLOCK>>>(ARG, ...)");
        let (name, rest) = t.split_once("<<<").ok_or_else(bad)?;
        let (geom, rest) = rest.split_once(">>>").ok_or_else(bad)?;
        let kernel = name.trim();
        if kernel.is_empty()
            || !kernel
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':')
        {
            return Err(format!("--launch {t}: `{kernel}` is not a kernel name"));
        }
        let g = split_top(geom);
        if g.len() != 2 {
            return Err(format!(
                "--launch {t}: give the grid and the block between <<< and >>> (no shared-memory size or stream)"
            ));
        }
        let args = rest
            .trim()
            .strip_prefix('(')
            .and_then(|x| x.strip_suffix(')'))
            .ok_or_else(bad)?;
        let args = split_top(args);
        if args.iter().any(|a| a.is_empty()) {
            return Err(format!("--launch {t}: an empty argument"));
        }
        Ok(LaunchCall {
            kernel: kernel.to_string(),
            grid: dims(&g[0], "grid", t)?,
            block: dims(&g[1], "block", t)?,
            args,
        })
    }

    /// How the launch is shown: `kernel<<<2,4>>>(buf, 16)`.
    pub fn label(&self) -> String {
        let d = |x: &str| {
            if x.contains(',') {
                format!("({x})")
            } else {
                x.to_string()
            }
        };
        format!(
            "{}<<<{},{}>>>({})",
            self.kernel,
            d(&self.grid),
            d(&self.block),
            self.args.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_calls() {
        let c = LaunchCall::parse(" produce<<<2, 4>>>(buf, 16);").unwrap();
        assert_eq!(c.kernel, "produce");
        assert_eq!((c.grid.as_str(), c.block.as_str()), ("2", "4"));
        assert_eq!(c.args, vec!["buf", "16"]);
        assert_eq!(c.label(), "produce<<<2,4>>>(buf, 16)");
        let c = LaunchCall::parse("k<<<dim3(2,2), (4,1,1)>>>()").unwrap();
        assert_eq!((c.grid.as_str(), c.block.as_str()), ("2,2", "4,1,1"));
        assert!(c.args.is_empty());
        assert_eq!(c.label(), "k<<<(2,2),(4,1,1)>>>()");
        for bad in [
            "k(buf)",
            "k<<<2>>>(buf)",
            "k<<<2,4,0>>>(buf)",
            "k<<<2,4>>>buf",
            "k<<<x,4>>>(buf)",
            "<<<2,4>>>(buf)",
            "k<<<2,4>>>(a,,b)",
            "k<<<dim3(1,2,3,4),4>>>(a)",
        ] {
            assert!(LaunchCall::parse(bad).is_err(), "{bad}");
        }
    }
}
