//! [`Store`]: opening (and migrating) a results database, recording runs, and reading them
//! back as summaries, full records, CSV and JSON.
//!
//! The SQL here sticks to what PostgreSQL also accepts (`ON CONFLICT DO NOTHING`,
//! `LIKE ... ESCAPE`, `SUM(CASE ...)`, full `GROUP BY` lists) except for the connection
//! set-up (pragmas), the `sqlite_master` probe and `last_insert_rowid`, which a PostgreSQL
//! back-end replaces with `RETURNING id`.

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rusqlite::{params, params_from_iter, Connection, OpenFlags, OptionalExtension, ToSql};

use crate::schema::{BOOTSTRAP_SQL, MIGRATIONS, REBUILDS, SCHEMA_VERSION};
use crate::{
    canonical_json, is_timestamp, time, DeviceRecord, Filter, OutcomeRecord, Result, RunRecord,
    RunSummary, StoreError, StoredRun, TestRecord, WeakRate,
};

/// Run kinds [`Store::record`] accepts.
pub const KINDS: &[&str] = &["run", "tune", "conform"];
/// Outcome classes.
pub const CLASSES: &[&str] = &["seq", "interleaved", "weak"];
/// Model verdicts.
pub const VERDICTS: &[&str] = &["allowed", "forbidden"];

/// How long a writer waits for another process's transaction before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(10);

/// The CSV export's columns, one row per run × outcome.
pub const CSV_COLUMNS: &[&str] = &[
    "run_id",
    "started_at",
    "kind",
    "label",
    "duration_ms",
    "backend",
    "device",
    "vendor",
    "driver",
    "api",
    "device_extra",
    "test",
    "test_path",
    "format",
    "digest",
    "stress_name",
    "stress_config",
    "seed",
    "iterations",
    "instances",
    "model",
    "weft_version",
    "outcome",
    "class",
    "model_verdict",
    "count",
];

