//! weft's campaign server (issue 16; paper 001 §3-5): the web app (embedded, built from
//! `web/`) at `/` and a JSON API under `/api/` over a results database.
//!
//! API (all JSON; errors are `{"error": "..."}` with a 4xx/5xx status):
//! - `GET /api/health`: version, database, counts.
//! - `GET /api/tests`, `GET /api/tests/{name}`: the campaign's tests (GPUHarbor corpus),
//!   one with its source, threads, SC outcomes and pairs.
//! - `GET /api/presets`; `GET /api/configs?seed=S&n=N&limits=L`: GPUHarbor's seeded
//!   tuning configurations (the generator of `weft tune`).
//! - `POST /api/spec`: a run specification (shaders, layout, dispatch plans), see [`spec`].
//! - `POST /api/submissions`: store results, see [`submit`]; idempotent by key;
//!   rate-limited per client address. `GET /api/submissions`, `GET /api/submissions/{id}`.
//! - `GET /api/runs?test=&device=&kind=&limit=`, `GET /api/runs/{id}`.
//! - `GET /api/analyses?seed=S&k=K&pair=A,B`: paper 001 §4-5 ([`weft_analyze`]).
//! - `GET /api/export.csv`, `GET /api/export.json`.
//!
//! Nothing can be edited or deleted through the API.

pub mod catalog;
pub mod client;
pub mod db;
pub mod pg;
pub mod spec;
pub mod submit;

use std::net::{IpAddr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::Arc;

use axum::extract::{ConnectInfo, DefaultBodyLimit, Path, Query, State};
use axum::http::{header, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use rust_embed::RustEmbed;
use serde::Deserialize;
use weft_store::{Filter, Submission};
use weft_stress::Preset;

pub use catalog::Catalog;
pub use db::Db;

#[derive(RustEmbed)]
#[folder = "../../web/dist/"]
struct WebApp;

/// Largest request body accepted (bytes).
pub const MAX_BODY: usize = 8 << 20;

/// Server settings.
#[derive(Clone, Debug)]
pub struct Settings {
    /// Submissions per minute per client address (the sustained rate).
    pub submissions_per_minute: u32,
    /// Submissions one client may send at once before being limited.
    pub burst: u32,
    /// Run specifications (shader generation) per minute per client address; bursts of
    /// the same size.
    pub specs_per_minute: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            submissions_per_minute: 60,
            burst: 120,
            specs_per_minute: 1200,
        }
    }
}

/// Shared state of the handlers.
pub struct AppState {
    pub db: Db,
    pub catalog: Catalog,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    spec_limiter: DefaultKeyedRateLimiter<IpAddr>,
}

type Shared = Arc<AppState>;

/// An API error: a status and a message.
pub struct ApiError(StatusCode, String);

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.0, Json(serde_json::json!({"error": self.1}))).into_response()
    }
}

impl From<db::DbError> for ApiError {
    fn from(e: db::DbError) -> Self {
        eprintln!("weft serve: database error: {}", e.0);
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            format!("database: {}", e.0),
        )
    }
}

fn bad(m: impl Into<String>) -> ApiError {
    ApiError(StatusCode::BAD_REQUEST, m.into())
}

type ApiResult = Result<Response, ApiError>;

/// Builds the state: the embedded corpus and the database.
pub fn state(db: Db, settings: &Settings) -> Result<Shared, String> {
    let catalog = Catalog::load()?;
    let per_min =
        NonZeroU32::new(settings.submissions_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
    let burst = NonZeroU32::new(settings.burst.max(1)).unwrap_or(NonZeroU32::MIN);
    let limiter = RateLimiter::keyed(Quota::per_minute(per_min).allow_burst(burst));
    let specs = NonZeroU32::new(settings.specs_per_minute.max(1)).unwrap_or(NonZeroU32::MIN);
    let spec_limiter = RateLimiter::keyed(Quota::per_minute(specs));
    Ok(Arc::new(AppState {
        db,
        catalog,
        limiter,
        spec_limiter,
    }))
}

/// The router: the API and the embedded web app.
pub fn router(state: Shared) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .route("/api/tests", get(tests))
        .route("/api/tests/{name}", get(test))
        .route("/api/presets", get(presets))
        .route("/api/configs", get(configs))
        .route("/api/spec", post(spec_handler))
        .route("/api/submissions", post(submit_handler).get(submissions))
        .route("/api/submissions/{id}", get(submission))
        .route("/api/runs", get(runs))
        .route("/api/runs/{id}", get(run))
        .route("/api/analyses", get(analyses))
        .route("/api/export.csv", get(export_csv))
        .route("/api/export.json", get(export_json))
        .fallback(asset)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(refuse_large))
        .with_state(state)
}

