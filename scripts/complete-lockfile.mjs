#!/usr/bin/env node
// The registry this project installs from carries only the Linux builds of
// workerd, so npm leaves the macOS and Windows optional packages out of
// package-lock.json, and `npm ci` then calls the lock out of sync. This
// records each missing platform package beside the package that wants it,
// with its os/cpu, so `npm ci` validates; npm never installs them on Linux.
// Run after any `npm install` that rewrites the lock.
import { readFileSync, writeFileSync } from "node:fs";

const PLATFORM = /^@cloudflare\/workerd-(darwin|linux|windows)-(64|arm64)$/;
const OS = { darwin: "darwin", linux: "linux", windows: "win32" };
const CPU = { 64: "x64", arm64: "arm64" };

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const match = PLATFORM.exec(name);
    if (!match) continue;
    const nested = `${path}/node_modules/${name}`;
    const hoisted = `node_modules/${name}`;
    const where = path === "" ? hoisted : lock.packages[hoisted]?.version === version ? hoisted : nested;
    if (lock.packages[where]) continue;
    lock.packages[where] = {
      version,
      dev: entry.dev ?? undefined,
      optional: true,
      os: [OS[match[1]]],
      cpu: [CPU[match[2]]],
      license: "Apache-2.0",
      engines: { node: ">=16" },
    };
    added++;
  }
}
lock.packages = Object.fromEntries(Object.entries(lock.packages).sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : a.localeCompare(b))));
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`recorded ${added} platform packages the registry does not carry`);
