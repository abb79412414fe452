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
//! - `GET /api/admin/submissions`, `DELETE /api/admin/submissions/{id}`: moderation, with
//!   the operator's token (`weft serve --admin-token`); absent without one.
//!
//! Nothing else can be edited or deleted through the API.

pub mod api_types;
pub mod catalog;
pub mod client;
pub mod conn;
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
use sha2::Digest;
use tokio::sync::Semaphore;
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
    /// Run specifications generated at once (on blocking threads, off the async
    /// executor); more wait for a turn.
    pub spec_workers: usize,
    /// Bytes of run specifications held in memory at once (generated and not yet sent);
    /// a request that cannot get its share within [`SPEC_WAIT`] answers 503.
    pub spec_memory: usize,
    /// Timeouts and connection bounds.
    pub limits: conn::Limits,
    /// Addresses of reverse proxies whose `X-Forwarded-For` is believed: a request from one
    /// of them is rate-limited by the client address the proxy appended (the rightmost
    /// address not itself a trusted proxy); any other request by its peer address, its
    /// `X-Forwarded-For` ignored.
    pub trusted_proxies: Vec<IpAddr>,
    /// The operator's token for the moderation routes under `/api/admin/` (`Authorization:
    /// Bearer TOKEN`); without one they do not exist.
    pub admin_token: Option<String>,
}

/// How long a run specification waits for a worker and memory before answering 503.
pub const SPEC_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

impl Default for Settings {
    fn default() -> Self {
        Settings {
            submissions_per_minute: 60,
            burst: 120,
            specs_per_minute: 1200,
            spec_workers: std::thread::available_parallelism()
                .map(|n| (n.get() / 2).max(1))
                .unwrap_or(1),
            spec_memory: 128 << 20,
            limits: conn::Limits::default(),
            admin_token: None,
            trusted_proxies: Vec::new(),
        }
    }
}

/// Shared state of the handlers.
pub struct AppState {
    pub db: Db,
    pub catalog: Catalog,
    /// The catalog as the analyses read it (the same as `weft analyze`'s).
    analysis: weft_analyze::Catalog,
    limiter: DefaultKeyedRateLimiter<IpAddr>,
    spec_limiter: DefaultKeyedRateLimiter<IpAddr>,
    /// Turns at generating a run specification.
    spec_workers: Arc<Semaphore>,
    /// KiB of run specifications in memory ([`Settings::spec_memory`]).
    spec_memory: Arc<Semaphore>,
    settings: Settings,
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
        // Logged for the operator; the client learns nothing of the database.
        eprintln!("weft serve: database error: {}", e.0);
        ApiError(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal database error".into(),
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
        analysis: catalog::analysis_catalog(),
        limiter,
        spec_limiter,
        spec_workers: Arc::new(Semaphore::new(settings.spec_workers.max(1))),
        spec_memory: Arc::new(Semaphore::new((settings.spec_memory >> 10).max(1))),
        settings: settings.clone(),
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
        .route("/api/admin/submissions", get(admin_submissions))
        .route(
            "/api/admin/submissions/{id}",
            axum::routing::delete(admin_delete),
        )
        .fallback(asset)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            refuse_large,
        ))
        .layer(axum::middleware::from_fn(security_headers))
        .with_state(state)
}

/// Serves until the process is stopped (Ctrl-C ends it cleanly), every client bounded in
/// time and connections ([`conn`]).
pub async fn serve(listener: tokio::net::TcpListener, state: Shared) -> std::io::Result<()> {
    let limits = state.settings.limits.clone();
    conn::serve(listener, router(state), limits, async {
        let _ = tokio::signal::ctrl_c().await;
    })
    .await
}

/// The Content-Security-Policy of every response: the app's own scripts, styles (and
/// the inline styles Chart.js sets), images and API, nothing else; never framed.
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// Adds the security headers to every response: CSP, `nosniff`, no framing, no referrer.
async fn security_headers(req: axum::extract::Request, next: axum::middleware::Next) -> Response {
    let mut r = next.run(req).await;
    let h = r.headers_mut();
    for (k, v) in [
        (header::CONTENT_SECURITY_POLICY, CSP),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
    ] {
        h.insert(k, header::HeaderValue::from_static(v));
    }
    r
}

