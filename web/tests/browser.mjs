// Browser test of the campaign web app (issue 16): starts `weft serve` on 127.0.0.1 with a
// fresh database, opens the app in Debian's Chromium (headless, WebGPU on SwiftShader),
// runs MP and a conformance test, checks the histogram and its checksum, tunes with a
// fixed seed, runs Conform, submits, and finds the submission in Results and in the
// analyses. Issue 29's scenarios: an empty database says "No data yet"; Explore's default
// is MP under stress, its histogram is on a log axis and updated live, its stress panel runs
// a custom configuration and it shows the configuration and WGSL; /api/spec answering 429
// is retried; leaving Tune mid-run does not stop it and it shows every configuration;
// Conform and Locks have progress bars and do not queue a run whose checksum fails; a lost
// submission answer and a stale idempotency key do not block later submissions; the
// Campaign estimates its duration before consent; Results fits the page and draws zero
// rates; `weft analyze` prints the report /api/analyses serves; device names render as
// text. Screenshots of every page are taken into a temporary directory, and written to
// docs/campaign/ only with WEFT_UPDATE_SCREENSHOTS=1 (so a test run leaves the tree clean).
//
// usage: node web/tests/browser.mjs [path/to/weft]   (from the repository root)
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium } from "playwright-core";

const weft = process.argv[2] ?? "target/debug/weft";
const dir = mkdtempSync(join(tmpdir(), "weft-browser-"));
const shots = process.env.WEFT_UPDATE_SCREENSHOTS === "1" ? "docs/campaign" : join(dir, "shots");
mkdirSync(shots, { recursive: true });
console.log(`     screenshots: ${shots}`);
const t0 = Date.now();
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? "ok  " : "FAIL"} ${what}`);
  if (!ok) failures++;
};

const server = spawn(weft, ["serve", "--listen", "127.0.0.1:0", "--db", join(dir, "campaign.db")], {
  stdio: ["ignore", "inherit", "pipe"],
});
const base = await new Promise((resolve, reject) => {
  let err = "";
  server.stderr.on("data", (d) => {
    err += d;
    const m = err.match(/http:\/\/(127\.0\.0\.1:\d+)\//);
    if (m) resolve(`http://${m[1]}`);
  });
  server.on("exit", (c) => reject(new Error(`weft serve exited ${c}: ${err}`)));
  setTimeout(() => reject(new Error(`weft serve did not start: ${err}`)), 30000);
});

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  headless: true,
  args: ["--enable-unsafe-webgpu", "--use-webgpu-adapter=swiftshader", "--enable-features=Vulkan", "--no-sandbox"],
});
try {
  const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on("console", (m) => m.type() === "error" && console.log(`  [browser] ${m.text()}`));
  // An empty database: Results says so (issue 29 item 12).
  await page.goto(`${base}/#results`);
  await page.waitForSelector("#re-empty", { timeout: 30000 });
  check(/No data yet/.test(await page.textContent("#re-empty")), "Results on an empty database: No data yet");

  await page.goto(`${base}/#explore`);
  await page.waitForSelector("#ex-text");
  const status = await page.textContent("#gpu-status");
  check(status.startsWith("WebGPU"), `WebGPU adapter: ${status}`);
  // The default can show weak behaviour: MP (a weak target) under the stress preset, whose
  // parameters fill the stress panel.
  const defaults = [await page.inputValue("#ex-test"), await page.inputValue("#ex-preset")];
  check(defaults[0] === "MP" && defaults[1] === "stress", `Explore defaults to MP under stress (${defaults})`);
  check((await page.inputValue("#ex-param-memStressPct")) === "100", "the stress panel shows the preset's parameters (memStressPct 100)");

  // /api/spec answers 429 twice (Retry-After: 1): the run waits and completes (item 9).
  let throttled = 0;
  await page.route("**/api/spec", async (route) => {
    if (throttled < 2) {
      throttled++;
      return route.fulfill({ status: 429, headers: { "retry-after": "1" }, contentType: "application/json", body: '{"error":"rate limited"}' });
    }
    return route.continue();
  });

  const histogramSum = async () =>
    page.$$eval("#histogram tr td:nth-child(2)", (tds) => tds.reduce((a, td) => a + Number(td.textContent), 0));

  // Explore: MP under the basic preset, 5 iterations of 4 × 256... (basic: 2 × 256).
  await page.selectOption("#ex-test", "MP");
  await page.selectOption("#ex-preset", "basic");
  await page.fill("#ex-iter", "5");
  await page.click("#ex-run");
  await page.waitForSelector("#checksum", { timeout: 120000 });
  let cs = await page.textContent("#checksum");
  check(cs.startsWith("checksum ok"), `MP checksum: ${cs}`);
  check((await histogramSum()) === 5 * 512, `MP histogram adds up to 5 × 512 = 2560 (${await histogramSum()})`);
  await page.unroute("**/api/spec");
  const retries = await page.evaluate(() => window.weftRetries ?? 0);
  check(throttled === 2 && retries >= 2, `two 429 answers from /api/spec were retried (${retries} retries)`);
  const chart = await page.$eval("#ex-chart", (c) => ({ ...c.dataset }));
  check(chart.scale === "logarithmic" && Number(chart.updates) >= 3, `histogram on a log axis, updated live (${chart.scale}, ${chart.updates} updates)`);
  check((await page.textContent("#ex-wgsl-test")).includes("@compute"), "Explore shows the test shader's WGSL");
  check((await page.$$eval("#ex-config tr", (r) => r.length - 1)) >= 20, "Explore shows the configuration's parameters");
  // A custom configuration from the stress panel.
  await page.click("#ex-stress summary");
  await page.fill("#ex-param-shufflePct", "50");
  check((await page.inputValue("#ex-preset")) === "custom", "editing a parameter selects the custom configuration");
  await page.fill("#ex-iter", "2");
  await page.click("#ex-run");
  await page.waitForFunction(() => document.querySelector("#ex-spec h3")?.textContent?.includes("custom") && !document.querySelector("#ex-run").disabled, null, { timeout: 120000 });
  cs = await page.textContent("#checksum");
  const shuffle = await page.$$eval("#ex-config tr", (rs) => rs.find((r) => r.cells[0].textContent === "shufflePct")?.cells[1].textContent);
  check(cs.startsWith("checksum ok") && shuffle === "50", `custom configuration ran (shufflePct ${shuffle}): ${cs.slice(0, 40)}`);
  await page.selectOption("#ex-preset", "basic");
  await page.fill("#ex-iter", "5");
  await page.screenshot({ path: `${shots}/explore.png`, fullPage: true });

  // A conformance test.
  await page.selectOption("#ex-test", "MP-CO");
  await page.waitForFunction(() => document.querySelector("#ex-info h3")?.textContent?.startsWith("MP-CO"));
  await page.click("#ex-run");
  await page.waitForFunction(() => document.querySelector("#checksum") && document.querySelector("#ex-out")?.textContent?.includes("MP-CO") === false && !document.querySelector("#ex-run").disabled, null, { timeout: 120000 });
  cs = await page.textContent("#checksum");
  check(cs.startsWith("checksum ok"), `MP-CO checksum: ${cs}`);
  const forbidden = await page.$$eval("#histogram tr.violation", (r) => r.length);
  console.log(`     MP-CO rows with forbidden outcomes: ${forbidden}`);

  // The API and the Tune page offer the 32 tuning mutants (tests/corpus/gpuharbor-mutants).
  const all = await (await fetch(`${base}/api/tests`)).json();
  const tuning = all.filter((t) => t.tuning).map((t) => t.name);
  check(tuning.length === 32, `the API lists 32 tuning mutants (${tuning.length})`);
  await page.goto(`${base}/#tune`);
  await page.waitForSelector("#tu-run");
  const offered = await page.$$eval(".tu-m", (xs) => xs.map((x) => x.value));
  check(offered.length === 32 && offered.every((m) => tuning.includes(m)), `Tune offers the 32 mutants (${offered.length})`);

  // Tune: seed rbjnMzXroA, 2 configurations × 2 iterations, small limits, MP (weak target) and
  // CoRR-mutant (interleaving target) with their conformance tests (the test runs a subset
  // to stay fast; the campaign below runs all 32).
  await page.fill("#tu-n", "2");
  await page.fill("#tu-iter", "2");
  await page.fill("#tu-limits", "8,32");
  await page.$$eval(".tu-m", (xs) => xs.forEach((x) => (x.checked = x.value === "MP" || x.value === "CoRR-mutant")));
  await page.check("#tu-conf");
  await page.click("#tu-run");
  // Leave the page mid-run and come back (item 9): the run goes on and finishes.
  await page.waitForFunction(() => /configuration #/.test(document.querySelector("#tu-status")?.textContent ?? ""), null, { timeout: 60000 });
  await page.evaluate(() => (location.hash = "#results"));
  await page.waitForTimeout(1500);
  await page.evaluate(() => (location.hash = "#tune"));
  await page.waitForSelector("#tune-table", { timeout: 300000 });
  check(true, "Tune finished after leaving the page mid-run and coming back");
  const tuned = await page.$$eval("#tune-table tr", (r) => r.length - 1);
  check(tuned === 2, `tune table has 2 mutants (${tuned})`);
  const killedCol = await page.$$eval("#tune-table td.killed", (tds) => tds.map((t) => t.textContent));
  check(killedCol.length === 2 && killedCol.every((k) => /^(yes \(\d\/2\)|no)$/.test(k)), `killed column: ${killedCol}`);
  const corrTarget = await page.$$eval("#tune-table tr", (rs) =>
    rs.find((r) => r.cells[0].textContent === "CoRR-mutant")?.cells[1].textContent);
  check(corrTarget === "interleaved", `CoRR-mutant targets an interleaving (${corrTarget})`);
  check(/of 2 mutants killed/.test(await page.textContent("#tu-killed")), await page.textContent("#tu-killed"));
  // Every configuration is shown, and no best configuration is claimed without a target.
  const grid = await page.$$eval("#tune-configs tr", (rs) => rs.slice(1).map((r) => r.cells.length - 1));
  check(grid.length === 2 && grid.every((n) => n === 2), `Tune shows both configurations of both mutants (${grid})`);
  const params = await page.$$eval("#tu-params tr", (rs) => rs.slice(1).map((r) => r.cells.length - 1));
  check(params.length >= 20 && params.every((n) => n === 2), `Tune shows the parameters of both configurations (${params.length} parameters)`);
  const bests = await page.$$eval("#tune-table tr", (rs) => rs.slice(1).map((r) => [r.cells[2].textContent, r.cells[4].textContent]));
  check(bests.every(([b, t]) => (t === "0") === (b === "none observed")), `best configuration only where a target was seen: ${JSON.stringify(bests)}`);
  await page.screenshot({ path: `${shots}/tune.png`, fullPage: true });

  // Conform: MP-CO under MP's best configuration.
  await page.goto(`${base}/#conform`);
  await page.waitForSelector("#co-run");
  await page.fill("#co-iter", "2");
  await page.click("#co-run");
  await page.waitForSelector("#conform-table", { timeout: 300000 });
  const verdict = await page.textContent("#conform-table tr:nth-child(2) td:nth-child(5)");
  check(/conforms|VIOLATION/.test(verdict), `MP-CO verdict: ${verdict}`);
  check((await page.$eval("#co-prog", (p) => p.value)) === 1, "Conform's progress bar is full");
  await page.screenshot({ path: `${shots}/conform.png`, fullPage: true });

  // Locks (paper 001 §5.3): the unfenced locks and the no-lock baseline run; the fenced
  // locks are refused (WGSL has no acquire/release fences).
  await page.goto(`${base}/#locks`);
  await page.waitForSelector("#lk-run");
  await page.fill("#lk-iter", "2");
  await page.selectOption("#lk-preset", "basic");
  // The no-lock baseline's spec is doctored so that the result shader classifies half the
  // rows (its checksum fails, as a faulty GPU's would): that run must not be queued, or the
  // server's 422 would refuse the whole submission (item 8).
  await page.route("**/api/spec", async (route) => {
    if (route.request().postDataJSON()?.test !== "no-lock") return route.continue();
    const resp = await route.fetch();
    const j = await resp.json();
    j.layout.result_workgroup_size *= 2;
    return route.fulfill({ response: resp, json: j });
  });
  await page.click("#lk-run");
  await page.waitForSelector("#locks-table", { timeout: 300000 });
  const lockRows = await page.$$eval("#locks-table tr", (rs) => rs.slice(1).map((r) => [...r.cells].map((c) => c.textContent)));
  await page.unroute("**/api/spec");
  const ran = lockRows.filter((r) => r.length === 7);
  check(ran.length === 4 && ran.every((r) => Number(r[3]) === 2 * 512), `4 lock tests ran 2 × 512 instances: ${JSON.stringify(ran.map((r) => [r[0], r[3], r[4], r[5]]))}`);
  const noLock = ran.find((r) => r[0] === "no-lock");
  check(/not queued: checksum FAILED/.test(noLock?.[6] ?? ""), `a run whose checksum fails is not queued: ${noLock?.[6]?.slice(0, 60)}`);
  check((await page.$eval("#lk-prog", (p) => p.value)) === 1, "Locks' progress bar is full");
  const refused = lockRows.filter((r) => r.length !== 7);
  check(refused.length === 3 && refused.every((r) => /acquire/.test(r.at(-1))), `the 3 fenced locks are refused: ${refused.map((r) => r[0])}`);
  await page.screenshot({ path: `${shots}/locks.png`, fullPage: true });

  // Submit, and the answer is lost (item 8): the server stores submission 1 but the page
  // never hears it (every try of this submission fails on the way back).
  let firstBody = null;
  await page.route("**/api/submissions", async (route) => {
    if (route.request().method() !== "POST") return route.continue();
    if (!firstBody) {
      firstBody = route.request().postDataJSON();
      await route.fetch();
    }
    return route.abort();
  });
  await page.goto(`${base}/#submit`);
  await page.waitForSelector("#su-preview");
  await page.screenshot({ path: `${shots}/submit.png`, fullPage: true });
  await page.click("#su-send");
  await page.waitForSelector("#su-error", { timeout: 60000 });
  await page.unroute("**/api/submissions");
  const firstRuns = firstBody.runs.length;
  // A new run meanwhile; then Submit sends the lost submission again, unchanged (stored
  // once), and the new run as submission 2.
  await page.evaluate(() => (location.hash = "#explore"));
  await page.waitForSelector("#ex-run");
  await page.selectOption("#ex-preset", "basic");
  await page.fill("#ex-iter", "1");
  await page.click("#ex-run");
  await page.waitForSelector("#ex-queued", { timeout: 120000 });
  await page.evaluate(() => (location.hash = "#submit"));
  await page.waitForSelector("#su-outbox");
  await page.click("#su-send");
  await page.waitForSelector("#su-done", { timeout: 60000 });
  let done = await page.textContent("#su-done");
  check(done.includes(`Stored as submission 1 (${firstRuns} runs; already stored)`) && done.includes("Stored as submission 2 (1 runs)"), `after a lost answer: ${done}`);
  // A stale key (an older app version's, already used for other content): 409, renewed.
  await page.evaluate((k) => localStorage.setItem("weft-key", k), firstBody.idempotency_key);
  await page.evaluate(() => (location.hash = "#explore"));
  await page.waitForSelector("#ex-run");
  await page.selectOption("#ex-preset", "basic");
  await page.fill("#ex-iter", "1");
  await page.click("#ex-run");
  await page.waitForSelector("#ex-queued", { timeout: 120000 });
  await page.evaluate(() => (location.hash = "#submit"));
  await page.waitForSelector("#su-send:not([disabled])");
  await page.click("#su-send");
  await page.waitForSelector("#su-done", { timeout: 60000 });
  done = await page.textContent("#su-done");
  check(/stale key/.test(done) && done.includes("Stored as submission 3 (1 runs)"), `a stale key is renewed: ${done}`);

  // Campaign with lowered settings (one configuration, one iteration).
  await page.goto(`${base}/#campaign?configs=1&iterations=1&limits=4,32`);
  await page.waitForSelector("#ca-run");
  // The duration is estimated before consent (item 12).
  await page.waitForSelector("#ca-estimate-value", { timeout: 120000 });
  const estimateMs = Number(await page.getAttribute("#ca-estimate-value", "data-ms"));
  check(estimateMs > 0 && Number.isFinite(estimateMs), `duration estimated before consent: ${await page.textContent("#ca-estimate")}`);
  await page.check("#ca-consent");
  await page.click("#ca-run");
  await page.waitForSelector("#ca-done", { timeout: 600000 });
  const caDone = await page.textContent("#ca-done");
  // Every tuning mutant and each of its paired conformance tests, once (one configuration).
  const expectedRuns = all.filter((t) => t.tuning).reduce((a, t) => a + 1 + t.pairs.length, 0);
  check(caDone.includes(`${expectedRuns} runs stored`), `campaign ran the 32 mutants and their conformance tests (${expectedRuns} runs): ${caDone}`);
  await page.screenshot({ path: `${shots}/campaign.png`, fullPage: true });

  // Results and analyses.
  await page.goto(`${base}/#results`);
  await page.waitForSelector("#table2");
  const rows = await page.$$eval("#table2 th.dev", (r) => r.length);
  check(rows === 1, `Table 2 has a column for the one device (${rows})`);
  const subs = await page.$$eval("#submissions tr", (r) => r.length - 1);
  check(subs === 4, `Results lists the 4 submissions (${subs})`);
  const width = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  check(width[0] <= width[1], `Results fit the page (${width[0]} px of ${width[1]})`);
  const fig6 = JSON.parse((await page.getAttribute("#re-fig6", "data-values")) ?? "[]");
  check(fig6.length > 0 && fig6.every((v) => v > 0), `Fig. 6 draws every rate, zeros at the axis floor (${fig6.length} bars)`);
  await page.screenshot({ path: `${shots}/results.png`, fullPage: true });
  const rep = await (await fetch(`${base}/api/analyses`)).json();
  check(rep.devices.length === 1 && rep.devices[0].browser.includes("Chrom"), `analyses see the browser device: ${JSON.stringify(rep.devices[0])}`);
  check(rep.best_rates.some((b) => b.test === "MP"), "analyses have MP's best rate");
  check(rep.correlations.some((c) => c.mutant === "MP" && c.conformance === "MP-CO"), "analyses correlate MP with MP-CO");
  const t5 = rep.locks.map((l) => `${l.test}:${l.failing}/${l.instances}`);
  // The three unfenced locks; the no-lock run failed its (doctored) checksum, not sent.
  check(rep.locks.length === 3 && rep.locks.every((l) => l.instances === 1024 && l.failing + l.cut <= l.instances && l.test !== "no-lock"), `Table 5 in the analyses: ${t5}`);
  const t5rows = await page.$$eval("#table5 tr", (r) => r.length - 1);
  check(t5rows === 3, `Results shows Table 5 (${t5rows} rows)`);
  // `weft analyze` on the same database prints the same report (item 11).
  const cli = spawnSync(weft, ["analyze", "--db", join(dir, "campaign.db"), "--json"], { encoding: "utf8" });
  check(cli.status === 0 && JSON.stringify(JSON.parse(cli.stdout)) === JSON.stringify(rep), "weft analyze --json equals /api/analyses on the same database");
  // A device name with markup renders as text (the template layer escapes it).
  const xss = { ...firstBody, idempotency_key: "xss-check-0001", device: { ...firstBody.device, name: '<img src=x onerror="window.__xss=1">' } };
  const xr = await fetch(`${base}/api/submissions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(xss) });
  check(xr.status === 201, `a submission with markup in the device name is stored (${xr.status})`);
  await page.evaluate(() => (location.hash = "#explore"));
  await page.evaluate(() => (location.hash = "#results"));
  await page.waitForFunction(() => document.querySelector("#table2")?.textContent?.includes("<img"), null, { timeout: 30000 });
  check((await page.evaluate(() => window.__xss)) === undefined, "the device name renders as text, not markup");
  const h = await (await fetch(`${base}/api/health`)).json();
  console.log(`     server: ${h.runs} runs in ${h.submissions} submissions`);
} finally {
  await browser.close();
  server.kill("SIGINT");
}
console.log(`${failures === 0 ? "PASS" : "FAIL"}: browser test in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures === 0 ? 0 : 1);
