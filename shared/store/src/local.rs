//! A private PostgreSQL server started from the system's binaries, for `wordgame serve` and the
//! tests when no `DATABASE_URL` is given.
//!
//! The binaries are found on `PATH` or under `/usr/lib/postgresql/*/bin` (newest first). Run as
//! root, the server runs as the unprivileged `postgres` user (PostgreSQL refuses root); when that
//! user cannot reach the data directory asked for (a checkout under `/root` or another private
//! directory), the data goes to a directory of the same name under the system's temporary
//! directory instead ([`LocalPostgres::data_dir`] says which). It
//! listens on 127.0.0.1 on a free port with trust authentication, and a watchdog stops it and
//! removes a throwaway data directory as soon as the process that started it exits, however it
//! exits. A durable server ([`StartOptions::DURABLE`], `wordgame serve`) flushes every commit
//! before acknowledging it; the tests' throwaway servers do not.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// Why the private server could not start.
#[derive(Debug, thiserror::Error)]
pub enum LocalPgError {
    /// No `initdb`/`pg_ctl` found.
    #[error(
        "PostgreSQL binaries (initdb, pg_ctl) not found on PATH or under /usr/lib/postgresql/*/bin; install PostgreSQL (e.g. `apt-get install postgresql`) or set DATABASE_URL"
    )]
    NotInstalled,
    /// Running as root but there is no `postgres` user to run the server as.
    #[error("running as root, but there is no `postgres` user to run the server as; create one or run as a normal user")]
    NoServerUser,
    /// A command failed.
    #[error("{command} failed: {detail}")]
    Command {
        /// The command.
        command: String,
        /// What it printed.
        detail: String,
    },
    /// Another server keeps running on the data directory.
    #[error("a PostgreSQL server (pid {pid}) is still running on {dir}; stop it or choose another data directory", dir = dir.display())]
    InUse {
        /// The data directory.
        dir: PathBuf,
        /// The running postmaster.
        pid: u32,
    },
    /// A file-system operation failed.
    #[error("{0}")]
    Io(#[from] std::io::Error),
}

/// A running private server.
#[derive(Debug)]
pub struct LocalPostgres {
    bin: PathBuf,
    dir: PathBuf,
    port: u16,
    as_postgres: bool,
    durable: bool,
}

/// How a private server runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StartOptions {
    /// Delete the data directory after the server stops (tests).
    pub throwaway: bool,
    /// Flush every commit to disk before acknowledging it (`fsync` and `synchronous_commit`
    /// on): what `wordgame serve` runs with, so a crash loses nothing it acknowledged. Off, the
    /// server is faster and a crash may lose the last commits (tests, whose data is thrown away).
    pub durable: bool,
    /// The port, or a free one.
    pub port: Option<u16>,
    /// Whether a watchdog stops the server when this process exits. A crash test turns it off
    /// to kill and restart the server itself.
    pub watchdog: bool,
}

impl StartOptions {
    /// A durable server on `dir` that stays (`wordgame serve`).
    pub const DURABLE: StartOptions = StartOptions { throwaway: false, durable: true, port: None, watchdog: true };
    /// A fast, throwaway server (the tests).
    pub const THROWAWAY: StartOptions = StartOptions { throwaway: true, durable: false, port: None, watchdog: true };
}

/// How long a new server waits for an earlier one on the same data directory to stop (the
/// watchdog of a crashed `serve` stops its server within about a second).
const WAIT_FOR_PREVIOUS: std::time::Duration = std::time::Duration::from_secs(30);

impl LocalPostgres {
    /// Starts a server on `dir` (created and initialised if needed). With `throwaway`, the
    /// watchdog also deletes `dir` after the server stops. The server is not durable (see
    /// [`StartOptions`]); [`LocalPostgres::start_with`] chooses.
    ///
    /// # Errors
    /// [`LocalPgError`] saying what is missing or what failed.
    pub fn start(dir: &Path, throwaway: bool) -> Result<LocalPostgres, LocalPgError> {
        LocalPostgres::start_with(dir, StartOptions { throwaway, ..StartOptions::THROWAWAY })
    }