/// The address a request is rate-limited by: its peer, or, when the peer is a trusted
/// proxy, the rightmost `X-Forwarded-For` address that is not a trusted proxy (addresses
/// further left were written by the client and prove nothing).
pub fn client_key(peer: IpAddr, headers: &axum::http::HeaderMap, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    let mut last = peer;
    let hops: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .collect();
    for hop in hops.iter().rev() {
        match hop.trim().parse::<IpAddr>() {
            Ok(ip) if trusted.contains(&ip) => last = ip,
            Ok(ip) => return ip,
            Err(_) => return last,
        }
    }
    last
}

/// Refuses a request whose declared length is over [`MAX_BODY`] before reading its body
/// (bodies without a length are cut at the limit), and reads the body within the body
/// timeout (408 for a client that sends it too slowly).
async fn refuse_large(
    State(s): State<Shared>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
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
    let (parts, body) = req.into_parts();
    let read = tokio::time::timeout(
        s.settings.limits.body_timeout,
        axum::body::to_bytes(body, MAX_BODY),
    )
    .await;
    let bytes = match read {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => {
            return ApiError(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("request body over {MAX_BODY} bytes, or cut short"),
            )
            .into_response()
        }
        Err(_) => {
            return ApiError(
                StatusCode::REQUEST_TIMEOUT,
                "the request body did not arrive in time".into(),
            )
            .into_response()
        }
    };
    next.run(axum::extract::Request::from_parts(
        parts,
        axum::body::Body::from(bytes),
    ))
    .await
}

/// 200 with the counts, or 503 when the database is gone or does not answer.
async fn health(State(s): State<Shared>) -> ApiResult {
    let unhealthy = |m: String| {
        eprintln!("weft serve: health: {m}");
        (
            StatusCode::SERVICE_UNAVAILABLE,
            Json(serde_json::json!({"ok": false, "error": m})),
        )
            .into_response()
    };
    if let Err(m) = s.db.check() {
        return Ok(unhealthy(m));
    }
    let (runs, subs) = match s.db.counts().await {
        Ok(c) => c,
        Err(e) => return Ok(unhealthy(format!("database: {}", e.0))),
    };
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
    let outcomes: Vec<api_types::ScOutcome> = e
        .classification
        .outcomes()
        .map(|(o, c)| api_types::ScOutcome {
            outcome: weft_hw::judge::outcome_text(&e.program, o),
            class: c.name().to_string(),
        })
        .collect();
    // The threads as C11 litmus text (`weft show --to c`).
    let text = weft_litmus::print(&e.program, weft_litmus::Format::C)
        .unwrap_or_else(|err| format!("(cannot print: {err})"));
    Ok(Json(api_types::TestDetail {
        name: e.name.clone(),
        role: e.role.clone(),
        gpuharbor_name: e.gpuharbor_name.clone(),
        pairs: e.pairs.clone(),
        digest: e.digest.clone(),
        corpus: e.corpus.to_string(),
        tuning: e.tuning,
        target: e.target.clone(),
        source: e.source.clone(),
        threads: e.program.threads.len(),
        text,
        sc_outcomes: outcomes,
        meta: e.meta.clone(),
    })
    .into_response())
}

async fn presets() -> ApiResult {
    let v: Vec<api_types::PresetInfo> = Preset::all()
        .into_iter()
        .map(|(p, d)| api_types::PresetInfo {
            name: p.name().to_string(),
            description: d.to_string(),
            config: p.config(),
        })
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
    let v: Vec<api_types::TuneConfig> = weft_stress::configs(&seed, n, limits)
        .into_iter()
        .enumerate()
        .map(|(k, c)| api_types::TuneConfig {
            index: k,
            stress_name: format!("tune:{seed}#{k}"),
            // As text: seeds go above 2^53, past what a JavaScript number holds.
            seed: weft_hw::tune::run_seed(&seed, k).to_string(),
            config: c,
        })
        .collect();
    Ok(Json(v).into_response())
}

#[derive(Deserialize)]
struct SpecRequest {
    test: String,
    stress: spec::StressSpec,
    #[serde(deserialize_with = "submit::seed")]
    seed: u64,
    iterations: u32,
    #[serde(default)]
    from: u32,
}

