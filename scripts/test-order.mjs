#!/usr/bin/env node
// `npm run test:order`: does any workerd file depend on what ran before it? (docs/testing.md,
// "Checking that no file depends on another"). Every file of the shared "workerd" project runs in ONE
// runtime (one worker: the most sharing there can be), in a shuffled order that a seed replays.
//
//   npm run test:order                         a random seed (printed first, to replay the run)
//   npm run test:order -- 2811                 that seed
//   npm run test:order -- --files a.test.ts b.test.ts
//                                              exactly these files, in this order, in one runtime:
//                                              the file that leaves something behind, then its victim
//
// Every file that failed here must also be run alone; one that passes alone depends on another file.
// The order the files ran in is written to .state/test-order-<seed>.txt, the file before a victim
// first: the spender is among them.
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";

const argv = process.argv.slice(2);
const filesAt = argv.indexOf("--files");
const files = filesAt === -1 ? [] : argv.slice(filesAt + 1);
const given = filesAt === -1 ? argv[0] : undefined;
if (given !== undefined && !/^\d+$/.test(given)) {
  console.error(`test:order: the seed must be a whole number, not "${given}" (or --files a b ...)`);
  process.exit(2);
}
const seed = files.length > 0 ? null : Number(given ?? Math.floor(Math.random() * 1_000_000));

mkdirSync(".state", { recursive: true });
const name = seed === null ? "files" : String(seed);
const report = resolve(`.state/test-order-${name}.json`);
rmSync(report, { force: true });
const vitest = ["node_modules/vitest/vitest.mjs", "run", "--project", "workerd", "--maxWorkers=1", "--reporter=default", "--reporter=json", `--outputFile.json=${report}`];
const env = { ...process.env };
if (seed === null) {
  env.TEST_FILE_ORDER = files.join(",");
  vitest.push(...files);
  console.log(`test:order: ${files.length} files in this order, one runtime: ${files.join(" → ")}`);
} else {
  vitest.push("--sequence.shuffle.files", `--sequence.seed=${seed}`);
  console.log(`test:order: every workerd file in one runtime, shuffled with seed ${seed} (replay: npm run test:order -- ${seed})`);
}
const run = spawnSync(process.execPath, vitest, { stdio: "inherit", env });

let results = [];
try {
  results = JSON.parse(readFileSync(report, "utf8")).testResults ?? [];
} catch {
  /* vitest wrote no report: its own output says why */
}
if (results.length > 0) {
  // One worker runs its files one after another, and the report lists them in that order (not by
  // start time: a file whose beforeAll failed reports the start of the run).
  const ran = results;
  const lines = ran.map((r, i) => `${String(i + 1).padStart(3)} ${r.status === "failed" ? "FAILED" : "ok    "} ${relative(process.cwd(), r.name)}`);
  const orderFile = resolve(`.state/test-order-${name}.txt`);
  writeFileSync(orderFile, `${lines.join("\n")}\n`);
  const failed = ran.filter((r) => r.status === "failed").map((r) => relative(process.cwd(), r.name));
  console.log(`\ntest:order: the order the files ran in: ${relative(process.cwd(), orderFile)}`);
  if (failed.length > 0) {
    console.log(`test:order: failed here: ${failed.join(", ")}`);
    console.log("test:order: run each alone; one that passes alone depends on a file before it (npm run test:order -- --files <spender> <victim>).");
  }
}
process.exit(run.status ?? 1);
