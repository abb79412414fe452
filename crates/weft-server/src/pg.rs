//! The campaign database on PostgreSQL (`weft serve --db postgres://...`), through
//! tokio-postgres: the schema of `weft_store::schema::POSTGRES_SQL` (the same model as the
//! SQLite results database, version 2), created on first start, and a version 1 database
//! migrated on start (`sql/postgres-1-to-2.sql`); submissions stored in one
//! transaction under their idempotency key; runs read back as `weft_store` records.
//! Identifiers are `BIGINT`s; integers over `i64::MAX` are refused before they get here
//! (`submit::validate`), as SQLite's store refuses them.
//!
//! Connections come from a pool (deadpool-postgres; each checked on the way out, so a
//! connection the server dropped is replaced); a submission is one transaction of a few
//! round trips (its devices, tests and configurations looked up once, its runs inserted
//! pipelined, all outcomes in one statement). Several `weft serve` replicas may share one
//! database: the schema is created or migrated under an advisory lock, and two
//! submissions racing for one idempotency key store it once.

use std::collections::hash_map::Entry;
use std::collections::HashMap;

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use tokio_postgres::types::ToSql;
use tokio_postgres::NoTls;
use weft_store::{
    canonical_json, DeviceRecord, Filter, OutcomeRecord, RunRecord, StoredRun, StoredSubmission,
    Submission, TestRecord,
};

use crate::db::DbError;

/// An open PostgreSQL campaign database: a pool of connections.
pub struct Pg {
    pool: Pool,
    pub desc: String,
}

/// Most connections one server holds.
pub const POOL_SIZE: usize = 16;

/// The advisory lock key under which servers create or migrate the schema.
const SCHEMA_LOCK: i64 = 0x7765_6674_5f73_6368; // "weft_sch"

fn e(err: tokio_postgres::Error) -> DbError {
    DbError(format!("postgres: {err}"))
}

/// A `u64` as a `BIGINT` (values over `i64::MAX` are refused by validation; here they
/// would be an internal error rather than a negative number).
fn i(v: u64) -> Result<i64, DbError> {
    i64::try_from(v).map_err(|_| DbError(format!("{v} exceeds BIGINT")))
}

/// Migration 1 -> 2 of a PostgreSQL campaign database (`sql/postgres-1-to-2.sql`).
pub const MIGRATE_1_TO_2: &str = include_str!("../sql/postgres-1-to-2.sql");

/// The database's schema version (0 when the version table is empty).
async fn version(c: &impl tokio_postgres::GenericClient) -> Result<i32, DbError> {
    Ok(c.query_one("SELECT MAX(version) FROM schema_version", &[])
        .await
        .map_err(e)?
        .get::<_, Option<i32>>(0)
        .unwrap_or(0))
}

impl Pg {
    /// Connects, creates the schema when the database has none and migrates a database of
    /// an older schema (version 1, before the campaign server) to the current one.
    pub async fn connect(url: &str) -> Result<Pg, DbError> {
        let cfg: tokio_postgres::Config = url
            .parse()
            .map_err(|err| DbError(format!("postgres: {err}")))?;
        let mgr = Manager::from_config(
            cfg,
            NoTls,
            ManagerConfig {
                recycling_method: RecyclingMethod::Verified,
            },
        );
        let pool = Pool::builder(mgr)
            .max_size(POOL_SIZE)
            .wait_timeout(Some(std::time::Duration::from_secs(30)))
            .create_timeout(Some(std::time::Duration::from_secs(10)))
            .runtime(deadpool_postgres::Runtime::Tokio1)
            .build()
            .map_err(|err| DbError(format!("postgres: {err}")))?;
        let mut client = pool
            .get()
            .await
            .map_err(|err| DbError(format!("postgres: {err}")))?;
        // One server at a time creates or migrates the schema; the others wait and find
        // it done.
        client
            .execute("SELECT pg_advisory_lock($1)", &[&SCHEMA_LOCK])
            .await
            .map_err(e)?;
        let r = Self::prepare_schema(&mut client).await;
        client
            .execute("SELECT pg_advisory_unlock($1)", &[&SCHEMA_LOCK])
            .await
            .map_err(e)?;
        r?;
        drop(client);
        let host = url.rsplit('@').next().unwrap_or(url);
        Ok(Pg {
            pool,
            desc: format!("postgres {host}"),
        })
    }

