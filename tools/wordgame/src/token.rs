//! `wordgame token`: a development token for a demo account, for the local gateway; with
//! `--browser`, a one-time sign-in URL for the admin pages instead.

use crate::CliError;

/// Arguments of `wordgame token`.
#[derive(clap::Args)]
pub struct Args {
    /// The demo account's name (its id is derived from it).
    #[arg(long)]
    account: String,
    /// Put the account in the admin group.
    #[arg(long)]
    admin: bool,
    /// Put the account in the director group (it may run tournaments).
    #[arg(long)]
    director: bool,
    /// Days until the token expires.
    #[arg(long, default_value_t = 30)]
    days: i64,
    /// Print a one-time URL (valid five minutes) that signs a browser in to the local gateway's
    /// admin pages, instead of a token.
    #[arg(long)]
    browser: bool,
    /// The local gateway's port, for `--browser`.
    #[arg(long, default_value_t = 3000)]
    port: u16,
}

/// Prints the token.
///
/// # Errors
/// [`CliError::Input`] for an empty name or a non-positive lifetime.
pub fn run(args: &Args) -> Result<(), CliError> {
    if args.account.trim().is_empty() || args.account.chars().count() > 64 {
        return Err(CliError::Input("the account name must be 1 to 64 characters".into()));
    }
    if args.days < 1 {
        return Err(CliError::Input("--days must be at least 1".into()));
    }
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64);
    if args.browser {
        let code = api::jwt::signin_code(&args.account, args.admin, now, &uuid::Uuid::new_v4().to_string());
        println!("http://127.0.0.1:{}/_gm/signin?code={code}", args.port);
        return Ok(());
    }
    let groups: Vec<&str> = [(args.admin, "admin"), (args.director, "director")].into_iter().filter(|g| g.0).map(|g| g.1).collect();
    println!("{}", api::jwt::demo_token_in(&args.account, &groups, args.days, now));
    Ok(())
}