    /// Starts a server on `dir` as `options` say. A server still running on `dir` (say, one
    /// whose `serve` was just killed and whose watchdog is stopping it) is waited for.
    ///
    /// # Errors
    /// [`LocalPgError`] saying what is missing or what failed; [`LocalPgError::InUse`] if a
    /// server keeps running on `dir`.
    pub fn start_with(dir: &Path, options: StartOptions) -> Result<LocalPostgres, LocalPgError> {
        let bin = find_bin().ok_or(LocalPgError::NotInstalled)?;
        let as_postgres = is_root();
        if as_postgres && !user_exists("postgres") {
            return Err(LocalPgError::NoServerUser);
        }
        std::fs::create_dir_all(dir)?;
        let mut dir = dir.canonicalize()?;
        if as_postgres && !reachable_by_postgres(&dir) {
            dir = std::env::temp_dir().join(stand_in_name(&dir));
            std::fs::create_dir_all(&dir)?;
        }
        let port = match options.port {
            Some(p) => p,
            None => free_port()?,
        };
        let server = LocalPostgres { bin, dir, port, as_postgres, durable: options.durable };
        if as_postgres {
            run(Command::new("chown").args(["-R", "postgres:postgres"]).arg(&server.dir))?;
        }
        if !server.dir.join("PG_VERSION").exists() {
            run(server
                .pg("initdb")
                .args(["-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", "-D"])
                .arg(&server.dir))?;
        }
        server.wait_for_previous(WAIT_FOR_PREVIOUS)?;
        server.start_server()?;
        if options.watchdog {
            server.watchdog(options.throwaway)?;
        }
        Ok(server)
    }

    /// Starts the server process on this data directory and port again (after [`LocalPostgres::kill`]
    /// or [`LocalPostgres::stop`]), waiting for a previous one to be gone.
    ///
    /// # Errors
    /// [`LocalPgError`] if it does not start.
    pub fn restart(&self) -> Result<(), LocalPgError> {
        self.wait_for_previous(WAIT_FOR_PREVIOUS)?;
        self.start_server()
    }

    /// `pg_ctl start` with this server's settings; retried for a few seconds while the port or
    /// the shared memory of a killed predecessor is still held.
    fn start_server(&self) -> Result<(), LocalPgError> {
        let durability = if self.durable { "-c fsync=on -c synchronous_commit=on" } else { "-c fsync=off -c synchronous_commit=off" };
        let options =
            format!("-c listen_addresses=127.0.0.1 -p {} -k {} {durability} -c max_connections=200", self.port, self.dir.display());
        let mut attempt = 0;
        loop {
            let result = run(self
                .pg("pg_ctl")
                .args(["-w", "-t", "60", "-D"])
                .arg(&self.dir)
                .args(["-l"])
                .arg(self.dir.join("server.log"))
                .args(["-o", &options, "start"]));
            match result {
                Err(e) if attempt < 20 => {
                    attempt += 1;
                    tracing::debug!(error = %e, attempt, "the private PostgreSQL did not start yet; retrying");
                    std::thread::sleep(std::time::Duration::from_millis(250));
                }
                other => return other,
            }
        }
    }