    async fn prepare_schema(client: &mut deadpool_postgres::Client) -> Result<(), DbError> {
        let has: bool = client
            .query_one(
                "SELECT EXISTS (SELECT 1 FROM information_schema.tables \
                 WHERE table_schema = current_schema() AND table_name = 'schema_version')",
                &[],
            )
            .await
            .map_err(e)?
            .get(0);
        if !has {
            client
                .batch_execute(&format!(
                    "BEGIN;\n{}\nCOMMIT;",
                    weft_store::schema::POSTGRES_SQL
                ))
                .await
                .map_err(e)?;
        }
        let mut v = version(&***client).await?;
        if v == 1 {
            // One transaction, with the version table locked (servers of an older weft
            // take no advisory lock).
            let tx = client.transaction().await.map_err(e)?;
            tx.batch_execute("LOCK TABLE schema_version IN ACCESS EXCLUSIVE MODE")
                .await
                .map_err(e)?;
            if version(&*tx).await? == 1 {
                tx.batch_execute(MIGRATE_1_TO_2).await.map_err(e)?;
            }
            tx.commit().await.map_err(e)?;
            v = version(&***client).await?;
        }
        if v as i64 != weft_store::schema::SCHEMA_VERSION {
            return Err(DbError(format!(
                "postgres: schema version {v}, this weft uses {}",
                weft_store::schema::SCHEMA_VERSION
            )));
        }
        Ok(())
    }

    /// A connection from the pool.
    async fn client(&self) -> Result<deadpool_postgres::Client, DbError> {
        self.pool
            .get()
            .await
            .map_err(|err| DbError(format!("postgres pool: {err}")))
    }

    /// Stores a submission once under its key (see `weft_store::Store::record_submission`).
    pub async fn submit(
        &self,
        sub: &Submission,
        runs: &[RunRecord],
    ) -> Result<Result<(i64, Vec<i64>, bool), String>, DbError> {
        for r in runs {
            if let Err(m) = weft_store::validate(r) {
                return Ok(Err(m.to_string()));
            }
        }
        let mut c = self.client().await?;
        let tx = c.transaction().await.map_err(e)?;
        let id = match claim(&tx, sub).await? {
            Claim::Claimed(id) => id,
            Claim::Done(answer) => return Ok(answer),
        };
        let keys = Keys::upsert(&tx, runs).await?;
        let ids = insert_runs(&tx, runs, &keys, id).await?;
        insert_outcomes(&tx, runs, &ids).await?;
        tx.commit().await.map_err(e)?;
        Ok(Ok((id, ids, true)))
    }

    /// The runs `f` selects, oldest first (the most recent `limit`).
    pub async fn stored_runs(&self, f: &Filter) -> Result<Vec<StoredRun>, DbError> {
        self.select_runs(f, None).await
    }

    /// The run with this id.
    pub async fn run(&self, id: i64) -> Result<Option<RunRecord>, DbError> {
        Ok(self
            .select_runs(&Filter::default(), Some(id))
            .await?
            .pop()
            .map(|s| s.run))
    }

