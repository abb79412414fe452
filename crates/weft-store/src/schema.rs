//! The schema as SQL text, and the migrations that bring a database up to date on open.
//!
//! The version lives in a one-row `schema_version` table (portable, unlike SQLite's
//! `PRAGMA user_version`). Migration `k` (1-based) takes the database from version `k - 1` to
//! `k`; each runs in one write transaction together with the version update, so a database
//! is never left half-migrated. A database whose version is newer than [`SCHEMA_VERSION`]
//! is refused (an older weft must not write into a newer layout).

/// Creates the version table; run before anything else, on every open.
pub const BOOTSTRAP_SQL: &str =
    "CREATE TABLE IF NOT EXISTS schema_version (\n    version INTEGER NOT NULL\n);\n";

/// Schema version 1 as SQLite runs it (portable SQL, see `sql/v1.sql`).
pub const SCHEMA_V1_SQL: &str = include_str!("../sql/v1.sql");

/// Migration 1 -> 2: device architecture, browser and OS; campaign submissions
/// (`sql/v2.sql`).
pub const SCHEMA_V2_SQL: &str = include_str!("../sql/v2.sql");

/// Migrations that rebuild a table and so must run with foreign keys off (1-based
/// versions they produce).
pub const REBUILDS: &[i64] = &[2];

/// The current model for PostgreSQL (a campaign server), version table included
/// (`sql/postgres.sql`); kept in step with the migrated SQLite schema by a test.
pub const POSTGRES_SQL: &str = include_str!("../sql/postgres.sql");

/// The migrations, in order: `MIGRATIONS[k - 1]` takes version `k - 1` to `k`.
pub const MIGRATIONS: &[&str] = &[SCHEMA_V1_SQL, SCHEMA_V2_SQL];

/// The schema version this code reads and writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;