    /// Waits until no live postmaster holds this data directory, at most `limit`.
    fn wait_for_previous(&self, limit: std::time::Duration) -> Result<(), LocalPgError> {
        let started = std::time::Instant::now();
        while let Some(pid) = self.running_pid() {
            if started.elapsed() >= limit {
                return Err(LocalPgError::InUse { dir: self.dir.clone(), pid });
            }
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        Ok(())
    }

    /// The pid of a live postmaster on this data directory, from its `postmaster.pid`.
    pub fn running_pid(&self) -> Option<u32> {
        let text = std::fs::read_to_string(self.dir.join("postmaster.pid")).ok()?;
        let pid: u32 = text.lines().next()?.trim().parse().ok()?;
        // A stale file may name a pid reused by another program: where /proc says what runs
        // there, only a postgres process counts.
        if let Ok(comm) = std::fs::read_to_string(format!("/proc/{pid}/comm")) {
            return (comm.trim() == "postgres").then_some(pid);
        }
        // Elsewhere, signal 0 tests that the process exists (`kill`: no libc needed here).
        let alive = Command::new("kill").args(["-0", &pid.to_string()]).stderr(Stdio::null()).status().is_ok_and(|s| s.success());
        alive.then_some(pid)
    }

    /// Kills the postmaster with SIGKILL, as a crash would (its backends exit on their own).
    ///
    /// # Errors
    /// [`LocalPgError::Command`] if no server was running.
    pub fn kill(&self) -> Result<(), LocalPgError> {
        let pid =
            self.running_pid().ok_or_else(|| LocalPgError::Command { command: "kill -9".into(), detail: "no server running".into() })?;
        run(Command::new("kill").args(["-9", &pid.to_string()]))
    }

    /// Freezes the whole server, the postmaster and every backend, with SIGSTOP, as a stalled
    /// host would: its connections stay open and nothing answers on them, so no timeout of the
    /// server's own fires. [`LocalPostgres::thaw`] resumes it. (Linux: the backends are found
    /// in `/proc`.)
    ///
    /// # Errors
    /// [`LocalPgError::Command`] if no server is running or `kill` fails.
    pub fn freeze(&self) -> Result<(), LocalPgError> {
        self.signal_all("-STOP")
    }

    /// Resumes a server [`LocalPostgres::freeze`] froze.
    ///
    /// # Errors
    /// [`LocalPgError::Command`] if no server is running or `kill` fails.
    pub fn thaw(&self) -> Result<(), LocalPgError> {
        self.signal_all("-CONT")
    }

    /// Sends `signal` to the postmaster first (so it forks no new backend), then its children.
    fn signal_all(&self, signal: &str) -> Result<(), LocalPgError> {
        let pid = self
            .running_pid()
            .ok_or_else(|| LocalPgError::Command { command: format!("kill {signal}"), detail: "no server running".into() })?;
        let mut pids = vec![pid];
        pids.extend(children(pid)?);
        run(Command::new("kill").arg(signal).args(pids.iter().map(u32::to_string)))
    }

    /// The URL of database `db` on this server.
    pub fn url(&self, db: &str) -> String {
        format!("postgres://postgres@127.0.0.1:{}/{db}", self.port)
    }

    /// Where its data is (see the module's note on root).
    pub fn data_dir(&self) -> &Path {
        &self.dir
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server now (fast shutdown).
    pub fn stop(&self) {
        let _ =
            self.pg("pg_ctl").args(["-D"]).arg(&self.dir).args(["-m", "fast", "stop"]).stdout(Stdio::null()).stderr(Stdio::null()).status();
    }

    /// `program` from the binaries, run as the server user when we are root.
    fn pg(&self, program: &str) -> Command {
        let path = self.bin.join(program);
        if self.as_postgres {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(path);
            c
        } else {
            Command::new(path)
        }
    }

    /// A detached shell that waits for this process to exit, then stops the server: the one on
    /// this port (its `postmaster.pid` names the port on its fourth line), so a server that a
    /// later process started on the same data directory, on a port of its own, is left running.
    fn watchdog(&self, throwaway: bool) -> Result<(), LocalPgError> {
        let stop =
            format!("{} -D '{}' -m immediate stop", self.prefix() + &self.bin.join("pg_ctl").display().to_string(), self.dir.display());
        let ours = format!("[ \"$(sed -n 4p '{}' 2>/dev/null)\" = '{}' ]", self.dir.join("postmaster.pid").display(), self.port);
        let cleanup = if throwaway { format!("; rm -rf '{}'", self.dir.display()) } else { String::new() };
        let script = format!(
            "while kill -0 {} 2>/dev/null; do sleep 1; done; if {ours}; then {stop} >/dev/null 2>&1; fi{cleanup}",
            std::process::id()
        );
        Command::new("setsid").args(["sh", "-c", &script]).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn()?;
        Ok(())
    }

    fn prefix(&self) -> String {
        if self.as_postgres { "runuser -u postgres -- ".to_string() } else { String::new() }
    }
}

/// The processes whose parent is `parent`, from `/proc/*/stat` (the field after the command
/// name, which may itself hold spaces and parentheses).
fn children(parent: u32) -> Result<Vec<u32>, LocalPgError> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir("/proc")?.flatten() {
        let Some(pid) = entry.file_name().to_str().and_then(|n| n.parse::<u32>().ok()) else { continue };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else { continue };
        let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)).and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) {
            out.push(pid);
        }
    }
    Ok(out)
}

