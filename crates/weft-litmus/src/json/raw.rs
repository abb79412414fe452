//! The serde form of a JSON litmus test as read: tests, locations, threads, registers,
//! placements, actions and postconditions, with serde's own type and field checks.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "a test object"
)]
pub(super) struct RawTest {
    pub(super) test_name: String,
    #[serde(default)]
    pub(super) doc: Vec<String>,
    /// herd/diy7 `key=value` metadata, as `[key, value]` pairs in order.
    #[serde(default)]
    pub(super) meta: Vec<(String, String)>,
    #[serde(default)]
    pub(super) test_type: Option<String>,
    #[serde(default)]
    pub(super) memory_type: Option<String>,
    /// Older GPUHarbor configs: `sameWorkgroup: true` is `intra_workgroup`.
    #[serde(default)]
    pub(super) same_workgroup: Option<bool>,
    /// Older GPUHarbor configs: `workgroupMemory: true` is `atomic_workgroup`.
    #[serde(default)]
    pub(super) workgroup_memory: Option<bool>,
    #[serde(default)]
    pub(super) memory: Vec<RawLocation>,
    pub(super) threads: Vec<RawThread>,
    #[serde(default)]
    pub(super) behaviors: BTreeMap<String, RawCond>,
    #[serde(default)]
    pub(super) condition: Option<RawCondition>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a memory location object")]
pub(super) struct RawLocation {
    pub(super) name: String,
    #[serde(default)]
    pub(super) init: i64,
    #[serde(default)]
    pub(super) space: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a thread object")]
pub(super) struct RawThread {
    #[serde(default)]
    pub(super) name: Option<String>,
    #[serde(default)]
    pub(super) placement: Option<RawPlacement>,
    #[serde(default)]
    pub(super) registers: Vec<RawRegister>,
    pub(super) actions: Vec<RawAction>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields, expecting = "a register object")]
pub(super) struct RawRegister {
    pub(super) name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) init: Option<i64>,
}

#[derive(Deserialize, Serialize, Default, PartialEq, Eq)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "a placement object"
)]
pub(super) struct RawPlacement {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) subgroup: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) workgroup: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) queue_family: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) device: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) system: Option<u32>,
}

#[derive(Deserialize)]
#[serde(
    deny_unknown_fields,
    rename_all = "camelCase",
    expecting = "an action object"
)]
pub(super) struct RawAction {
    pub(super) action: String,
    #[serde(default)]
    pub(super) memory_location: Option<String>,
    #[serde(default)]
    pub(super) value: Option<i64>,
    #[serde(default)]
    pub(super) variable: Option<String>,
    #[serde(default)]
    pub(super) memory_order: Option<String>,
    #[serde(default)]
    pub(super) memory_scope: Option<String>,
    #[serde(default, rename = "useRMW")]
    pub(super) use_rmw: Option<bool>,
    #[serde(default)]
    pub(super) op: Option<String>,
    #[serde(default)]
    pub(super) expected: Option<i64>,
    #[serde(default)]
    pub(super) kind: Option<String>,
    #[serde(default)]
    pub(super) space: Option<serde_json::Value>,
    #[serde(default)]
    pub(super) volatile: Option<bool>,
    #[serde(default)]
    pub(super) cache: Option<String>,
    #[serde(default, rename = "type")]
    pub(super) ty: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a postcondition object")]
pub(super) struct RawCond {
    #[serde(rename = "type")]
    pub(super) ty: String,
    #[serde(default)]
    pub(super) op: Option<String>,
    #[serde(default)]
    pub(super) key: Option<String>,
    #[serde(default)]
    pub(super) class: Option<String>,
    #[serde(default)]
    pub(super) conditions: Option<Vec<RawCond>>,
    #[serde(default)]
    pub(super) id: Option<String>,
    #[serde(default)]
    pub(super) thread: Option<usize>,
    #[serde(default)]
    pub(super) cmp: Option<String>,
    #[serde(default)]
    pub(super) value: Option<serde_json::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields, expecting = "a condition object")]
pub(super) struct RawCondition {
    pub(super) quantifier: String,
    pub(super) postcondition: RawCond,
}
