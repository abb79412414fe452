//! Child processes (clang, the SMT solver, a nested weft) that die with weft: on Linux each
//! child asks the kernel for SIGKILL when its parent exits (`PR_SET_PDEATHSIG`), so a weft
//! killed by a harness's timeout (SIGKILL) or by `timeout` (SIGTERM) leaves no solver running.

use std::process::Command;

/// Makes `cmd`'s process receive SIGKILL when the thread that spawns it (in weft, the
/// process) exits. A no-op outside Linux.
pub fn die_with_parent(cmd: &mut Command) -> &mut Command {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        let parent = std::process::id() as libc::pid_t;
        // SAFETY: the closure runs in the forked child before exec and only calls the
        // async-signal-safe `prctl`, `getppid` and `_exit`.
        unsafe {
            cmd.pre_exec(move || {
                if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                // The parent may have died between fork and prctl: then no signal comes.
                if libc::getppid() != parent {
                    libc::_exit(137);
                }
                Ok(())
            });
        }
    }
    cmd
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Run by [`child_dies_with_its_parent`] in a second copy of this test binary: spawns a
    /// long `sleep` that must die with it, prints the sleep's pid and exits at once.
    #[test]
    fn helper_parent() {
        if std::env::var_os("WEFT_CHILD_TEST_PARENT").is_none() {
            return;
        }
        let c = die_with_parent(Command::new("sleep").arg("300"))
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("sleep");
        println!("CHILD {}", c.id());
        std::process::exit(0);
    }

    fn alive(pid: u32) -> bool {
        match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
            // A zombie (state Z) waits only for its new parent to reap it: it is dead.
            Ok(s) => !s
                .rsplit_once(')')
                .is_some_and(|(_, r)| r.trim_start().starts_with('Z')),
            Err(_) => false,
        }
    }

    #[test]
    fn child_dies_with_its_parent() {
        let me = std::env::current_exe().unwrap();
        let out = Command::new(me)
            .args(["--exact", "child::tests::helper_parent", "--nocapture"])
            .env("WEFT_CHILD_TEST_PARENT", "1")
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        let pid: u32 = text
            .lines()
            .find_map(|l| l.strip_prefix("CHILD "))
            .and_then(|p| p.trim().parse().ok())
            .unwrap_or_else(|| panic!("no child pid in {text:?}"));
        let start = Instant::now();
        while alive(pid) && start.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(20));
        }
        let survived = alive(pid);
        if survived {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
        assert!(!survived, "the child {pid} outlived its parent by 10 s");
    }
}