fn run(cmd: &mut Command) -> Result<(), LocalPgError> {
    let out = cmd.stdin(Stdio::null()).output()?;
    if out.status.success() {
        return Ok(());
    }
    Err(LocalPgError::Command {
        command: format!("{cmd:?}"),
        detail: format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr)).trim().to_string(),
    })
}

fn find_bin() -> Option<PathBuf> {
    let on_path =
        std::env::var_os("PATH").and_then(|p| std::env::split_paths(&p).find(|d| d.join("initdb").is_file() && d.join("pg_ctl").is_file()));
    if on_path.is_some() {
        return on_path;
    }
    let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path().join("bin")))
        .filter(|b| b.join("initdb").is_file())
        .collect();
    versions
        .sort_by_key(|p| p.parent().and_then(|v| v.file_name()).and_then(|v| v.to_str()).and_then(|v| v.parse::<u32>().ok()).unwrap_or(0));
    versions.pop()
}

fn is_root() -> bool {
    Command::new("id").arg("-u").output().map(|o| String::from_utf8_lossy(&o.stdout).trim() == "0").unwrap_or(false)
}

fn user_exists(name: &str) -> bool {
    Command::new("id").arg(name).stdout(Stdio::null()).stderr(Stdio::null()).status().map(|s| s.success()).unwrap_or(false)
}

/// Whether the `postgres` user can pass through every directory above `dir` (`dir` itself is
/// given to it).
fn reachable_by_postgres(dir: &Path) -> bool {
    let parent = dir.parent().unwrap_or(dir);
    Command::new("runuser")
        .args(["-u", "postgres", "--", "test", "-x"])
        .arg(parent)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// A name for the stand-in of `dir` in the temporary directory: its path, made one file name,
/// so the same checkout finds the same data again.
fn stand_in_name(dir: &Path) -> String {
    let path: String = dir.to_string_lossy().chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).collect();
    format!("wordgame-pg{path}")
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_data_directory_has_one_stand_in_name_per_path() {
        assert_eq!(stand_in_name(Path::new("/root/wordgame/target/wordgame-pg")), "wordgame-pg_root_wordgame_target_wordgame-pg");
        assert_ne!(stand_in_name(Path::new("/a/b")), stand_in_name(Path::new("/a/c")));
    }

    /// Run as root, a data directory under a directory only root may enter is moved to the
    /// temporary directory, and the server starts there. (Not run as root, no user switch
    /// happens and there is nothing to check.)
    #[test]
    fn as_root_a_private_directory_is_replaced_by_a_reachable_one() {
        if !is_root() || find_bin().is_none() {
            return;
        }
        let private = std::env::temp_dir().join(format!("wordgame-private-{}", std::process::id()));
        std::fs::create_dir_all(&private).unwrap();
        std::fs::set_permissions(&private, std::os::unix::fs::PermissionsExt::from_mode(0o700)).unwrap();
        let asked = private.join("pg");
        let pg = LocalPostgres::start(&asked, true).unwrap();
        assert!(pg.data_dir().starts_with(std::env::temp_dir()) && !pg.data_dir().starts_with(&private), "{:?}", pg.data_dir());
        assert!(pg.data_dir().join("PG_VERSION").exists());
        pg.stop();
        let _ = std::fs::remove_dir_all(pg.data_dir());
        std::fs::remove_dir_all(&private).unwrap();
    }
}
