#!/usr/bin/env node
// `npm run guides:build`: renders the Markdown guides of docs/ to HTML once, at build time, into
// src/api/reference/guides.generated.ts, which the Worker serves under /docs/guides/<slug>. The
// Worker carries no Markdown library. Commit the generated file; test/reference/guides.test.ts
// fails when it no longer matches docs/ (`--check` says the same without writing).
// The images the guides show (docs/portal/*.png) are not in the bundle: each is a static asset,
// assets/guides/<path> a symbolic link to docs/<path>, served at /docs/guides/<path>. This script
// makes those links (and drops links to images no guide shows any more); `--check` verifies them.
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { guideImages, guidesSource } from "./lib/guides.mjs";

const OUT = "src/api/reference/guides.generated.ts";
const ASSETS = "assets/guides";
const read = (file) => readFileSync(file, "utf8");
const source = guidesSource(read);
const images = guideImages(read);
const linkOf = (image) => relative(dirname(join(ASSETS, image)), join("docs", image));

/** Every file (or link) under a folder, relative to it. */
const filesUnder = (folder) =>
  existsSync(folder) ? readdirSync(folder, { recursive: true, withFileTypes: true }).filter((d) => !d.isDirectory()).map((d) => relative(folder, join(d.parentPath, d.name))) : [];

const problems = [];
for (const image of images) {
  if (!existsSync(join("docs", image))) problems.push(`docs/${image} is shown by a guide but does not exist`);
}
if (process.argv.includes("--check")) {
  if (readFileSync(OUT, "utf8") !== source) problems.push(`${OUT} does not match docs/: run npm run guides:build`);
  for (const image of images) {
    const link = join(ASSETS, image);
    if (!existsSync(link) || !lstatSync(link).isSymbolicLink() || readlinkSync(link) !== linkOf(image)) problems.push(`${link} is missing: run npm run guides:build`);
  }
  for (const file of filesUnder(ASSETS)) if (!images.includes(file)) problems.push(`${join(ASSETS, file)} is shown by no guide: run npm run guides:build`);
  if (problems.length) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
  console.log(`${OUT} and ${ASSETS}/ match docs/`);
} else {
  if (problems.length) {
    console.error(problems.join("\n"));
    process.exit(1);
  }
  writeFileSync(OUT, source);
  rmSync(ASSETS, { recursive: true, force: true });
  for (const image of images) {
    const link = join(ASSETS, image);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(linkOf(image), link);
  }
  console.log(`wrote ${OUT} and ${images.length} image links in ${ASSETS}/`);
}
