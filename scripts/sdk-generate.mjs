#!/usr/bin/env node
// `npm run sdk:generate`: starts the service bare (as a fresh clone does, on a
// throwaway local state and a free port), fetches the OpenAPI documents it
// serves and regenerates the SDK's types from them with openapi-typescript.
// The documents are generated from the zod schemas that validate, so the SDK
// follows the service. Commit the regenerated files.
import { writeFileSync } from "node:fs";
import { localRun } from "./lib/local-run.mjs";
import { SDK_DOCUMENTS, sdkTypesSource } from "./lib/sdk-types.mjs";
import { startService } from "./lib/service.mjs";

const { port, dir: persistTo, remove } = await localRun("rfs-sdk-generate-");
const log = [];
let service;
try {
  service = await startService({ port, persistTo, bare: true, log: (line) => log.push(line) });
  for (const { path, file } of SDK_DOCUMENTS) {
    const res = await fetch(`${service.url}${path}`);
    if (!res.ok) throw new Error(`GET ${path}: ${res.status}`);
    const document = await res.json();
    writeFileSync(file, await sdkTypesSource(document, path));
    console.log(`wrote ${file} (${Object.keys(document.paths ?? {}).length} paths)`);
  }
} catch (error) {
  console.error(String(error?.stack ?? error));
  if (log.length) console.error(log.join(""));
  process.exitCode = 1;
} finally {
  service?.stop();
  remove();
}
