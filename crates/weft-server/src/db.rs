//! The campaign's database behind the async handlers: the results database of
//! `weft-store` (SQLite, migrated on open, used from blocking tasks one writer at a time),
//! or PostgreSQL ([`crate::pg`]) for a shared campaign server.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use weft_store::{
    Filter, RunRecord, RunSummary, Store, StoreError, StoredRun, StoredSubmission, Submission,
};

use crate::pg::Pg;

/// An open campaign database.
#[derive(Clone)]
pub enum Db {
    Sqlite {
        store: Arc<Mutex<Store>>,
        path: PathBuf,
        /// The file opened (device and inode on Unix): a file deleted or replaced while
        /// serving is noticed by [`Db::check`].
        identity: Option<(u64, u64)>,
    },
    Postgres(Arc<Pg>),
}

/// A database failure, as text (logged, and reported as a 500).
#[derive(Debug)]
pub struct DbError(pub String);

impl From<StoreError> for DbError {
    fn from(e: StoreError) -> Self {
        DbError(e.to_string())
    }
}

/// The device and inode of a file (`Some((0, 0))` where the platform has none), or
/// `None` when there is no file.
fn file_identity(path: &std::path::Path) -> Option<(u64, u64)> {
    let m = std::fs::metadata(path).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        Some((m.dev(), m.ino()))
    }
    #[cfg(not(unix))]
    {
        let _ = m;
        Some((0, 0))
    }
}

/// A run's summary line from its full record (what `Store::runs` lists).
fn summary(s: &StoredRun) -> RunSummary {
    let r = &s.run;
    let sum = |f: &dyn Fn(&weft_store::OutcomeRecord) -> bool| -> u64 {
        r.outcomes.iter().filter(|o| f(o)).map(|o| o.count).sum()
    };
    RunSummary {
        id: s.id,
        started_at: r.started_at.clone(),
        kind: r.kind.clone(),
        label: r.label.clone(),
        backend: r.device.backend.clone(),
        device: r.device.name.clone(),
        test: r.test.name.clone(),
        stress_name: r.stress_name.clone(),
        seed: r.seed,
        instances: r.instances,
        model: r.model.clone(),
        seq: sum(&|o| o.class == "seq"),
        interleaved: sum(&|o| o.class == "interleaved"),
        weak: sum(&|o| o.class == "weak"),
        forbidden: sum(&|o| o.model_verdict.as_deref() == Some("forbidden")),
        duration_ms: r.duration_ms,
    }
}

impl Db {
    /// Opens (creating and migrating) the SQLite database at `path`.
    pub fn open_sqlite(path: PathBuf) -> Result<Db, DbError> {
        let store = Store::open(&path)?;
        Ok(Db::Sqlite {
            store: Arc::new(Mutex::new(store)),
            identity: file_identity(&path),
            path,
        })
    }

    /// Connects to PostgreSQL (creating the schema in an empty database).
    pub async fn open_postgres(url: &str) -> Result<Db, DbError> {
        Ok(Db::Postgres(Arc::new(Pg::connect(url).await?)))
    }

    /// Whether the database is still the one opened: for SQLite, the file is still at its
    /// path (deleting it would leave the server writing into a file nobody can read).
    pub fn check(&self) -> Result<(), String> {
        match self {
            Db::Sqlite { path, identity, .. } => match file_identity(path) {
                None => Err(format!("the database file {} is gone", path.display())),
                Some(id) if identity.is_some_and(|i| i != id) => {
                    Err(format!("the database file {} was replaced", path.display()))
                }
                Some(_) => Ok(()),
            },
            Db::Postgres(_) => Ok(()),
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Db::Sqlite { path, .. } => format!("sqlite {}", path.display()),
            Db::Postgres(p) => p.desc.clone(),
        }
    }

    async fn with<T: Send + 'static>(
        store: &Arc<Mutex<Store>>,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, DbError> {
        let store = store.clone();
        tokio::task::spawn_blocking(move || {
            let mut s = store
                .lock()
                .map_err(|_| DbError("database lock poisoned".into()))?;
            f(&mut s).map_err(DbError::from)
        })
        .await
        .map_err(|e| DbError(format!("database task failed: {e}")))?
    }

    /// Stores a submission once under its key: `(submission id, run ids, newly stored)`;
    /// the inner `Err` is a refusal (a key reused for other content).
    pub async fn submit(
        &self,
        sub: Submission,
        runs: Vec<RunRecord>,
    ) -> Result<Result<(i64, Vec<i64>, bool), String>, DbError> {
        match self {
            Db::Sqlite { store, .. } => {
                Self::with(store, move |s| match s.record_submission(&sub, &runs) {
                    Ok(r) => Ok(Ok(r)),
                    Err(StoreError::Invalid(m)) => Ok(Err(m)),
                    Err(e) => Err(e),
                })
                .await
            }
            Db::Postgres(p) => p.submit(&sub, &runs).await,
        }
    }

    pub async fn summaries(&self, f: Filter) -> Result<Vec<RunSummary>, DbError> {
        match self {
            Db::Sqlite { store, .. } => Self::with(store, move |s| s.runs(&f)).await,
            Db::Postgres(p) => Ok(p.stored_runs(&f).await?.iter().map(summary).collect()),
        }
    }

    pub async fn stored_runs(&self, f: Filter) -> Result<Vec<StoredRun>, DbError> {
        match self {
            Db::Sqlite { store, .. } => Self::with(store, move |s| s.stored_runs(&f)).await,
            Db::Postgres(p) => p.stored_runs(&f).await,
        }
    }

    pub async fn run(&self, id: i64) -> Result<Option<RunRecord>, DbError> {
        match self {
            Db::Sqlite { store, .. } => Self::with(store, move |s| s.run(id)).await,
            Db::Postgres(p) => p.run(id).await,
        }
    }

    pub async fn submissions(&self) -> Result<Vec<StoredSubmission>, DbError> {
        match self {
            Db::Sqlite { store, .. } => Self::with(store, |s| s.submissions()).await,
            Db::Postgres(p) => p.submissions().await,
        }
    }

    pub async fn submission_runs(&self, id: i64) -> Result<Vec<i64>, DbError> {
        match self {
            Db::Sqlite { store, .. } => Self::with(store, move |s| s.submission_run_ids(id)).await,
            Db::Postgres(p) => p.submission_runs(id).await,
        }
    }

    /// Deletes a submission with its runs: `None` when there is none, else the runs.
    pub async fn delete_submission(&self, id: i64) -> Result<Option<usize>, DbError> {
        match self {
            Db::Sqlite { store, .. } => Self::with(store, move |s| s.delete_submission(id)).await,
            Db::Postgres(p) => p.delete_submission(id).await,
        }
    }

    pub async fn counts(&self) -> Result<(u64, u64), DbError> {
        match self {
            Db::Sqlite { store, .. } => Self::with(store, |s| s.counts()).await,
            Db::Postgres(p) => p.counts().await,
        }
    }

    pub async fn export_csv(&self, f: Filter) -> Result<Vec<u8>, DbError> {
        let runs = self.stored_runs(f).await?;
        let mut out = Vec::new();
        weft_store::write_csv(&runs, &mut out)?;
        Ok(out)
    }
}