    async fn select_runs(&self, f: &Filter, only: Option<i64>) -> Result<Vec<StoredRun>, DbError> {
        let mut conds = Vec::new();
        let mut args: Vec<Box<dyn ToSql + Sync + Send>> = Vec::new();
        let mut push = |cond: &str, arg: Box<dyn ToSql + Sync + Send>| {
            args.push(arg);
            conds.push(cond.replace('?', &format!("${}", args.len())));
        };
        let like = |s: &str| {
            let mut p = String::from("%");
            for ch in s.chars() {
                if matches!(ch, '%' | '_' | '\\') {
                    p.push('\\');
                }
                p.push(ch);
            }
            p + "%"
        };
        if let Some(t) = &f.test {
            push("t.name LIKE ? ESCAPE '\\'", Box::new(like(t)));
        }
        if let Some(d) = &f.device {
            push("d.name LIKE ? ESCAPE '\\'", Box::new(like(d)));
        }
        if let Some(b) = &f.backend {
            push("d.backend = ?", Box::new(b.clone()));
        }
        if let Some(k) = &f.kind {
            push("r.kind = ?", Box::new(k.clone()));
        }
        if let Some(s) = &f.since {
            if !weft_store::is_prefix(s) {
                return Err(DbError(format!("since `{s}` is not a date or time")));
            }
            push("r.started_at >= ?", Box::new(s.clone()));
        }
        if let Some(id) = only {
            push("r.id = ?", Box::new(id));
        }
        let clause = if conds.is_empty() {
            String::new()
        } else {
            format!("WHERE {}", conds.join(" AND "))
        };
        let limit = f.limit.map(|n| format!(" LIMIT {n}")).unwrap_or_default();
        let sql = format!(
            "SELECT r.id, r.kind, r.label, r.started_at, r.duration_ms, d.backend, d.name, \
             d.vendor, d.driver, d.api, d.architecture, d.browser, d.os, r.device_extra, t.name, \
             r.test_path, t.format, t.digest, r.stress_name, c.config, r.seed, r.iterations, \
             r.instances, r.model, r.weft_version \
             FROM runs r JOIN devices d ON d.id = r.device_id JOIN tests t ON t.id = r.test_id \
             JOIN stress_configs c ON c.id = r.stress_config_id {clause} \
             ORDER BY r.started_at DESC, r.id DESC{limit}"
        );
        let params: Vec<&(dyn ToSql + Sync)> =
            args.iter().map(|a| &**a as &(dyn ToSql + Sync)).collect();
        let c = self.client().await?;
        let rows = c.query(&sql, &params).await.map_err(e)?;
        let ids: Vec<i64> = rows.iter().map(|r| r.get(0)).collect();
        let mut outcomes: HashMap<i64, Vec<OutcomeRecord>> = HashMap::new();
        for o in c
            .query(
                "SELECT run_id, outcome, class, model_verdict, count FROM outcomes \
                 WHERE run_id = ANY($1) ORDER BY run_id, position",
                &[&ids],
            )
            .await
            .map_err(e)?
        {
            outcomes.entry(o.get(0)).or_default().push(OutcomeRecord {
                outcome: o.get(1),
                class: o.get(2),
                model_verdict: o.get(3),
                count: o.get::<_, i64>(4) as u64,
            });
        }
        let json = |s: String| serde_json::from_str(&s).unwrap_or(serde_json::Value::Null);
        let mut out: Vec<StoredRun> = rows
            .into_iter()
            .map(|r| {
                let id: i64 = r.get(0);
                StoredRun {
                    id,
                    run: RunRecord {
                        kind: r.get(1),
                        label: r.get(2),
                        started_at: r.get(3),
                        duration_ms: r.get::<_, i64>(4) as u64,
                        device: DeviceRecord {
                            backend: r.get(5),
                            name: r.get(6),
                            vendor: r.get(7),
                            driver: r.get(8),
                            api: r.get(9),
                            architecture: r.get(10),
                            browser: r.get(11),
                            os: r.get(12),
                            extra: json(r.get(13)),
                        },
                        test: TestRecord {
                            name: r.get(14),
                            path: r.get(15),
                            format: r.get(16),
                            digest: r.get(17),
                        },
                        stress_name: r.get(18),
                        stress_config: json(r.get(19)),
                        seed: r.get::<_, i64>(20) as u64,
                        iterations: r.get::<_, i64>(21) as u64,
                        instances: r.get::<_, i64>(22) as u64,
                        model: r.get(23),
                        weft_version: r.get(24),
                        outcomes: outcomes.remove(&id).unwrap_or_default(),
                    },
                }
            })
            .collect();
        out.reverse();
        Ok(out)
    }

    pub async fn submissions(&self) -> Result<Vec<StoredSubmission>, DbError> {
        let c = self.client().await?;
        let rows = c
            .query(
                "SELECT s.id, s.idempotency_key, s.client, s.received_at, s.digest, s.contact, \
                 COUNT(r.id) FROM submissions s LEFT JOIN runs r ON r.submission_id = s.id \
                 GROUP BY s.id, s.idempotency_key, s.client, s.received_at, s.digest, s.contact \
                 ORDER BY s.id",
                &[],
            )
            .await
            .map_err(e)?;
        Ok(rows
            .iter()
            .map(|r| StoredSubmission {
                id: r.get(0),
                submission: Submission {
                    idempotency_key: r.get(1),
                    client: r.get(2),
                    received_at: r.get(3),
                    digest: r.get(4),
                    contact: r.get(5),
                },
                runs: r.get::<_, i64>(6) as u64,
            })
            .collect())
    }

    pub async fn submission_runs(&self, id: i64) -> Result<Vec<i64>, DbError> {
        let c = self.client().await?;
        Ok(c.query(
            "SELECT id FROM runs WHERE submission_id = $1 ORDER BY id",
            &[&id],
        )
        .await
        .map_err(e)?
        .iter()
        .map(|r| r.get(0))
        .collect())
    }