/// Serves until the process is stopped (Ctrl-C ends it cleanly).
pub async fn serve(listener: tokio::net::TcpListener, state: Shared) -> std::io::Result<()> {
    axum::serve(
        listener,
        router(state).into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

/// Refuses a request whose declared length is over [`MAX_BODY`] before reading its body
/// (bodies without a length are cut at the limit by `DefaultBodyLimit`).
async fn refuse_large(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let declared = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_BODY as u64) {
        return ApiError(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("request body over {MAX_BODY} bytes"),
        )
        .into_response();
    }
    next.run(req).await
}

async fn health(State(s): State<Shared>) -> ApiResult {
    let (runs, subs) = s.db.counts().await?;
    Ok(Json(serde_json::json!({
        "ok": true,
        "version": env!("CARGO_PKG_VERSION"),
        "database": s.db.describe(),
        "runs": runs,
        "submissions": subs,
        "tests": s.catalog.tests.len(),
    }))
    .into_response())
}

async fn tests(State(s): State<Shared>) -> ApiResult {
    Ok(Json(s.catalog.summaries()).into_response())
}

async fn test(State(s): State<Shared>, Path(name): Path<String>) -> ApiResult {
    let e = s
        .catalog
        .get(&name)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no test `{name}`")))?;
    let outcomes: Vec<serde_json::Value> = e
        .classification
        .outcomes()
        .map(|(o, c)| {
            serde_json::json!({
                "outcome": weft_hw::judge::outcome_text(&e.program, o),
                "class": c.name(),
            })
        })
        .collect();
    // The threads as C11 litmus text (`weft show --to c`).
    let text = weft_litmus::print(&e.program, weft_litmus::Format::C)
        .unwrap_or_else(|err| format!("(cannot print: {err})"));
    Ok(Json(serde_json::json!({
        "name": e.name,
        "role": e.role,
        "gpuharbor_name": e.gpuharbor_name,
        "pairs": e.pairs,
        "digest": e.digest,
        "corpus": e.corpus,
        "tuning": e.tuning,
        "target": e.target,
        "source": e.source,
        "threads": e.program.threads.len(),
        "text": text,
        "sc_outcomes": outcomes,
        "meta": e.meta,
    }))
    .into_response())
}

async fn presets() -> ApiResult {
    let v: Vec<serde_json::Value> = Preset::all()
        .into_iter()
        .map(|(p, d)| serde_json::json!({"name": p.name(), "description": d, "config": p.config()}))
        .collect();
    Ok(Json(v).into_response())
}

#[derive(Deserialize)]
struct ConfigsQuery {
    seed: Option<String>,
    n: Option<usize>,
    limits: Option<String>,
}

async fn configs(Query(q): Query<ConfigsQuery>) -> ApiResult {
    let seed = q.seed.unwrap_or_else(|| "rbjnMzXroA".into());
    let n = q.n.unwrap_or(10);
    if n == 0 || n > 1000 || seed.is_empty() || seed.len() > 100 {
        return Err(bad("n must be in 1..=1000 and seed 1 to 100 characters"));
    }
    let limits = spec::parse_limits(q.limits.as_deref().unwrap_or("desktop")).map_err(bad)?;
    let v: Vec<serde_json::Value> = weft_stress::configs(&seed, n, limits)
        .into_iter()
        .enumerate()
        .map(|(k, c)| {
            serde_json::json!({
                "index": k,
                "stress_name": format!("tune:{seed}#{k}"),
                "seed": weft_hw::tune::run_seed(&seed, k),
                "config": c,
            })
        })
        .collect();
    Ok(Json(v).into_response())
}

#[derive(Deserialize)]
struct SpecRequest {
    test: String,
    stress: spec::StressSpec,
    seed: u64,
    iterations: u32,
    #[serde(default)]
    from: u32,
}

async fn spec_handler(
    State(s): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<SpecRequest>, axum::extract::rejection::JsonRejection>,
) -> ApiResult {
    if s.spec_limiter.check_key(&addr.ip()).is_err() {
        return Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            "too many run specifications from this address; try again in a minute".into(),
        ));
    }
    let Json(r) = body.map_err(|e| bad(e.body_text()))?;
    let e = s
        .catalog
        .get(&r.test)
        .ok_or_else(|| ApiError(StatusCode::NOT_FOUND, format!("no test `{}`", r.test)))?;
    let (name, cfg) = spec::resolve(&r.stress).map_err(bad)?;
    let v = spec::spec(e, &name, &cfg, r.seed, r.iterations, r.from)
        .map_err(|m| ApiError(StatusCode::UNPROCESSABLE_ENTITY, m))?;
    Ok(Json(v).into_response())
}

