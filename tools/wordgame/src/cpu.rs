//! CPU time of the calling thread, for benchmarks that must not count time spent off-CPU.

use std::time::Duration;

/// CPU time consumed by this thread so far.
#[allow(unsafe_code)]
pub fn thread_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime only writes the timespec we pass, which lives on our stack.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    assert_eq!(rc, 0, "CLOCK_THREAD_CPUTIME_ID is available on Linux");
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// Peak and current resident set size of this process, in KiB, from /proc.
pub fn resident_kib() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field =
        |name: &str| status.lines().find(|l| l.starts_with(name)).and_then(|l| l.split_whitespace().nth(1)).and_then(|v| v.parse().ok());
    Some((field("VmHWM:")?, field("VmRSS:")?))
}
