// Generated from weft-server's and weft-analyze's Rust types by ts-rs: do not edit.
// Regenerate with `WEFT_UPDATE=1 cargo test -p weft-server --test ts_types`.

export type TestSummary = { name: string, role: string, gpuharbor_name: string, pairs: Array<string>, digest: string, threads: number, corpus: string, 
/**
 * The file under `tests/corpus/CORPUS` (`MP.json`, `TAS-UF.litmus`).
 */
file: string, tuning: boolean, target: string, };

export type TestDetail = { name: string, role: string, gpuharbor_name: string, pairs: Array<string>, digest: string, corpus: string, tuning: boolean, target: string, source: string, threads: number, 
/**
 * The threads as C11 litmus text (`weft show --to c`).
 */
text: string, sc_outcomes: Array<ScOutcome>, 
/**
 * The test's `*.meta.json`.
 */
meta: Record<string, unknown>, };

export type ScOutcome = { outcome: string, 
/**
 * `seq` or `interleaved`.
 */
class: string, };

export type PresetInfo = { name: string, description: string, 
/**
 * GPUHarbor's parameter names (camelCase) and values.
 */
config: Record<string, number | boolean>, };

export type TuneConfig = { index: number, stress_name: string, 
/**
 * The run seed as decimal text (above 2^53, past what a JavaScript number holds).
 */
seed: string, config: Record<string, number | boolean>, };

export type SubmissionIn = { 
/**
 * Chosen by the client, 8 to 64 characters of `[A-Za-z0-9_-]`.
 */
idempotency_key: string, device: DeviceIn, contact?: string, runs: Array<RunIn>, };

export type DeviceIn = { 
/**
 * `webgpu` (a browser), `wgpu` or `cuda` (native runs through `weft submit`).
 */
backend: string, vendor: string, architecture: string, name: string, driver: string, api: string, browser: string, os: string, };

export type RunIn = { 
/**
 * `run`, `tune` or `conform`.
 */
kind: string, test: string, 
/**
 * The test's SHA-256 when the client knows it (must match the served test).
 */
digest?: string, stress_name: string, stress: Record<string, unknown>, 
/**
 * A number, or its decimal text (what the web app sends: JavaScript numbers lose
 * seeds above 2^53).
 */
seed: string | number, iterations: number, duration_ms: number, 
/**
 * Raw result rows (browsers) ...
 */
rows?: Array<RowIn>, 
/**
 * ... or decoded outcomes (native runs).
 */
outcomes?: Array<OutcomeIn>, 
/**
 * The result shader's seq / interleaved / weak counts (browsers).
 */
class_counts?: [number, number, number], 
/**
 * Instances run (native runs; browsers: derived from the stress).
 */
instances?: number, started_at?: string, };

export type RowIn = { values: Array<number>, count: number, };

export type OutcomeIn = { outcome: string, count: number, };

export type SubmitAnswer = { submission: number, runs: Array<number>, stored: boolean, };

export type SubmissionListItem = { id: number, received_at: string, runs: number, };

export type AnalysisReport = { devices: Array<Device>, tests: Array<string>, runs: number, best_rates: Array<BestRate>, vendor_rates: Array<VendorRate>, similarity: Similarity | null, clustering: Clustering | null, correlations: Array<PairCorrelation>, durations: Array<DeviceTime>, 
/**
 * Table 5: failing instances per device and lock test.
 */
locks: Array<LockRow>, };

export type Device = { vendor: string, architecture: string, name: string, backend: string, browser: string, os: string, driver: string, };

export type BestRate = { device: number, test: string, 
/**
 * Weak behaviours per instance in the configuration that maximises it.
 */
rate: number, stress_name: string, instances: number, weak: number, };

export type VendorRate = { vendor: string, test: string, devices: number, mean: number, median: number, };

export type Similarity = { seed: string, 
/**
 * The devices with a vector (indices into the report's devices).
 */
devices: Array<number>, 
/**
 * The vector's dimensions: `(test, configuration index)`.
 */
dimensions: Array<[string, number]>, vectors: Array<Array<number>>, 
/**
 * `matrix[i][j]`: cosine similarity of `devices[i]` and `devices[j]`.
 */
matrix: Array<Array<number>>, 
/**
 * Per vendor over its pairs, then `All` over every pair (Table 3).
 */
vendors: Array<VendorSimilarity>, 
/**
 * For every device, the most similar other device.
 */
nearest: Array<Nearest>, };

export type VendorSimilarity = { vendor: string, pairs: number, avg: number, median: number, min: number, max: number, };

export type Nearest = { device: number, 
/**
 * The most similar device with a known model (not only vendor and architecture).
 */
nearest_known: number | null, similarity: number, 
/**
 * Whether `device` itself reported only vendor and architecture.
 */
unknown_model: boolean, };

export type Clustering = { k: number, 
/**
 * Distortion (sum of squared distances to the centroid) for k = 1, 2, ...
 */
distortions: Array<number>, 
/**
 * `(device, cluster)` for every device.
 */
assignment: Array<[number, number]>, 
/**
 * Per cluster, the device to test (nearest its centroid).
 */
suggested: Array<number>, };

export type PairCorrelation = { device: number, mutant: string, conformance: string, 
/**
 * Configurations where both tests ran.
 */
n: number, 
/**
 * `None` when n < 3 or a rate is constant.
 */
result: Correlation | null, };

export type Correlation = { r: number, t: number, dof: number, p: number, };

export type DeviceTime = { device: number, vendor: string, minutes: number, 
/**
 * Runs over one minute, dropped and replaced by a neighbour's duration.
 */
imputed: number, };

export type LockRow = { device: number, test: string, lock: string, fenced: boolean, runs: number, instances: number, 
/**
 * Instances whose counter is not `expected` (and no thread was cut).
 */
failing: number, 
/**
 * Instances with a thread cut at the spin cap (every register `i32::MIN`).
 */
cut: number, 
/**
 * Lost increments summed over the failing instances.
 */
lost: number, seconds: number, };