/// 429 with `Retry-After`: the whole seconds until the client's next request is allowed
/// (at least 1), so a client backs off no longer than it must.
fn too_many(message: &str, until: governor::NotUntil<governor::clock::QuantaInstant>) -> Response {
    use governor::clock::{Clock, DefaultClock};
    let wait = until.wait_time_from(DefaultClock::default().now());
    let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
    (
        StatusCode::TOO_MANY_REQUESTS,
        [(header::RETRY_AFTER, secs.max(1).to_string())],
        Json(serde_json::json!({ "error": message })),
    )
        .into_response()
}

async fn spec_handler(
    State(s): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    body: Result<Json<SpecRequest>, axum::extract::rejection::JsonRejection>,
) -> ApiResult {
    let key = client_key(addr.ip(), &headers, &s.settings.trusted_proxies);
    if let Err(until) = s.spec_limiter.check_key(&key) {
        return Ok(too_many(
            "too many run specifications from this address; try again later",
            until,
        ));
    }
    let Json(r) = body.map_err(|e| bad(e.body_text()))?;
    if s.catalog.get(&r.test).is_none() {
        return Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("no test `{}`", r.test),
        ));
    }
    let (name, cfg) = spec::resolve(&r.stress).map_err(bad)?;
    // Bounded before any work: the request's size, then a share of the memory for specs
    // and a worker (503 when the server is busy), then generation on a blocking thread.
    spec::check_request(&cfg, r.iterations, r.from)
        .map_err(|m| ApiError(StatusCode::UNPROCESSABLE_ENTITY, m))?;
    let bound = spec::spec_size_bound(r.iterations, cfg.max_workgroups);
    let kib = (bound.div_ceil(1024) as u32).min((s.settings.spec_memory >> 10).max(1) as u32);
    let busy = || {
        ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "the server is busy generating run specifications; try again shortly".into(),
        )
    };
    let memory = tokio::time::timeout(SPEC_WAIT, s.spec_memory.clone().acquire_many_owned(kib))
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
    let worker = tokio::time::timeout(SPEC_WAIT, s.spec_workers.clone().acquire_owned())
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
    let st = s.clone();
    let test = r.test.clone();
    let bytes = tokio::task::spawn_blocking(move || {
        let _worker = worker;
        let e = st
            .catalog
            .get(&test)
            .ok_or_else(|| format!("no test `{test}`"))?;
        spec::spec(e, &name, &cfg, r.seed, r.iterations, r.from)
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(|m| ApiError(StatusCode::UNPROCESSABLE_ENTITY, m))?;
    // Keep the share of memory the spec takes, give back the rest of the bound.
    let mut memory = memory;
    let used = (bytes.len().div_ceil(1024) as u32).max(1);
    if let Some(rest) = memory.split(memory.num_permits().saturating_sub(used as usize)) {
        drop(rest);
    }
    Ok((
        [(header::CONTENT_TYPE, "application/json")],
        axum::body::Body::new(HeldBody {
            bytes: bytes::Bytes::from(bytes),
            sent: 0,
            _memory: memory,
        }),
    )
        .into_response())
}

/// A response body that holds its share of the spec memory until it is sent or dropped
/// (a client that stops reading is cut by [`conn`], which drops it). It hands the spec to
/// the connection in copied chunks of [`CHUNK`] bytes, one at a time as the connection asks
/// for them, so the spec's buffer (and its permit) lives exactly as long as the body: a
/// slow reader holds at most a chunk or two beyond its permitted share (handing the whole
/// spec over as one frame released the permit while the connection still held the 13 MB).
struct HeldBody {
    bytes: bytes::Bytes,
    sent: usize,
    _memory: tokio::sync::OwnedSemaphorePermit,
}

/// Bytes of a spec handed to the connection per frame.
const CHUNK: usize = 64 << 10;

impl http_body::Body for HeldBody {
    type Data = bytes::Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: std::pin::Pin<&mut Self>,
        _cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<Option<Result<http_body::Frame<bytes::Bytes>, Self::Error>>> {
        let (len, sent) = (self.bytes.len(), self.sent);
        if sent >= len {
            return std::task::Poll::Ready(None);
        }
        let end = len.min(sent + CHUNK);
        let chunk = bytes::Bytes::copy_from_slice(&self.bytes[sent..end]);
        self.sent = end;
        std::task::Poll::Ready(Some(Ok(http_body::Frame::data(chunk))))
    }

    fn is_end_stream(&self) -> bool {
        self.sent >= self.bytes.len()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact((self.bytes.len() - self.sent.min(self.bytes.len())) as u64)
    }
}

async fn submit_handler(
    State(s): State<Shared>,
    ConnectInfo(addr): ConnectInfo<SocketAddr>,
    headers: axum::http::HeaderMap,
    body: Result<Json<submit::SubmissionIn>, axum::extract::rejection::JsonRejection>,
) -> ApiResult {
    let key = client_key(addr.ip(), &headers, &s.settings.trusted_proxies);
    if let Err(until) = s.limiter.check_key(&key) {
        return Ok(too_many(
            "too many submissions from this address; try again later",
            until,
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
    if let Err(m) = s.db.check() {
        eprintln!("weft serve: {m}");
        return Err(ApiError(
            StatusCode::SERVICE_UNAVAILABLE,
            "the database is unavailable".into(),
        ));
    }
    let now = weft_store::now_utc();
    let state = s.clone();
    let sub2 = sub.clone();
    let now2 = now.clone();
    let (runs, digest) =
        tokio::task::spawn_blocking(move || submit::validate(&state.catalog, &sub2, &now2))
            .await
            .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
            .map_err(|r| ApiError(StatusCode::UNPROCESSABLE_ENTITY, r.0))?;
    // The client's address limits its rate (in memory) and is not stored: the consent
    // text says what is kept.
    let record = Submission {
        idempotency_key: sub.idempotency_key.clone(),
        client: String::new(),
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
            Json(api_types::SubmitAnswer {
                submission: id,
                runs: ids,
                stored: fresh,
            }),
        )
            .into_response()),
        Err(m) => Err(ApiError(StatusCode::CONFLICT, m)),
    }
}

/// The public list of submissions: id, time received and number of runs; not the
/// idempotency keys (a key would let anyone probe or block a retry), digests or contacts.
async fn submissions(State(s): State<Shared>) -> ApiResult {
    let v: Vec<api_types::SubmissionListItem> =
        s.db.submissions()
            .await?
            .into_iter()
            .map(|x| api_types::SubmissionListItem {
                id: x.id,
                received_at: x.submission.received_at,
                runs: x.runs,
            })
            .collect();
    Ok(Json(v).into_response())
}

/// Checks the operator's token: 404 when the server has none (the routes do not exist),
/// 401 when the request's differs. The comparison takes the same time wherever the
/// tokens differ.
fn admin(s: &AppState, headers: &axum::http::HeaderMap) -> Result<(), ApiError> {
    let Some(token) = &s.settings.admin_token else {
        return Err(ApiError(StatusCode::NOT_FOUND, "no API route".into()));
    };
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or("");
    let a = sha2::Sha256::digest(given.as_bytes());
    let b = sha2::Sha256::digest(token.as_bytes());
    let differ = a
        .iter()
        .zip(b.iter())
        .fold(0u8, |acc, (x, y)| acc | (x ^ y));
    if differ != 0 {
        return Err(ApiError(
            StatusCode::UNAUTHORIZED,
            "the operator's token is required".into(),
        ));
    }
    Ok(())
}

/// Every submission with its client address and contact, for the operator.
async fn admin_submissions(State(s): State<Shared>, headers: axum::http::HeaderMap) -> ApiResult {
    admin(&s, &headers)?;
    Ok(Json(s.db.submissions().await?).into_response())
}

/// Deletes a submission with its runs (a forged or unwanted one).
async fn admin_delete(
    State(s): State<Shared>,
    headers: axum::http::HeaderMap,
    Path(id): Path<i64>,
) -> ApiResult {
    admin(&s, &headers)?;
    match s.db.delete_submission(id).await? {
        Some(runs) => {
            eprintln!("weft serve: the operator deleted submission {id} ({runs} runs)");
            Ok(Json(serde_json::json!({"deleted": id, "runs": runs})).into_response())
        }
        None => Err(ApiError(
            StatusCode::NOT_FOUND,
            format!("no submission {id}"),
        )),
    }
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
    /// The database filter; a `since` that is not a date or time (a prefix of
    /// `YYYY-MM-DDTHH:MM:SSZ`) is a 400 on either database.
    fn filter(self) -> Result<Filter, ApiError> {
        if let Some(s) = &self.since {
            if !weft_store::is_prefix(s) {
                return Err(bad(
                    "since: a date or time like 2025-03-01 or 2025-03-01T12:00:00Z",
                ));
            }
        }
        Ok(Filter {
            test: self.test,
            device: self.device,
            backend: self.backend,
            kind: self.kind,
            since: self.since,
            limit: Some(self.limit.unwrap_or(1000).min(100_000)),
        })
    }
}

async fn runs(State(s): State<Shared>, Query(q): Query<RunsQuery>) -> ApiResult {
    Ok(Json(s.db.summaries(q.filter()?).await?).into_response())
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
    let query = weft_analyze::Query {
        seed: q.seed,
        clusters: q.k,
        pairs: q.pair.into_iter().collect(),
    };
    // An unknown pair is refused before the database is read.
    s.analysis.options(&query).map_err(bad)?;
    let runs =
        s.db.stored_runs(Filter {
            test: q.test.clone(),
            ..Filter::default()
        })
        .await?;
    let st = s.clone();
    let report = tokio::task::spawn_blocking(move || {
        weft_analyze::campaign::report(&runs, &st.analysis, &query)
    })
    .await
    .map_err(|e| ApiError(StatusCode::INTERNAL_SERVER_ERROR, e.to_string()))?
    .map_err(bad)?;
    Ok(Json(report).into_response())
}

async fn export_csv(State(s): State<Shared>, Query(q): Query<RunsQuery>) -> ApiResult {
    let body = s.db.export_csv(q.filter()?).await?;
    Ok(([(header::CONTENT_TYPE, "text/csv; charset=utf-8")], body).into_response())
}

async fn export_json(State(s): State<Shared>, Query(q): Query<RunsQuery>) -> ApiResult {
    Ok(Json(s.db.stored_runs(q.filter()?).await?).into_response())
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

/// The operator's token from `--admin-token`: the text itself, or the first line of the
/// file `@PATH`; at least 16 characters.
pub fn admin_token(arg: &str) -> Result<String, String> {
    let t = match arg.strip_prefix('@') {
        Some(path) => std::fs::read_to_string(path)
            .map_err(|e| format!("{path}: {e}"))?
            .lines()
            .next()
            .unwrap_or("")
            .trim()
            .to_string(),
        None => arg.to_string(),
    };
    if t.len() < 16 || t.chars().any(|c| c.is_control() || c == ' ') {
        return Err("at least 16 characters, without spaces or control characters".into());
    }
    Ok(t)
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

#[cfg(test)]
mod tests {
    use super::*;
    use http_body::Body as _;

    /// A spec body hands its bytes over in chunks of at most [`CHUNK`] and keeps its share of
    /// the spec memory until the last chunk has been taken (issue 29 item 1: handing the
    /// whole spec over at once released the share while a slow reader's connection still
    /// held it, and 100 slow readers took 1.4 GB in a release build).
    #[test]
    fn spec_body_keeps_its_memory_share_until_sent() {
        let sem = Arc::new(Semaphore::new(10));
        let permit = sem.clone().try_acquire_many_owned(10).unwrap();
        let data: Vec<u8> = (0..(2 * CHUNK + 5)).map(|i| (i % 251) as u8).collect();
        let mut body = HeldBody {
            bytes: bytes::Bytes::from(data.clone()),
            sent: 0,
            _memory: permit,
        };
        let mut cx = std::task::Context::from_waker(std::task::Waker::noop());
        let mut got = Vec::new();
        let mut sizes = Vec::new();
        while let std::task::Poll::Ready(Some(Ok(f))) =
            std::pin::Pin::new(&mut body).poll_frame(&mut cx)
        {
            let d = f.into_data().unwrap();
            sizes.push(d.len());
            got.extend_from_slice(&d);
            if !body.is_end_stream() {
                assert_eq!(sem.available_permits(), 0, "share released before the end");
            }
        }
        assert_eq!(sizes, [CHUNK, CHUNK, 5]);
        assert_eq!(got, data);
        assert!(body.is_end_stream());
        assert_eq!(sem.available_permits(), 0, "the body still holds its share");
        drop(body);
        assert_eq!(sem.available_permits(), 10);
    }
}