/// An open results database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// `$XDG_DATA_HOME/weft/results.db`, or `$HOME/.local/share/weft/results.db` when
    /// `XDG_DATA_HOME` is unset, empty or relative (XDG Base Directory rules).
    pub fn default_path() -> Result<PathBuf> {
        let xdg = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute());
        let base = match xdg {
            Some(p) => p,
            None => match std::env::var_os("HOME").filter(|h| !h.is_empty()) {
                Some(h) => PathBuf::from(h).join(".local/share"),
                None => return Err(StoreError::NoDefaultPath),
            },
        };
        Ok(base.join("weft").join("results.db"))
    }

    /// Opens the database at `path` for writing, creating it and its parent directories
    /// when missing, and migrating it to the current schema.
    pub fn open(path: impl AsRef<Path>) -> Result<Store> {
        let path = path.as_ref().to_path_buf();
        if path.is_dir() {
            return Err(path_err(&path, "is a directory, not a database file"));
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                path_err(
                    &path,
                    &format!("cannot create directory {}: {e}", parent.display()),
                )
            })?;
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&path, flags)
            .map_err(|e| path_err(&path, &format!("cannot open or create: {e}")))?;
        if conn.is_readonly(rusqlite::DatabaseName::Main)? {
            return Err(path_err(&path, "is not writable"));
        }
        let store = Store { conn, path };
        store.configure()?;
        // WAL lets readers and one writer from other processes proceed together; the mode
        // is kept in the file, so read-only openers need not set it.
        // Where a filesystem cannot hold WAL, SQLite keeps its rollback journal: with the busy
        // timeout, concurrent handles stay safe, only slower.
        let _mode: String = store
            .conn
            .query_row("PRAGMA journal_mode = WAL", [], |r| r.get(0))
            .map_err(|e| store.classify(e))?;
        store.migrate()?;
        Ok(store)
    }

    /// Opens an existing database for reading (and writing when the file allows); never
    /// creates one: a missing file is [`StoreError::Missing`]. Migrates an older schema
    /// when the file is writable.
    pub fn open_existing(path: impl AsRef<Path>) -> Result<Store> {
        let path = path.as_ref().to_path_buf();
        if path.is_dir() {
            return Err(path_err(&path, "is a directory, not a database file"));
        }
        if !path.exists() {
            return Err(StoreError::Missing { path });
        }
        // READ_WRITE without CREATE falls back to read-only on a write-protected file.
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(&path, flags)
            .map_err(|e| path_err(&path, &format!("cannot open: {e}")))?;
        let store = Store { conn, path };
        store.configure()?;
        store.migrate()?;
        Ok(store)
    }

    /// The file this store reads and writes.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn configure(&self) -> Result<()> {
        self.conn.busy_timeout(BUSY_TIMEOUT)?;
        self.conn
            .execute_batch("PRAGMA foreign_keys = ON;")
            .map_err(|e| self.classify(e))?;
        Ok(())
    }

    /// Turns "file is not a database" into [`StoreError::NotWeft`].
    fn classify(&self, e: rusqlite::Error) -> StoreError {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::NotADatabase) => StoreError::NotWeft {
                path: self.path.clone(),
                message: "not an SQLite file".into(),
            },
            _ => StoreError::Sqlite(e),
        }
    }

    fn current_version(&self) -> Result<Option<i64>> {
        let has_table: bool = self
            .conn
            .query_row(
                "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map_err(|e| self.classify(e))?
            > 0;
        if !has_table {
            return Ok(None);
        }
        Ok(Some(
            self.conn
                .query_row("SELECT MAX(version) FROM schema_version", [], |r| {
                    r.get::<_, Option<i64>>(0)
                })?
                .unwrap_or(0),
        ))
    }

    /// Brings the schema up to [`SCHEMA_VERSION`] (see [`crate::schema`]).
    fn migrate(&self) -> Result<()> {
        let version = match self.current_version()? {
            Some(v) => v,
            None => {
                let tables: i64 = self.conn.query_row(
                    "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'",
                    [],
                    |r| r.get(0),
                )?;
                if tables > 0 {
                    return Err(StoreError::NotWeft {
                        path: self.path.clone(),
                        message: "it has tables but no schema_version".into(),
                    });
                }
                0
            }
        };
        self.check_not_newer(version)?;
        if version == SCHEMA_VERSION {
            return Ok(());
        }
        // A table rebuild needs foreign keys off (they cannot change inside a transaction);
        // they are checked before commit and turned back on after.
        let rebuild = REBUILDS.iter().any(|&v| v > version);
        if rebuild {
            self.conn.execute_batch("PRAGMA foreign_keys = OFF;")?;
        }
        let r = self.migrate_locked();
        if rebuild {
            self.conn.execute_batch("PRAGMA foreign_keys = ON;")?;
        }
        r
    }

    /// Runs the missing migrations in one write transaction.
    fn migrate_locked(&self) -> Result<()> {
        let tx = rusqlite::Transaction::new_unchecked(
            &self.conn,
            rusqlite::TransactionBehavior::Immediate,
        )
        .map_err(|e| self.write_err(e))?;
        tx.execute_batch(BOOTSTRAP_SQL)?;
        // Another process may have migrated while this one waited for the write lock.
        let version: i64 = tx
            .query_row("SELECT MAX(version) FROM schema_version", [], |r| {
                r.get::<_, Option<i64>>(0)
            })?
            .unwrap_or(0);
        self.check_not_newer(version)?;
        for sql in &MIGRATIONS[version as usize..] {
            tx.execute_batch(sql)?;
        }
        tx.execute("DELETE FROM schema_version", [])?;
        tx.execute(
            "INSERT INTO schema_version (version) VALUES (?1)",
            [SCHEMA_VERSION],
        )?;
        let broken: i64 =
            tx.query_row("SELECT COUNT(*) FROM pragma_foreign_key_check", [], |r| {
                r.get(0)
            })?;
        if broken > 0 {
            return Err(StoreError::Invalid(format!(
                "migration left {broken} dangling references; the database is unchanged"
            )));
        }
        tx.commit()?;
        Ok(())
    }

    fn check_not_newer(&self, version: i64) -> Result<()> {
        if version > SCHEMA_VERSION {
            return Err(StoreError::SchemaTooNew {
                path: self.path.clone(),
                found: version,
                known: SCHEMA_VERSION,
            });
        }
        Ok(())
    }

    fn write_err(&self, e: rusqlite::Error) -> StoreError {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::ReadOnly) => path_err(&self.path, "is not writable"),
            _ => self.classify(e),
        }
    }

    /// Stores one run (one transaction) and returns its id. Devices, tests and stress
    /// configurations already stored are reused.
    pub fn record(&mut self, run: &RunRecord) -> Result<i64> {
        validate(run)?;
        let tx = self.write_tx()?;
        let run_id = record_in(&tx, run, None)?;
        tx.commit()?;
        Ok(run_id)
    }

    fn write_tx(&mut self) -> Result<rusqlite::Transaction<'_>> {
        let path = self.path.clone();
        self.conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| match e.sqlite_error_code() {
                Some(rusqlite::ErrorCode::ReadOnly) => path_err(&path, "is not writable"),
                _ => StoreError::Sqlite(e),
            })
    }

    /// Stores a campaign submission: its runs, all or none, in one transaction, under the
    /// client's idempotency key. A key already stored stores nothing and returns the
    /// first submission's id and run ids with `false` (a retried upload is stored once);
    /// the same key with different content (`digest`) is [`StoreError::Invalid`].
    pub fn record_submission(
        &mut self,
        sub: &crate::Submission,
        runs: &[RunRecord],
    ) -> Result<(i64, Vec<i64>, bool)> {
        for r in runs {
            validate(r)?;
        }
        if !is_timestamp(&sub.received_at) {
            return Err(StoreError::Invalid(format!(
                "received_at `{}` is not YYYY-MM-DDTHH:MM:SSZ",
                sub.received_at
            )));
        }
        let tx = self.write_tx()?;
        let existing: Option<(i64, String)> = tx
            .query_row(
                "SELECT id, digest FROM submissions WHERE idempotency_key = ?1",
                [&sub.idempotency_key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?;
        if let Some((id, digest)) = existing {
            if digest != sub.digest {
                return Err(StoreError::Invalid(format!(
                    "idempotency key `{}` was already used for a different submission",
                    sub.idempotency_key
                )));
            }
            let ids = submission_runs(&tx, id)?;
            return Ok((id, ids, false));
        }
        tx.execute(
            "INSERT INTO submissions (idempotency_key, client, received_at, digest, contact) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            params![
                sub.idempotency_key,
                sub.client,
                sub.received_at,
                sub.digest,
                sub.contact
            ],
        )?;
        let id = tx.last_insert_rowid();
        let mut ids = Vec::new();
        for r in runs {
            ids.push(record_in(&tx, r, Some(id))?);
        }
        tx.commit()?;
        Ok((id, ids, true))
    }

    /// The stored submissions, oldest first.
    pub fn submissions(&self) -> Result<Vec<crate::StoredSubmission>> {
        let mut stmt = self.conn.prepare(
            "SELECT s.id, s.idempotency_key, s.client, s.received_at, s.digest, s.contact, \
             COUNT(r.id) FROM submissions s LEFT JOIN runs r ON r.submission_id = s.id \
             GROUP BY s.id, s.idempotency_key, s.client, s.received_at, s.digest, s.contact \
             ORDER BY s.id",
        )?;
        let rows = stmt
            .query_map([], |r| {
                Ok(crate::StoredSubmission {
                    id: r.get(0)?,
                    submission: crate::Submission {
                        idempotency_key: r.get(1)?,
                        client: r.get(2)?,
                        received_at: r.get(3)?,
                        digest: r.get(4)?,
                        contact: r.get(5)?,
                    },
                    runs: r.get::<_, i64>(6)? as u64,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(rows)
    }

    /// The ids of the runs a submission stored, in order.
    pub fn submission_run_ids(&self, submission: i64) -> Result<Vec<i64>> {
        submission_runs(&self.conn, submission)
    }

    /// Deletes a submission with its runs and their outcomes (operator moderation), in one
    /// transaction; `None` when there is no such submission, else the runs deleted.
    pub fn delete_submission(&mut self, submission: i64) -> Result<Option<usize>> {
        let tx = self.conn.transaction()?;
        let exists: i64 = tx.query_row(
            "SELECT COUNT(*) FROM submissions WHERE id = ?1",
            [submission],
            |r| r.get(0),
        )?;
        if exists == 0 {
            return Ok(None);
        }
        tx.execute(
            "DELETE FROM outcomes WHERE run_id IN (SELECT id FROM runs WHERE submission_id = ?1)",
            [submission],
        )?;
        let runs = tx.execute("DELETE FROM runs WHERE submission_id = ?1", [submission])?;
        tx.execute("DELETE FROM submissions WHERE id = ?1", [submission])?;
        tx.commit()?;
        Ok(Some(runs))
    }

    /// Number of stored runs and submissions.
    pub fn counts(&self) -> Result<(u64, u64)> {
        let runs: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM runs", [], |r| r.get(0))?;
        let subs: i64 = self
            .conn
            .query_row("SELECT COUNT(*) FROM submissions", [], |r| r.get(0))?;
        Ok((runs as u64, subs as u64))
    }
}

fn submission_runs(c: &Connection, submission: i64) -> Result<Vec<i64>> {
    let mut stmt = c.prepare("SELECT id FROM runs WHERE submission_id = ?1 ORDER BY id")?;
    let ids = stmt
        .query_map([submission], |r| r.get(0))?
        .collect::<rusqlite::Result<Vec<i64>>>()?;
    Ok(ids)
}

/// Inserts one validated run inside `tx`.
fn record_in(tx: &Connection, run: &RunRecord, submission: Option<i64>) -> Result<i64> {
    let (cols, vals) = run.device.key();
    let device_id = upsert(tx, "devices", &cols, &vals)?;
    let t = &run.test;
    let test_id = upsert(
        tx,
        "tests",
        &["name", "format", "digest"],
        &[&t.name, &t.format, &t.digest],
    )?;
    let config = canonical_json(&run.stress_config);
    let config_id = upsert(tx, "stress_configs", &["config"], &[&config])?;
    tx.execute(
        "INSERT INTO runs (kind, label, started_at, duration_ms, device_id, device_extra, \
             test_id, test_path, stress_name, stress_config_id, seed, iterations, instances, \
             model, weft_version, submission_id) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
        params![
            run.kind,
            run.label,
            run.started_at,
            to_i64("duration_ms", run.duration_ms)?,
            device_id,
            canonical_json(&run.device.extra),
            test_id,
            t.path,
            run.stress_name,
            config_id,
            run.seed as i64,
            to_i64("iterations", run.iterations)?,
            to_i64("instances", run.instances)?,
            run.model,
            run.weft_version,
            submission,
        ],
    )?;
    let run_id = tx.last_insert_rowid();
    {
        let mut ins = tx.prepare(
            "INSERT INTO outcomes (run_id, position, outcome, class, model_verdict, count) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for (i, o) in run.outcomes.iter().enumerate() {
            ins.execute(params![
                run_id,
                i as i64,
                o.outcome,
                o.class,
                o.model_verdict,
                to_i64("count", o.count)?,
            ])?;
        }
    }
    Ok(run_id)
}

impl Store {
    /// The ids of the runs `filter` selects, oldest first (the most recent `limit`).
    pub fn run_ids(&self, filter: &Filter) -> Result<Vec<i64>> {
        let (clause, args) = where_clause(filter)?;
        let sql = format!(
            "SELECT r.id FROM runs r JOIN devices d ON d.id = r.device_id \
             JOIN tests t ON t.id = r.test_id {clause} \
             ORDER BY r.started_at DESC, r.id DESC{}",
            limit_clause(filter)
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let mut ids = stmt
            .query_map(
                params_from_iter(args.iter().map(|a| a as &dyn ToSql)),
                |r| r.get(0),
            )?
            .collect::<rusqlite::Result<Vec<i64>>>()?;
        ids.reverse();
        Ok(ids)
    }

    /// One summary per run `filter` selects, oldest first (the most recent `limit`).
    pub fn runs(&self, filter: &Filter) -> Result<Vec<RunSummary>> {
        let (clause, args) = where_clause(filter)?;
        let sql = format!(
            "SELECT r.id, r.started_at, r.kind, r.label, d.backend, d.name, t.name, \
             r.stress_name, r.seed, r.instances, \
             COALESCE(SUM(CASE WHEN o.class = 'seq' THEN o.count ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN o.class = 'interleaved' THEN o.count ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN o.class = 'weak' THEN o.count ELSE 0 END), 0), \
             COALESCE(SUM(CASE WHEN o.model_verdict = 'forbidden' THEN o.count ELSE 0 END), 0), \
             r.duration_ms, r.model \
             FROM runs r JOIN devices d ON d.id = r.device_id \
             JOIN tests t ON t.id = r.test_id \
             LEFT JOIN outcomes o ON o.run_id = r.id {clause} \
             GROUP BY r.id, r.started_at, r.kind, r.label, d.backend, d.name, t.name, \
             r.stress_name, r.seed, r.instances, r.duration_ms, r.model \
             ORDER BY r.started_at DESC, r.id DESC{}",
            limit_clause(filter)
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let mut rows = stmt
            .query_map(
                params_from_iter(args.iter().map(|a| a as &dyn ToSql)),
                |r| {
                    Ok(RunSummary {
                        id: r.get(0)?,
                        started_at: r.get(1)?,
                        kind: r.get(2)?,
                        label: r.get(3)?,
                        backend: r.get(4)?,
                        device: r.get(5)?,
                        test: r.get(6)?,
                        stress_name: r.get(7)?,
                        seed: r.get::<_, i64>(8)? as u64,
                        instances: r.get::<_, i64>(9)? as u64,
                        model: r.get(15)?,
                        seq: r.get::<_, i64>(10)? as u64,
                        interleaved: r.get::<_, i64>(11)? as u64,
                        weak: r.get::<_, i64>(12)? as u64,
                        forbidden: r.get::<_, i64>(13)? as u64,
                        duration_ms: r.get::<_, i64>(14)? as u64,
                    })
                },
            )?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        rows.reverse();
        Ok(rows)
    }

    /// The run with this id, exactly as it was recorded; `None` when there is none.
    pub fn run(&self, id: i64) -> Result<Option<RunRecord>> {
        let head = self
            .conn
            .query_row(
                "SELECT r.kind, r.label, r.started_at, r.duration_ms, d.backend, d.name, \
                 d.vendor, d.driver, d.api, r.device_extra, t.name, r.test_path, t.format, \
                 t.digest, r.stress_name, c.config, r.seed, r.iterations, r.instances, \
                 r.model, r.weft_version, d.architecture, d.browser, d.os \
                 FROM runs r JOIN devices d ON d.id = r.device_id \
                 JOIN tests t ON t.id = r.test_id \
                 JOIN stress_configs c ON c.id = r.stress_config_id \
                 WHERE r.id = ?1",
                [id],
                |r| {
                    Ok((
                        (
                            r.get::<_, String>(0)?,
                            r.get::<_, Option<String>>(1)?,
                            r.get::<_, String>(2)?,
                            r.get::<_, i64>(3)?,
                        ),
                        (
                            r.get::<_, String>(4)?,
                            r.get::<_, String>(5)?,
                            r.get::<_, String>(6)?,
                            r.get::<_, String>(7)?,
                            r.get::<_, String>(8)?,
                            r.get::<_, String>(9)?,
                        ),
                        (
                            r.get::<_, String>(10)?,
                            r.get::<_, String>(11)?,
                            r.get::<_, String>(12)?,
                            r.get::<_, String>(13)?,
                        ),
                        (
                            r.get::<_, String>(14)?,
                            r.get::<_, String>(15)?,
                            r.get::<_, i64>(16)?,
                            r.get::<_, i64>(17)?,
                            r.get::<_, i64>(18)?,
                            r.get::<_, Option<String>>(19)?,
                            r.get::<_, String>(20)?,
                        ),
                        (
                            r.get::<_, String>(21)?,
                            r.get::<_, String>(22)?,
                            r.get::<_, String>(23)?,
                        ),
                    ))
                },
            )
            .optional()?;
        let Some((
            (kind, label, started_at, duration_ms),
            (backend, name, vendor, driver, api, extra),
            (test_name, test_path, format, digest),
            (stress_name, config, seed, iterations, instances, model, weft_version),
            (architecture, browser, os),
        )) = head
        else {
            return Ok(None);
        };
        let mut stmt = self.conn.prepare(
            "SELECT outcome, class, model_verdict, count FROM outcomes \
             WHERE run_id = ?1 ORDER BY position",
        )?;
        let outcomes = stmt
            .query_map([id], |r| {
                Ok(OutcomeRecord {
                    outcome: r.get(0)?,
                    class: r.get(1)?,
                    model_verdict: r.get(2)?,
                    count: r.get::<_, i64>(3)? as u64,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Some(RunRecord {
            kind,
            label,
            started_at,
            duration_ms: duration_ms as u64,
            device: DeviceRecord {
                backend,
                name,
                vendor,
                driver,
                api,
                architecture,
                browser,
                os,
                extra: serde_json::from_str(&extra)?,
            },
            test: TestRecord {
                name: test_name,
                path: test_path,
                format,
                digest,
            },
            stress_name,
            stress_config: serde_json::from_str(&config)?,
            seed: seed as u64,
            iterations: iterations as u64,
            instances: instances as u64,
            model,
            weft_version,
            outcomes,
        }))
    }

    /// The full records `filter` selects, with their ids, oldest first; read in one
    /// transaction so that a concurrent writer cannot tear the result.
    pub fn stored_runs(&self, filter: &Filter) -> Result<Vec<StoredRun>> {
        let tx = self.conn.unchecked_transaction()?;
        let mut out = Vec::new();
        for id in self.run_ids(filter)? {
            if let Some(run) = self.run(id)? {
                out.push(StoredRun { id, run });
            }
        }
        tx.finish()?;
        Ok(out)
    }

    /// Writes the runs `filter` selects as CSV: a header ([`CSV_COLUMNS`]), then one row
    /// per run × outcome (a run without outcomes still gets one row, with empty outcome
    /// columns). JSON columns hold canonical JSON text.
    pub fn export_csv(&self, filter: &Filter, out: &mut dyn Write) -> Result<()> {
        let runs = self.stored_runs(filter)?;
        write_csv(&runs, out)
    }
}

/// A CSV cell made safe to open in a spreadsheet (OWASP's CSV injection advice): a cell
/// that begins with `=`, `+`, `-`, `@`, a tab or a carriage return, and is not a plain
/// number, gets a leading `'` so that no spreadsheet reads it as a formula (a device called
/// `=HYPERLINK(...)` stays text). Numbers, negative ones included, are left as they are.
pub fn csv_cell(s: &str) -> std::borrow::Cow<'_, str> {
    let risky = s.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if risky && s.parse::<f64>().map_or(true, |v| !v.is_finite()) {
        std::borrow::Cow::Owned(format!("'{s}"))
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

/// Writes runs as CSV, one row per run × outcome ([`CSV_COLUMNS`]); what
/// [`Store::export_csv`] writes, for runs read from elsewhere (a PostgreSQL server).
pub fn write_csv(runs: &[StoredRun], out: &mut dyn Write) -> Result<()> {
    {
        let mut w = csv::Writer::from_writer(out);
        w.write_record(CSV_COLUMNS)?;
        for StoredRun { id, run } in runs {
            let head = [
                id.to_string(),
                run.started_at.clone(),
                run.kind.clone(),
                run.label.clone().unwrap_or_default(),
                run.duration_ms.to_string(),
                run.device.backend.clone(),
                run.device.name.clone(),
                run.device.vendor.clone(),
                run.device.driver.clone(),
                run.device.api.clone(),
                canonical_json(&run.device.extra),
                run.test.name.clone(),
                run.test.path.clone(),
                run.test.format.clone(),
                run.test.digest.clone(),
                run.stress_name.clone(),
                canonical_json(&run.stress_config),
                run.seed.to_string(),
                run.iterations.to_string(),
                run.instances.to_string(),
                run.model.clone().unwrap_or_default(),
                run.weft_version.clone(),
            ];
            if run.outcomes.is_empty() {
                let mut row = head.to_vec();
                row.extend(["", "", "", ""].map(String::from));
                w.write_record(row.iter().map(|c| csv_cell(c).into_owned()))?;
            }
            for o in &run.outcomes {
                let mut row = head.to_vec();
                row.push(o.outcome.clone());
                row.push(o.class.clone());
                row.push(o.model_verdict.clone().unwrap_or_default());
                row.push(o.count.to_string());
                w.write_record(row.iter().map(|c| csv_cell(c).into_owned()))?;
            }
        }
        w.flush()?;
    }
    Ok(())
}

impl Store {
    /// Writes the runs `filter` selects as a pretty JSON array of [`StoredRun`]s.
    pub fn export_json(&self, filter: &Filter, out: &mut dyn Write) -> Result<()> {
        let runs = self.stored_runs(filter)?;
        serde_json::to_writer_pretty(&mut *out, &runs)?;
        out.write_all(b"\n")?;
        out.flush()?;
        Ok(())
    }

    /// Per (test, stress name), over the runs `filter` selects: runs, instances and weak
    /// outcomes, sorted by test, then by weak rate (highest first), then by stress name.
    pub fn weak_rates(&self, filter: &Filter) -> Result<Vec<WeakRate>> {
        let mut by: BTreeMap<(String, String), WeakRate> = BTreeMap::new();
        for s in self.runs(filter)? {
            let e = by
                .entry((s.test.clone(), s.stress_name.clone()))
                .or_insert_with(|| WeakRate {
                    test: s.test.clone(),
                    stress_name: s.stress_name.clone(),
                    runs: 0,
                    instances: 0,
                    weak: 0,
                });
            e.runs += 1;
            e.instances += s.instances;
            e.weak += s.weak;
        }
        let mut out: Vec<WeakRate> = by.into_values().collect();
        out.sort_by(|a, b| {
            a.test
                .cmp(&b.test)
                .then(b.rate().total_cmp(&a.rate()))
                .then(a.stress_name.cmp(&b.stress_name))
        });
        Ok(out)
    }
}

fn path_err(path: &Path, message: &str) -> StoreError {
    StoreError::Path {
        path: path.to_path_buf(),
        message: message.to_string(),
    }
}

fn to_i64(field: &str, v: u64) -> Result<i64> {
    i64::try_from(v).map_err(|_| StoreError::Invalid(format!("{field} {v} exceeds i64::MAX")))
}

/// Checks that a run can be stored as given (kinds, classes, verdicts, timestamps, counts
/// that fit the database's integers); [`Store::record`] does it before writing.
pub fn validate(run: &RunRecord) -> Result<()> {
    let bad = |m: String| Err(StoreError::Invalid(m));
    if !KINDS.contains(&run.kind.as_str()) {
        return bad(format!(
            "kind `{}` is not one of {}",
            run.kind,
            KINDS.join(", ")
        ));
    }
    if !is_timestamp(&run.started_at) {
        return bad(format!(
            "started_at `{}` is not YYYY-MM-DDTHH:MM:SSZ (UTC, whole seconds)",
            run.started_at
        ));
    }
    if run.device.backend.is_empty() {
        return bad("device backend is empty".into());
    }
    if run.test.name.is_empty() {
        return bad("test name is empty".into());
    }
    let mut seen = HashSet::new();
    for o in &run.outcomes {
        if !CLASSES.contains(&o.class.as_str()) {
            return bad(format!(
                "outcome `{}`: class `{}` is not one of {}",
                o.outcome,
                o.class,
                CLASSES.join(", ")
            ));
        }
        if let Some(v) = &o.model_verdict {
            if !VERDICTS.contains(&v.as_str()) {
                return bad(format!(
                    "outcome `{}`: verdict `{v}` is not one of {}",
                    o.outcome,
                    VERDICTS.join(", ")
                ));
            }
        }
        if !seen.insert(o.outcome.as_str()) {
            return bad(format!("outcome `{}` appears twice", o.outcome));
        }
    }
    Ok(())
}

/// The id of the row of `table` with these key values, inserting it first if missing.
fn upsert(tx: &Connection, table: &str, cols: &[&str], vals: &[&String]) -> Result<i64> {
    let placeholders: Vec<String> = (1..=cols.len()).map(|i| format!("?{i}")).collect();
    tx.execute(
        &format!(
            "INSERT INTO {table} ({}) VALUES ({}) ON CONFLICT DO NOTHING",
            cols.join(", "),
            placeholders.join(", ")
        ),
        params_from_iter(vals.iter()),
    )?;
    let cond: Vec<String> = cols
        .iter()
        .enumerate()
        .map(|(i, c)| format!("{c} = ?{}", i + 1))
        .collect();
    Ok(tx.query_row(
        &format!("SELECT id FROM {table} WHERE {}", cond.join(" AND ")),
        params_from_iter(vals.iter()),
        |r| r.get(0),
    )?)
}

/// `LIKE` pattern matching `s` anywhere, with `\` escaping the wildcards in `s`.
fn contains_pattern(s: &str) -> String {
    let mut p = String::from("%");
    for c in s.chars() {
        if matches!(c, '%' | '_' | '\\') {
            p.push('\\');
        }
        p.push(c);
    }
    p.push('%');
    p
}

fn where_clause(f: &Filter) -> Result<(String, Vec<String>)> {
    let mut conds = Vec::new();
    let mut args = Vec::new();
    let mut push = |cond: &str, arg: String| {
        args.push(arg);
        conds.push(cond.replace('?', &format!("?{}", args.len())));
    };
    if let Some(t) = &f.test {
        push("t.name LIKE ? ESCAPE '\\'", contains_pattern(t));
    }
    if let Some(d) = &f.device {
        push("d.name LIKE ? ESCAPE '\\'", contains_pattern(d));
    }
    if let Some(b) = &f.backend {
        push("d.backend = ?", b.clone());
    }
    if let Some(k) = &f.kind {
        push("r.kind = ?", k.clone());
    }
    if let Some(s) = &f.since {
        if !time::is_prefix(s) {
            return Err(StoreError::Invalid(format!(
                "since `{s}` is not a date or time like 2025-03-01 or 2025-03-01T12:00:00Z"
            )));
        }
        push("r.started_at >= ?", s.clone());
    }
    let clause = if conds.is_empty() {
        String::new()
    } else {
        format!("WHERE {}", conds.join(" AND "))
    };
    Ok((clause, args))
}

fn limit_clause(f: &Filter) -> String {
    match f.limit {
        Some(n) => format!(" LIMIT {n}"),
        None => String::new(),
    }
}

/// The runs of the database `db` (default: [`Store::default_path`]) that `filter` selects,
/// with the database's path, for the commands that only read one (`weft analyze`, `weft
/// submit`). `Err((bad_input, message))`: no default path or a database that cannot be
/// opened is bad input; a failed read is not.
pub fn read_runs(
    db: Option<PathBuf>,
    filter: &Filter,
) -> std::result::Result<(PathBuf, Vec<StoredRun>), (bool, String)> {
    let path = match db {
        Some(p) => p,
        None => Store::default_path().map_err(|e| (true, e.to_string()))?,
    };
    let store =
        Store::open_existing(&path).map_err(|e| (true, format!("results database: {e}")))?;
    let runs = store
        .stored_runs(filter)
        .map_err(|e| (false, format!("results database: {e}")))?;
    Ok((path, runs))
}