async fn submit_handler(
    State(s): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    body: Result<Json<submit::SubmissionIn>, axum::extract::rejection::JsonRejection>,
) -> ApiResult {
    if s.limiter.check_key(&addr.ip()).is_err() {
        return Err(ApiError(
            StatusCode::TOO_MANY_REQUESTS,
            "too many submissions from this address; try again in a minute".into(),
        ));
    }
    let Json(sub) = body.map_err(|e| {
        let status = e.status();
        ApiError(
            if status == StatusCode::PAYLOAD_TOO_LARGE {
                status
            } else {
                StatusCode::BAD_REQUEST
            },
            e.body_text(),
        )
    })?;
    let now = weft_store::now_utc();
    let state = s.clone();
    let sub2 = sub.clone();
    let now2 = now.clone();
    let (runs, digest) =
        tokio::task::spawn_blocking(move || submit::validate(&state.catalog, &sub2, &now2))
            .await
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
            .map_err(|r| ApiError(StatusCode::UNPROCESSABLE_ENTITY, r.0))?;
    let record = Submission {
        idempotency_key: sub.idempotency_key.clone(),
        client: addr.ip().to_string(),
        received_at: now,
        digest,
        contact: sub.contact.clone(),
    };
    match s.db.submit(record, runs).await? {
        Ok((id, ids, fresh)) => Ok((
            if fresh {
                StatusCode::CREATED
            } else {
                StatusCode::OK
            },
            Json(serde_json::json!({"submission": id, "runs": ids, "stored": fresh})),
        )
            .into_response()),
        Err(m) => Err(ApiError(StatusCode::CONFLICT, m)),
    }
}

async fn submissions(State(s): State<Shared>) -> ApiResult {
    let mut v = s.db.submissions().await?;
    // Contacts stay private to whoever runs the server.
    for x in &mut v {
        x.submission.contact = x.submission.contact.as_ref().map(|_| "(given)".into());
        x.submission.client = String::new();
    }
    Ok(Json(v).into_response())
}

async fn submission(State(s): State<Shared>, Path(id): Path<i64>) -> ApiResult {
    let ids = s.db.submission_runs(id).await?;
    if ids.is_empty() {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("no submission {id}"),
        ));
    }
    Ok(Json(serde_json::json!({"submission": id, "runs": ids})).into_response())
}

#[derive(Deserialize, Default)]
struct RunsQuery {
    test: Option<String>,
    device: Option<String>,
    backend: Option<String>,
    kind: Option<String>,
    since: Option<String>,
    limit: Option<usize>,
}

impl RunsQuery {
    fn filter(self) -> Filter {
        Filter {
            test: self.test,
            device: self.device,
            backend: self.backend,
            kind: self.kind,
            since: self.since,
            limit: Some(self.limit.unwrap_or(1000).min(100_000)),
        }
    }
}

async fn runs(State(s): State<Shared>, Query(q): Query<RunsQuery>) -> ApiResult {
    Ok(Json(s.db.summaries(q.filter()).await?).into_response())
}

async fn run(State(s): State<Shared>, Path(id): Path<i64>) -> ApiResult {
    match s.db.run(id).await? {
        Some(r) => Ok(Json(serde_json::json!({"id": id, "run": r})).into_response()),
        None => Err(ApiError(StatusCode::NOT_FOUND, format!("no run {id}"))),
    }
}

#[derive(Deserialize)]
struct AnalysesQuery {
    seed: Option<String>,
    k: Option<usize>,
    pair: Option<String>,
    test: Option<String>,
}

