// The live ring page (GET / on a keeper) in a real headless browser: Debian's
// chromium driven by puppeteer-core. It shows every backend ready, then a
// killed one turn dead and its repair's progress, without a reload; the
// screenshot goes to .binring/test-output/ring-page.png.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { BinClient } from "@binring/client";
import puppeteer, { type Browser } from "puppeteer-core";
import { afterAll, expect, it } from "vitest";
import { LocalCluster, REPO_ROOT, waitForSettled } from "../support/index.js";

/** Where .ci/run installs it when missing; CHROMIUM_PATH overrides. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const OUTPUT_DIR = join(REPO_ROOT, ".binring", "test-output");

let cluster: LocalCluster | undefined;
let browser: Browser | undefined;
afterAll(async () => {
  await browser?.close();
  await cluster?.stop();
});

it("shows a killed backend turn dead and its repair's progress, live", async () => {
  cluster = await LocalCluster.start({ backends: 6, keepers: 1, keeperArgs: ["--copy-batch", "50"] });
  const http = (await cluster.keeperProcesses[0]!.waitForLine(/"http":"([^"]+)"/))[1]!;
  await waitForSettled(http, Object.fromEntries(cluster.addresses.map((a) => [a, "ready"])));
  const client = new BinClient({ backends: cluster.addresses, keepers: cluster.keepers });
  for (let i = 0; i < 10; i++) {
    await Promise.all(Array.from({ length: 100 }, (_, j) => client.bin(`b${j}`).set(`k${i}`, "v")));
  }
  await client.close();

  browser = await puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    // The test runs as root in CI containers, where chromium's sandbox cannot start.
    args: ["--no-sandbox", "--disable-gpu"],
  });
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  await page.goto(`http://${http}/`);
  const victim = cluster.addresses[0]!;
  const onRing = (state: string) => `#ring circle[data-backend="${victim}"][data-state="${state}"]`;
  await page.waitForSelector(onRing("ready"), { timeout: 20_000 });
  expect(await page.$$eval("#ring circle[data-backend]", (dots) => dots.length)).toBe(6);
  expect(await page.$$eval("#ring path[data-slice-of]", (arcs) => arcs.length)).toBe(6);
  expect(await page.$$eval("#backends tbody tr", (rows) => rows.length)).toBe(6);

  await cluster.kill(victim, { withRedis: true });
  await page.waitForSelector(onRing("dead"), { timeout: 30_000 });
  const repair = `.repair[data-backend="${victim}"][data-kind="repair"]`;
  await page.waitForSelector(`${repair}[data-state="done"]`, { timeout: 30_000 });
  const progress = await page.$eval(`${repair} progress`, (bar) => [
    bar.getAttribute("value"),
    bar.getAttribute("max"),
  ]);
  expect(progress).toEqual(["1", "1"]);
  expect(await page.$eval(`${repair} div`, (label) => label.textContent)).toMatch(/[1-9]\d* entries copied/);
  expect(
    await page.$eval(`#transitions li[data-backend="${victim}"][data-to="dead"]`, (item) => item.textContent),
  ).toContain("dead");
  expect(await page.$eval(`#backends tr[data-backend="${victim}"]`, (row) => row.dataset.state)).toBe("dead");

  mkdirSync(OUTPUT_DIR, { recursive: true });
  await page.screenshot({ path: join(OUTPUT_DIR, "ring-page.png"), fullPage: true });
}, 90_000);