    /// Deletes a submission with its runs and outcomes (see
    /// `weft_store::Store::delete_submission`).
    pub async fn delete_submission(&self, id: i64) -> Result<Option<usize>, DbError> {
        let mut c = self.client().await?;
        let tx = c.transaction().await.map_err(e)?;
        let exists = tx
            .query_opt(
                "SELECT id FROM submissions WHERE id = $1 FOR UPDATE",
                &[&id],
            )
            .await
            .map_err(e)?
            .is_some();
        if !exists {
            return Ok(None);
        }
        tx.execute(
            "DELETE FROM outcomes WHERE run_id IN (SELECT id FROM runs WHERE submission_id = $1)",
            &[&id],
        )
        .await
        .map_err(e)?;
        let runs = tx
            .execute("DELETE FROM runs WHERE submission_id = $1", &[&id])
            .await
            .map_err(e)?;
        tx.execute("DELETE FROM submissions WHERE id = $1", &[&id])
            .await
            .map_err(e)?;
        tx.commit().await.map_err(e)?;
        Ok(Some(runs as usize))
    }

    pub async fn counts(&self) -> Result<(u64, u64), DbError> {
        let c = self.client().await?;
        let r = c
            .query_one(
                "SELECT (SELECT COUNT(*) FROM runs), (SELECT COUNT(*) FROM submissions)",
                &[],
            )
            .await
            .map_err(e)?;
        Ok((r.get::<_, i64>(0) as u64, r.get::<_, i64>(1) as u64))
    }
}

async fn upsert(
    tx: &tokio_postgres::Transaction<'_>,
    table: &str,
    cols: &[&str],
    vals: &[&String],
) -> Result<i64, DbError> {
    let ph: Vec<String> = (1..=cols.len()).map(|k| format!("${k}")).collect();
    let params: Vec<&(dyn ToSql + Sync)> = vals.iter().map(|v| *v as &(dyn ToSql + Sync)).collect();
    tx.execute(
        &format!(
            "INSERT INTO {table} ({}) VALUES ({}) ON CONFLICT DO NOTHING",
            cols.join(", "),
            ph.join(", ")
        ),
        &params,
    )
    .await
    .map_err(e)?;
    let cond: Vec<String> = cols
        .iter()
        .enumerate()
        .map(|(k, c)| format!("{c} = ${}", k + 1))
        .collect();
    Ok(tx
        .query_one(
            &format!("SELECT id FROM {table} WHERE {}", cond.join(" AND ")),
            &params,
        )
        .await
        .map_err(e)?
        .get(0))
}

/// A submission's key: claimed now (the new submission's id), or already used (the answer).
enum Claim {
    Claimed(i64),
    Done(Result<(i64, Vec<i64>, bool), String>),
}

/// Claims the submission's idempotency key; a concurrent transaction holding it makes this
/// one wait for its outcome, then find its row.
async fn claim(tx: &tokio_postgres::Transaction<'_>, sub: &Submission) -> Result<Claim, DbError> {
    let claimed = tx
        .query_opt(
            "INSERT INTO submissions (idempotency_key, client, received_at, digest, contact) \
             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
            &[
                &sub.idempotency_key,
                &sub.client,
                &sub.received_at,
                &sub.digest,
                &sub.contact,
            ],
        )
        .await
        .map_err(e)?;
    Ok(match claimed {
        Some(row) => Claim::Claimed(row.get(0)),
        None => {
            let row = tx
                .query_one(
                    "SELECT id, digest FROM submissions WHERE idempotency_key = $1",
                    &[&sub.idempotency_key],
                )
                .await
                .map_err(e)?;
            let (id, digest): (i64, String) = (row.get(0), row.get(1));
            if digest != sub.digest {
                return Ok(Claim::Done(Err(format!(
                    "idempotency key `{}` was already used for a different submission",
                    sub.idempotency_key
                ))));
            }
            let ids = tx
                .query(
                    "SELECT id FROM runs WHERE submission_id = $1 ORDER BY id",
                    &[&id],
                )
                .await
                .map_err(e)?
                .iter()
                .map(|r| r.get(0))
                .collect();
            Claim::Done(Ok((id, ids, false)))
        }
    })
}

/// The ids of the distinct devices, tests and stress configurations of a submission's runs.
struct Keys {
    devices: HashMap<Vec<String>, i64>,
    tests: HashMap<[String; 3], i64>,
    configs: HashMap<String, i64>,
}

