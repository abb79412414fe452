//! What a run of a program is asked to do, read from the environment that `weft exec`,
//! `weft race` and `weft memcheck` set (a program started by hand runs in `exec` mode), and
//! the emulated device's properties (`WEFT_DEVICE`).
//!
//! | variable | meaning |
//! |---|---|
//! | `WEFT_CUDART_MODE` | `exec` (default), `race`, `memcheck` |
//! | `WEFT_CUDART_REPORT` | file the run's report (JSON) is written to after every launch and at exit |
//! | `WEFT_CUDART_DEFINITION` | race definition: `scoped` (default) or `barracuda` |
//! | `WEFT_CUDART_SCHEDULE` | `rr` (default) or a seed |
//! | `WEFT_CUDART_SCHEDULES` | race mode: schedules per launch (`N`: the first, then N-1 seeds, on every launch); unset: 4 on launches of at most 256 threads, 1 above ([`race_schedules`]) |
//! | `WEFT_CUDART_MAX_STEPS` | warp-instructions per launch before it is stopped (a livelock) |
//! | `WEFT_CUDART_INITCHECK` | `1`: memcheck reports reads of uninitialised device memory |
//! | `WEFT_CUDART_LEAKCHECK` | `0`: memcheck does not report leaks at exit |
//! | `WEFT_DEVICE` | `name=..,sms=N,shared=BYTES,threads=N,major=N,minor=N,mem=BYTES` |

use weft_race::Definition;
use weft_simt::Schedule;

/// The checking mode of a run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Exec,
    Race,
    Memcheck,
}

/// The emulated device.
#[derive(Clone, Debug, PartialEq)]
pub struct Device {
    pub name: String,
    pub sms: u32,
    pub shared_per_block: u64,
    pub max_threads_per_block: u32,
    pub major: i32,
    pub minor: i32,
    pub total_mem: u64,
}

impl Default for Device {
    fn default() -> Self {
        Device {
            name: "weft SIMT emulator".into(),
            sms: 16,
            shared_per_block: 48 * 1024,
            max_threads_per_block: 1024,
            major: 7,
            minor: 0,
            total_mem: 4 << 30,
        }
    }
}

impl Device {
    /// Parses `key=value,...` over the defaults.
    pub fn parse(s: &str) -> Result<Device, String> {
        let mut d = Device::default();
        for kv in s.split(',').filter(|x| !x.trim().is_empty()) {
            let (k, v) = kv
                .split_once('=')
                .ok_or_else(|| format!("WEFT_DEVICE: `{kv}`: expected KEY=VALUE"))?;
            let num = || -> Result<u64, String> {
                v.trim()
                    .parse::<u64>()
                    .map_err(|_| format!("WEFT_DEVICE: `{kv}`: not a number"))
            };
            match k.trim() {
                "name" => d.name = v.to_string(),
                "sms" => d.sms = num()?.clamp(1, 1024) as u32,
                "shared" => d.shared_per_block = num()?,
                "threads" => d.max_threads_per_block = num()?.clamp(1, 1024) as u32,
                "major" => d.major = num()? as i32,
                "minor" => d.minor = num()? as i32,
                "mem" => d.total_mem = num()?,
                "warp" if num()? == 32 => {}
                "warp" => return Err("WEFT_DEVICE: the emulator's warps have 32 lanes".into()),
                _ => return Err(format!("WEFT_DEVICE: unknown key `{k}`")),
            }
        }
        Ok(d)
    }
}

/// The schedules a launch of `threads` threads is checked under in race mode: `first`,
/// then seeds (after `rr`: 1, 2, ...; after a seed S: S+1, ...), `n` in all with
/// `--schedules n`, or by default `weft_race::session::default_schedules(threads)` (4 for a
/// launch of at most 256 threads, so that two blocks or warps competing for a lock or a
/// flag are seen in both orders; 1 above).
pub fn race_schedules(first: Schedule, n: Option<u32>, threads: u64) -> Vec<Schedule> {
    let n = n.unwrap_or_else(|| weft_race::session::default_schedules(threads));
    (0..u64::from(n))
        .map(|i| match (first, i) {
            (s, 0) => s,
            (Schedule::RoundRobin, i) => Schedule::Random(i),
            (Schedule::Random(s), i) => Schedule::Random(s.wrapping_add(i)),
        })
        .collect()
}

/// Everything the environment says.
#[derive(Clone, Debug)]
pub struct Config {
    pub mode: Mode,
    pub report: Option<String>,
    pub definition: Definition,
    pub schedule: Schedule,
    /// Race mode: schedules each launch is checked under (`None`: the default rule).
    pub schedules: Option<u32>,
    pub max_steps: u64,
    pub initcheck: bool,
    pub leakcheck: bool,
    pub device: Device,
}

impl Config {
    /// Reads the environment; `Err` names a bad variable.
    pub fn from_env() -> Result<Config, String> {
        let var = |k: &str| std::env::var(k).ok().filter(|v| !v.is_empty());
        let mode = match var("WEFT_CUDART_MODE").as_deref() {
            None | Some("exec") => Mode::Exec,
            Some("race") => Mode::Race,
            Some("memcheck") => Mode::Memcheck,
            Some(m) => return Err(format!("WEFT_CUDART_MODE: unknown mode `{m}`")),
        };
        let definition = match var("WEFT_CUDART_DEFINITION").as_deref() {
            None | Some("scoped") => Definition::Scoped,
            Some("barracuda") => Definition::Barracuda,
            Some(d) => return Err(format!("WEFT_CUDART_DEFINITION: unknown definition `{d}`")),
        };
        let schedule = match var("WEFT_CUDART_SCHEDULE").as_deref() {
            None | Some("rr") => Schedule::RoundRobin,
            Some(s) => Schedule::Random(
                s.parse()
                    .map_err(|_| format!("WEFT_CUDART_SCHEDULE: `{s}` is not rr or a seed"))?,
            ),
        };
        let schedules = match var("WEFT_CUDART_SCHEDULES") {
            None => None,
            Some(s) => match s.parse::<u32>() {
                Ok(n) if n >= 1 => Some(n),
                _ => {
                    return Err(format!(
                        "WEFT_CUDART_SCHEDULES: `{s}` is not a number of schedules (1 or more)"
                    ))
                }
            },
        };
        let max_steps = match var("WEFT_CUDART_MAX_STEPS") {
            None => 1 << 32,
            Some(s) => s
                .parse()
                .map_err(|_| format!("WEFT_CUDART_MAX_STEPS: `{s}` is not a number"))?,
        };
        Ok(Config {
            mode,
            report: var("WEFT_CUDART_REPORT"),
            definition,
            schedule,
            schedules,
            max_steps,
            initcheck: var("WEFT_CUDART_INITCHECK").as_deref() == Some("1"),
            leakcheck: var("WEFT_CUDART_LEAKCHECK").as_deref() != Some("0"),
            device: match var("WEFT_DEVICE") {
                Some(s) => Device::parse(&s)?,
                None => Device::default(),
            },
        })
    }
}
