// What bench/compare.mjs and bench/cpu.mjs share: their `--name value` options, the seeded instances
// they drive (each file holds the JSON line bench/serve-seeded.mjs printed) and the GET rows both
// know by name.
import { readFileSync } from "node:fs";
import { basename } from "node:path";

/** The command line: `option(name, fallback)` takes `--name value` out of it; `instances()` reads the files left. */
export function commandLine(argv = process.argv.slice(2)) {
  const args = [...argv];
  return {
    option(name, fallback) {
      const at = args.indexOf(`--${name}`);
      return at >= 0 ? args.splice(at, 2)[1] : fallback;
    },
    instances: () => args.map((file) => ({ name: basename(file, ".json"), ...JSON.parse(readFileSync(file, "utf8").trim().split("\n").pop()) })),
  };
}

/** The rows both scripts drive by name, against one instance. */
export function readRows(instance) {
  const partner = { "X-API-Key": instance.partnerKey };
  return {
    health: { method: "GET", path: "/health" },
    enums: { method: "GET", path: "/partner/v1/enums/revenue-bands?country=GB", headers: partner },
    read: { method: "GET", path: `/partner/v1/leads/${instance.leadId}`, headers: partner },
    list: { method: "GET", path: "/partner/v1/leads?limit=25", headers: partner },
  };
}