impl Keys {
    /// Looks up (inserting when new) each distinct device, test and configuration once.
    async fn upsert(
        tx: &tokio_postgres::Transaction<'_>,
        runs: &[RunRecord],
    ) -> Result<Keys, DbError> {
        let mut devices: HashMap<Vec<String>, i64> = HashMap::new();
        let mut tests: HashMap<[String; 3], i64> = HashMap::new();
        let mut configs: HashMap<String, i64> = HashMap::new();
        for r in runs {
            let (cols, vals) = r.device.key();
            let key: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
            if let Entry::Vacant(slot) = devices.entry(key) {
                slot.insert(upsert(tx, "devices", &cols, &vals).await?);
            }
            let t = &r.test;
            let tkey = [t.name.clone(), t.format.clone(), t.digest.clone()];
            if let Entry::Vacant(slot) = tests.entry(tkey) {
                slot.insert(
                    upsert(
                        tx,
                        "tests",
                        &["name", "format", "digest"],
                        &[&t.name, &t.format, &t.digest],
                    )
                    .await?,
                );
            }
            let config = canonical_json(&r.stress_config);
            if let Entry::Vacant(slot) = configs.entry(config.clone()) {
                slot.insert(upsert(tx, "stress_configs", &["config"], &[&config]).await?);
            }
        }
        Ok(Keys {
            devices,
            tests,
            configs,
        })
    }
}

/// Inserts the runs, pipelined on the connection (one statement, prepared once): their ids.
async fn insert_runs(
    tx: &tokio_postgres::Transaction<'_>,
    runs: &[RunRecord],
    keys: &Keys,
    id: i64,
) -> Result<Vec<i64>, DbError> {
    let Keys {
        devices,
        tests,
        configs,
    } = keys;
    let insert = tx
        .prepare(
            "INSERT INTO runs (kind, label, started_at, duration_ms, device_id, device_extra, \
             test_id, test_path, stress_name, stress_config_id, seed, iterations, instances, \
             model, weft_version, submission_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, \
             $10, $11, $12, $13, $14, $15, $16) RETURNING id",
        )
        .await
        .map_err(e)?;
    struct Row {
        duration: i64,
        device: i64,
        extra: String,
        test: i64,
        config: i64,
        seed: i64,
        iterations: i64,
        instances: i64,
    }
    let mut rows = Vec::with_capacity(runs.len());
    for r in runs {
        let (_, vals) = r.device.key();
        let key: Vec<String> = vals.iter().map(|v| v.to_string()).collect();
        let t = &r.test;
        rows.push(Row {
            duration: i(r.duration_ms)?,
            device: devices[&key],
            extra: canonical_json(&r.device.extra),
            test: tests[&[t.name.clone(), t.format.clone(), t.digest.clone()]],
            config: configs[&canonical_json(&r.stress_config)],
            seed: i(r.seed)?,
            iterations: i(r.iterations)?,
            instances: i(r.instances)?,
        });
    }
    let params: Vec<Vec<&(dyn ToSql + Sync)>> = runs
        .iter()
        .zip(&rows)
        .map(|(r, w)| {
            vec![
                &r.kind as &(dyn ToSql + Sync),
                &r.label,
                &r.started_at,
                &w.duration,
                &w.device,
                &w.extra,
                &w.test,
                &r.test.path,
                &r.stress_name,
                &w.config,
                &w.seed,
                &w.iterations,
                &w.instances,
                &r.model,
                &r.weft_version,
                &id,
            ]
        })
        .collect();
    let inserted =
        futures_util::future::try_join_all(params.iter().map(|p| tx.query_one(&insert, p)))
            .await
            .map_err(e)?;
    let ids: Vec<i64> = inserted.iter().map(|row| row.get(0)).collect();
    Ok(ids)
}

/// Inserts every outcome of every run in one statement.
async fn insert_outcomes(
    tx: &tokio_postgres::Transaction<'_>,
    runs: &[RunRecord],
    ids: &[i64],
) -> Result<(), DbError> {
    let (mut o_run, mut o_pos, mut o_text, mut o_class, mut o_verdict, mut o_count) =
        (vec![], vec![], vec![], vec![], vec![], vec![]);
    for (r, run_id) in runs.iter().zip(ids) {
        for (pos, o) in r.outcomes.iter().enumerate() {
            o_run.push(*run_id);
            o_pos.push(pos as i32);
            o_text.push(o.outcome.clone());
            o_class.push(o.class.clone());
            o_verdict.push(o.model_verdict.clone());
            o_count.push(i(o.count)?);
        }
    }
    tx.execute(
        "INSERT INTO outcomes (run_id, position, outcome, class, model_verdict, count) \
         SELECT * FROM UNNEST($1::BIGINT[], $2::INTEGER[], $3::TEXT[], $4::TEXT[], $5::TEXT[], $6::BIGINT[])",
        &[&o_run, &o_pos, &o_text, &o_class, &o_verdict, &o_count],
    )
    .await
    .map_err(e)?;
    Ok(())
}
