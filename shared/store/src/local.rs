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
//! exits.

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
}

impl LocalPostgres {
    /// Starts a server on `dir` (created and initialised if needed). With `throwaway`, the
    /// watchdog also deletes `dir` after the server stops.
    ///
    /// # Errors
    /// [`LocalPgError`] saying what is missing or what failed.
    pub fn start(dir: &Path, throwaway: bool) -> Result<LocalPostgres, LocalPgError> {
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
        let server = LocalPostgres { bin, dir, port: free_port()?, as_postgres };
        if as_postgres {
            run(Command::new("chown").args(["-R", "postgres:postgres"]).arg(&server.dir))?;
        }
        if !server.dir.join("PG_VERSION").exists() {
            run(server
                .pg("initdb")
                .args(["-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync", "-D"])
                .arg(&server.dir))?;
        }
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -k {} -c fsync=off -c synchronous_commit=off -c max_connections=200",
            server.port,
            server.dir.display()
        );
        run(server
            .pg("pg_ctl")
            .args(["-w", "-t", "60", "-D"])
            .arg(&server.dir)
            .args(["-l"])
            .arg(server.dir.join("server.log"))
            .args(["-o", &options, "start"]))?;
        server.watchdog(throwaway)?;
        Ok(server)
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

    /// A detached shell that waits for this process to exit, then stops the server.
    fn watchdog(&self, throwaway: bool) -> Result<(), LocalPgError> {
        let stop =
            format!("{} -D '{}' -m immediate stop", self.prefix() + &self.bin.join("pg_ctl").display().to_string(), self.dir.display());
        let cleanup = if throwaway { format!("; rm -rf '{}'", self.dir.display()) } else { String::new() };
        let script = format!("while kill -0 {} 2>/dev/null; do sleep 1; done; {stop} >/dev/null 2>&1{cleanup}", std::process::id());
        Command::new("setsid").args(["sh", "-c", &script]).stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null()).spawn()?;
        Ok(())
    }

    fn prefix(&self) -> String {
        if self.as_postgres { "runuser -u postgres -- ".to_string() } else { String::new() }
    }
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
