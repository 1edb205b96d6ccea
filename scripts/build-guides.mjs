#!/usr/bin/env node
// `npm run guides:build`: renders the Markdown guides of docs/ to HTML once, at build time, into
// src/api/reference/guides.generated.ts, which the Worker serves under /docs/guides/<slug>. The
// Worker carries no Markdown library. Commit the generated file; test/reference/guides.test.ts
// fails when it no longer matches docs/ (`--check` says the same without writing).
import { readFileSync, writeFileSync } from "node:fs";
import { guidesSource } from "./lib/guides.mjs";

const OUT = "src/api/reference/guides.generated.ts";
const source = guidesSource((file) => readFileSync(file, "utf8"));
if (process.argv.includes("--check")) {
  if (readFileSync(OUT, "utf8") !== source) {
    console.error(`${OUT} does not match docs/: run npm run guides:build`);
    process.exit(1);
  }
  console.log(`${OUT} matches docs/`);
} else {
  writeFileSync(OUT, source);
  console.log(`wrote ${OUT}`);
}
