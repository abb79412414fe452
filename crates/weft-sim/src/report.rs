//! What `weft sim` prints besides herd7's block: the JSON of a result and the note lines
//! herd has none for (product form, cut traces, faults, hangs, incomplete enumeration,
//! timeouts, undefined executions).

use std::path::Path;

use crate::SimResult;

/// The result of simulating the test at `path` as `weft sim --json` prints it (one object
/// per test; keys sorted).
pub fn to_json(path: &Path, r: &SimResult) -> serde_json::Value {
    let states: Vec<serde_json::Value> = r
        .states
        .iter()
        .map(|(vals, info)| {
            let m: serde_json::Map<String, serde_json::Value> = r
                .columns
                .iter()
                .zip(vals)
                .map(|(c, v)| (c.clone(), serde_json::Value::String(v.clone())))
                .collect();
            serde_json::json!({
                "values": m,
                "executions": info.executions,
                "satisfies": info.satisfies,
            })
        })
        .collect();
    // Exact counts past u64 are written as strings.
    let big = |n: u128| match u64::try_from(n) {
        Ok(v) => serde_json::json!(v),
        Err(_) => serde_json::json!(n.to_string()),
    };
    let terms: Vec<serde_json::Value> = r
        .terms
        .iter()
        .map(|t| {
            let groups: Vec<serde_json::Value> = t
                .groups
                .iter()
                .map(|(cols, tuples)| {
                    let names: Vec<&str> = cols
                        .iter()
                        .filter_map(|&c| r.columns.get(c).map(String::as_str))
                        .collect();
                    serde_json::json!({ "columns": names, "values": tuples })
                })
                .collect();
            serde_json::json!({ "groups": groups, "states": big(t.states()) })
        })
        .collect();
    serde_json::json!({
        "path": path,
        "name": r.name,
        "kind": r.kind(),
        "states": states,
        "state_count": big(r.state_count()),
        "terms": terms,
        "validated": r.validated,
        "positive": r.positive,
        "negative": r.negative,
        "observation": r.observation(),
        "flags": r.flags,
        "candidates": r.candidates,
        "pruned": r.pruned,
        "filtered": r.filtered,
        "consistent": r.consistent,
        "undefined": r.undefined,
        "undefined_by": r.undefined_by,
        "assert_failed": r.assert_failed,
        "cut_traces": r.cut_traces,
        "fault_traces": r.fault_traces,
        "hung": r.hung_skeletons,
        "hang": r.hang_message,
        "converged": r.converged,
        "truncated": r.truncated,
        "stopped_at_verdict": r.stopped_at_verdict,
        "timed_out": r.timed_out,
        "memory_limit": r.memory_limited,
        "seconds": r.seconds,
    })
}

/// Notes herd has no line for: incomplete enumeration, undefined executions.
pub fn notes(r: &SimResult, unroll: u32, max_states: u64) -> String {
    let mut s = String::new();
    if !r.terms.is_empty() {
        let in_terms = r
            .terms
            .iter()
            .fold(0u128, |acc, t| acc.saturating_add(t.states()));
        s += &format!(
            "Products {} {} lines list {in_terms} of the {} states in product form (more than --max-states {max_states}; `c∈{{a,b}}`: any of the values, every combination)\n",
            r.name,
            r.terms.len(),
            r.state_count()
        );
    }
    if r.cut_traces > 0 {
        s += &format!(
            "Cut {} {} thread traces cut by the unroll bound ({unroll})\n",
            r.name, r.cut_traces
        );
    }
    if r.fault_traces > 0 {
        s += &format!(
            "Faults {} {} ({})\n",
            r.name,
            r.fault_traces,
            r.fault_message.clone().unwrap_or_default()
        );
    }
    if r.hung_skeletons > 0 {
        s += &format!(
            "Hang {} {} trace combinations never pass their barriers ({})\n",
            r.name,
            r.hung_skeletons,
            r.hang_message.clone().unwrap_or_default()
        );
    }
    if !r.converged {
        s += &format!("Incomplete {} value domains did not converge\n", r.name);
    }
    if r.truncated {
        s += &format!("Incomplete {} candidate limit reached\n", r.name);
    }
    if r.stopped_at_verdict {
        s += &format!("Partial {} stopped once the verdict was known\n", r.name);
    }
    if r.timed_out {
        s += &format!(
            "Timeout {} stopped after {:.1} s: the states are incomplete\n",
            r.name, r.seconds
        );
    }
    if r.memory_limited {
        s += &format!(
            "MemoryLimit {} stopped after {:.1} s at the memory limit: the states are incomplete\n",
            r.name, r.seconds
        );
    }
    if r.undefined > 0 {
        s += &format!("Undefined {} {}\n", r.name, r.undefined);
    }
    s
}

/// `weft sim --json`: the array of [`to_json`] objects, pretty-printed; a test that could
/// not be simulated is `{"path", "error"}`.
pub fn json_array<'a>(
    results: impl Iterator<Item = (&'a Path, Result<&'a SimResult, &'a String>)>,
) -> Result<String, serde_json::Error> {
    let items: Vec<serde_json::Value> = results
        .map(|(path, r)| match r {
            Ok(res) => to_json(path, res),
            Err(e) => serde_json::json!({ "path": path, "error": e }),
        })
        .collect();
    serde_json::to_string_pretty(&items)
}
