//! `weft serve [--listen ADDR] [--db PATH] [--rate-limit N] [--burst N] [--admin-token T]
//! [--trusted-proxy ADDR]...`: the campaign
//! server (issue 16): the web app at `/`, the JSON API under `/api/` (crates/weft-server;
//! docs/campaign.md). The database is SQLite (created and migrated on start) or
//! PostgreSQL (the schema is created in an empty database).
//!
//! Exit codes: 0 stopped with Ctrl-C; 2 bad input (a bad address, a port in use, a
//! database that cannot be opened); 3 an internal error.

use crate::exit::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Address and port to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    listen: String,
    /// Campaign database: an SQLite path (default: campaign.db beside the results
    /// database, ~/.local/share/weft/), or a postgres://USER@HOST:PORT/DB URL.
    #[arg(long)]
    db: Option<String>,
    /// Submissions per minute one client address may sustain.
    #[arg(long, default_value_t = 60)]
    rate_limit: u32,
    /// Submissions one client address may send at once.
    #[arg(long, default_value_t = 120)]
    burst: u32,
    /// Token of the operator's moderation routes (`GET /api/admin/submissions`,
    /// `DELETE /api/admin/submissions/ID`, with `Authorization: Bearer TOKEN`); read from
    /// the file @PATH when it starts with `@` (kept out of the process list).
    #[arg(long)]
    admin_token: Option<String>,
    /// Address of a reverse proxy whose X-Forwarded-For is believed for rate limiting
    /// (repeatable); without one, the header is ignored.
    #[arg(long = "trusted-proxy")]
    trusted_proxies: Vec<std::net::IpAddr>,
}

pub fn run(args: Args) -> ExitCode {
    let db = match args.db {
        Some(d) => d,
        None => match weft_server::default_db() {
            Ok(p) => p.display().to_string(),
            Err(e) => {
                eprintln!("weft: {e} (give --db PATH)");
                return ExitCode::BadInput;
            }
        },
    };
    let admin_token = match args.admin_token.as_deref().map(weft_server::admin_token) {
        Some(Err(m)) => {
            eprintln!("weft: --admin-token: {m}");
            return ExitCode::BadInput;
        }
        Some(Ok(t)) => Some(t),
        None => None,
    };
    let settings = weft_server::Settings {
        submissions_per_minute: args.rate_limit,
        burst: args.burst,
        admin_token,
        trusted_proxies: args.trusted_proxies,
        ..Default::default()
    };
    let r = weft_server::run_blocking(&args.listen, &db, &settings);
    match r {
        Ok(()) => ExitCode::Ok,
        Err(weft_server::StartError::BadInput(m)) => {
            eprintln!("weft: {m}");
            ExitCode::BadInput
        }
        Err(weft_server::StartError::Tool(m)) => {
            eprintln!("weft: {m}");
            ExitCode::Internal
        }
    }
}