async fn analyses(State(s): State<Shared>, Query(q): Query<AnalysesQuery>) -> ApiResult {
    let runs =
        s.db.stored_runs(Filter {
            test: q.test.clone(),
            ..Filter::default()
        })
        .await?;
    let mut opts = weft_analyze::Options {
        seed: q.seed,
        clusters: q.k,
        vector_tests: s
            .catalog
            .tests
            .values()
            .filter(|e| e.role == "mutant")
            .map(|e| e.name.clone())
            .collect(),
        locks: catalog::lock_tests(),
        ..weft_analyze::Options::default()
    };
    if let Some(p) = q.pair {
        let (a, b) = p
            .split_once(',')
            .ok_or_else(|| bad("pair=MUTANT,CONFORMANCE"))?;
        opts.pairs = vec![(a.to_string(), b.to_string())];
    } else {
        opts.pairs = s
            .catalog
            .tests
            .values()
            .filter(|e| e.role == "conformance")
            .flat_map(|e| e.pairs.iter().map(|m| (m.clone(), e.name.clone())))
            .collect();
    }
    let report = tokio::task::spawn_blocking(move || weft_analyze::analyze(&runs, &opts))
        .await
        .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?;
    Ok(Json(report).into_response())
}

async fn export_csv(State(s): State<Shared>, Query(q): Query<RunsQuery>) -> ApiResult {
    let body = s.db.export_csv(q.filter()).await?;
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], body).into_response())
}

async fn export_json(State(s): State<Shared>, Query(q): Query<RunsQuery>) -> ApiResult {
    Ok(Json(s.db.stored_runs(q.filter()).await?).into_response())
}

async fn asset(uri: Uri) -> Response {
    let path = uri.path().trim_start_matches('/');
    if path.starts_with("api/") {
        return ApiError(StatusCode::NOT_FOUND, format!("no API route /{path}")).into_response();
    }
    let path = if path.is_empty() { "index.html" } else { path };
    match WebApp::get(path).or_else(|| WebApp::get("index.html")) {
        Some(f) => {
            let mime = if WebApp::get(path).is_some() {
                mime_guess::from_path(path).first_or_octet_stream()
            } else {
                mime_guess::mime::TEXT_HTML_UTF_8
            };
            ([(header::CONTENT_TYPE, mime.as_ref().to_string())], f.data).into_response()
        }
        None => (
            StatusCode::NOT_FOUND,
            "the web app was not built into this binary (npm --prefix web run build)",
        )
            .into_response(),
    }
}

/// Why `weft serve` could not start: bad input (exit 2) or an environment failure (3).
#[derive(Debug)]
pub enum StartError {
    BadInput(String),
    Tool(String),
}

/// The default campaign database: `campaign.db` next to the results database.
pub fn default_db() -> Result<std::path::PathBuf, String> {
    weft_store::Store::default_path()
        .map(|p| p.with_file_name("campaign.db"))
        .map_err(|e| e.to_string())
}

/// Whether `--db` names a PostgreSQL database rather than an SQLite file.
pub fn is_postgres(spec: &str) -> bool {
    spec.starts_with("postgres://") || spec.starts_with("postgresql://")
}

/// Opens the database named by `--db`: an SQLite path or a `postgres://` URL.
pub async fn open_db(spec: &str) -> Result<Db, StartError> {
    if is_postgres(spec) {
        return Db::open_postgres(spec)
            .await
            .map_err(|e| StartError::BadInput(e.0));
    }
    Db::open_sqlite(spec.into()).map_err(|e| StartError::BadInput(e.0))
}

/// Runs the server on `listen` with the database `db` (see [`open_db`]) until Ctrl-C,
/// printing where it listens on stderr.
pub fn run_blocking(listen: &str, db: &str, settings: &Settings) -> Result<(), StartError> {
    let addr: SocketAddr = listen.parse().map_err(|_| {
        StartError::BadInput(format!(
            "--listen `{listen}`: expected ADDRESS:PORT, e.g. 127.0.0.1:8080"
        ))
    })?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| StartError::Tool(format!("cannot start the async runtime: {e}")))?;
    rt.block_on(async move {
        let db = open_db(db).await?;
        let described = db.describe();
        let st = state(db, settings).map_err(StartError::Tool)?;
        let listener = tokio::net::TcpListener::bind(addr)
            .await
            .map_err(|e| StartError::BadInput(format!("cannot listen on {addr}: {e}")))?;
        let local = listener
            .local_addr()
            .map_err(|e| StartError::Tool(e.to_string()))?;
        eprintln!("weft serve: http://{local}/ (database {described})");
        serve(listener, st)
            .await
            .map_err(|e| StartError::Tool(format!("server error: {e}")))
    })
}
