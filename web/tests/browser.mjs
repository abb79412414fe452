// Browser test of the campaign web app (issue 16): starts `weft serve` on 127.0.0.1 with a
// fresh database, opens the app in Debian's Chromium (headless, WebGPU on SwiftShader),
// runs MP and a conformance test, checks the histogram and its checksum, tunes with a
// fixed seed, runs Conform, submits, and finds the submission in Results and in the
// analyses. Screenshots of every page are taken into a temporary directory, and written to
// docs/campaign/ only with WEFT_UPDATE_SCREENSHOTS=1 (so a test run leaves the tree clean).
//
// usage: node web/tests/browser.mjs [path/to/weft]   (from the repository root)
import { spawn } from "node:child_process";
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
  await page.goto(`${base}/#explore`);
  await page.waitForSelector("#ex-text");
  const status = await page.textContent("#gpu-status");
  check(status.startsWith("WebGPU"), `WebGPU adapter: ${status}`);

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
  await page.waitForSelector("#tune-table", { timeout: 300000 });
  const tuned = await page.$$eval("#tune-table tr", (r) => r.length - 1);
  check(tuned === 2, `tune table has 2 mutants (${tuned})`);
  const killedCol = await page.$$eval("#tune-table td.killed", (tds) => tds.map((t) => t.textContent));
  check(killedCol.length === 2 && killedCol.every((k) => /^(yes \(\d\/2\)|no)$/.test(k)), `killed column: ${killedCol}`);
  const corrTarget = await page.$$eval("#tune-table tr", (rs) =>
    rs.find((r) => r.cells[0].textContent === "CoRR-mutant")?.cells[1].textContent);
  check(corrTarget === "interleaved", `CoRR-mutant targets an interleaving (${corrTarget})`);
  check(/of 2 mutants killed/.test(await page.textContent("#tu-killed")), await page.textContent("#tu-killed"));
  await page.screenshot({ path: `${shots}/tune.png`, fullPage: true });

  // Conform: MP-CO under MP's best configuration.
  await page.goto(`${base}/#conform`);
  await page.waitForSelector("#co-run");
  await page.fill("#co-iter", "2");
  await page.click("#co-run");
  await page.waitForSelector("#conform-table", { timeout: 300000 });
  const verdict = await page.textContent("#conform-table tr:nth-child(2) td:nth-child(5)");
  check(/conforms|VIOLATION/.test(verdict), `MP-CO verdict: ${verdict}`);
  await page.screenshot({ path: `${shots}/conform.png`, fullPage: true });

  // Locks (paper 001 §5.3): the unfenced locks and the no-lock baseline run; the fenced
  // locks are refused (WGSL has no acquire/release fences).
  await page.goto(`${base}/#locks`);
  await page.waitForSelector("#lk-run");
  await page.fill("#lk-iter", "2");
  await page.selectOption("#lk-preset", "basic");
  await page.click("#lk-run");
  await page.waitForSelector("#locks-table", { timeout: 300000 });
  const lockRows = await page.$$eval("#locks-table tr", (rs) => rs.slice(1).map((r) => [...r.cells].map((c) => c.textContent)));
  const ran = lockRows.filter((r) => r.length === 7);
  check(ran.length === 4 && ran.every((r) => Number(r[3]) === 2 * 512), `4 lock tests ran 2 × 512 instances: ${JSON.stringify(ran.map((r) => [r[0], r[3], r[4], r[5]]))}`);
  const refused = lockRows.filter((r) => r.length !== 7);
  check(refused.length === 3 && refused.every((r) => /acquire/.test(r.at(-1))), `the 3 fenced locks are refused: ${refused.map((r) => r[0])}`);
  await page.screenshot({ path: `${shots}/locks.png`, fullPage: true });

  // Submit.
  await page.goto(`${base}/#submit`);
  await page.waitForSelector("#su-preview");
  await page.screenshot({ path: `${shots}/submit.png`, fullPage: true });
  await page.click("#su-send");
  await page.waitForSelector("#su-done", { timeout: 60000 });
  const done = await page.textContent("#su-done");
  check(/Stored as submission 1 \(\d+ runs\)/.test(done), done);

  // Campaign with lowered settings (one configuration, one iteration).
  await page.goto(`${base}/#campaign?configs=1&iterations=1&limits=4,32`);
  await page.waitForSelector("#ca-run");
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
  const rows = await page.$$eval("#table2 tr", (r) => r.length - 1);
  check(rows >= 1, `Table 2 lists ${rows} device(s)`);
  const subs = await page.$$eval("#submissions tr", (r) => r.length - 1);
  check(subs === 2, `Results lists the 2 submissions (${subs})`);
  await page.screenshot({ path: `${shots}/results.png`, fullPage: true });
  const rep = await (await fetch(`${base}/api/analyses`)).json();
  check(rep.devices.length === 1 && rep.devices[0].browser.includes("Chrom"), `analyses see the browser device: ${JSON.stringify(rep.devices[0])}`);
  check(rep.best_rates.some((b) => b.test === "MP"), "analyses have MP's best rate");
  check(rep.correlations.some((c) => c.mutant === "MP" && c.conformance === "MP-CO"), "analyses correlate MP with MP-CO");
  const t5 = rep.locks.map((l) => `${l.test}:${l.failing}/${l.instances}`);
  check(rep.locks.length === 4 && rep.locks.every((l) => l.instances === 1024 && l.failing + l.cut <= l.instances), `Table 5 in the analyses: ${t5}`);
  const t5rows = await page.$$eval("#table5 tr", (r) => r.length - 1);
  check(t5rows === 4, `Results shows Table 5 (${t5rows} rows)`);
  const h = await (await fetch(`${base}/api/health`)).json();
  console.log(`     server: ${h.runs} runs in ${h.submissions} submissions`);
} finally {
  await browser.close();
  server.kill("SIGINT");
}
console.log(`${failures === 0 ? "PASS" : "FAIL"}: browser test in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures === 0 ? 0 : 1);
