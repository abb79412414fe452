//! The campaign's database behind the async handlers: the results database of
//! `weft-store` (SQLite, migrated on open) used from blocking tasks, one writer at a time.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use weft_store::{
    Filter, RunRecord, RunSummary, Store, StoreError, StoredRun, StoredSubmission, Submission,
};

/// An open campaign database.
#[derive(Clone)]
pub struct Db {
    store: Arc<Mutex<Store>>,
    path: PathBuf,
}

/// A database failure, as text (logged, and reported as a 500).
#[derive(Debug)]
pub struct DbError(pub String);

impl From<StoreError> for DbError {
    fn from(e: StoreError) -> Self {
        DbError(e.to_string())
    }
}

impl Db {
    /// Opens (creating and migrating) the SQLite database at `path`.
    pub fn open_sqlite(path: PathBuf) -> Result<Db, DbError> {
        let store = Store::open(&path)?;
        Ok(Db {
            store: Arc::new(Mutex::new(store)),
            path,
        })
    }

    pub fn describe(&self) -> String {
        format!("sqlite {}", self.path.display())
    }

    async fn with<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Store) -> Result<T, StoreError> + Send + 'static,
    ) -> Result<T, DbError> {
        let store = self.store.clone();
        tokio::task::spawn_blocking(move || {
            let mut s = store
                .lock()
                .map_err(|_| DbError("database lock poisoned".into()))?;
            f(&mut s).map_err(DbError::from)
        })
        .await
        .map_err(|e| DbError(format!("database task failed: {e}")))?
    }

    /// Stores a submission once under its key: `(submission id, run ids, newly stored)`.
    pub async fn submit(
        &self,
        sub: Submission,
        runs: Vec<RunRecord>,
    ) -> Result<Result<(i64, Vec<i64>, bool), String>, DbError> {
        self.with(move |s| match s.record_submission(&sub, &runs) {
            Ok(r) => Ok(Ok(r)),
            Err(StoreError::Invalid(m)) => Ok(Err(m)),
            Err(e) => Err(e),
        })
        .await
    }

    pub async fn summaries(&self, f: Filter) -> Result<Vec<RunSummary>, DbError> {
        self.with(move |s| s.runs(&f)).await
    }

    pub async fn stored_runs(&self, f: Filter) -> Result<Vec<StoredRun>, DbError> {
        self.with(move |s| s.stored_runs(&f)).await
    }

    pub async fn run(&self, id: i64) -> Result<Option<RunRecord>, DbError> {
        self.with(move |s| s.run(id)).await
    }

    pub async fn submissions(&self) -> Result<Vec<StoredSubmission>, DbError> {
        self.with(|s| s.submissions()).await
    }

    pub async fn submission_runs(&self, id: i64) -> Result<Vec<i64>, DbError> {
        self.with(move |s| s.submission_run_ids(id)).await
    }

    pub async fn counts(&self) -> Result<(u64, u64), DbError> {
        self.with(|s| s.counts()).await
    }

    pub async fn export_csv(&self, f: Filter) -> Result<Vec<u8>, DbError> {
        self.with(move |s| {
            let mut out = Vec::new();
            s.export_csv(&f, &mut out)?;
            Ok(out)
        })
        .await
    }
}
