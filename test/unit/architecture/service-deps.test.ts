import { beforeAll, describe, expect, it } from "vitest";
import { collectPositionalDeps, DEPS_FIXTURE, positionalDepsIn } from "../../architecture/service-deps";

// Every service takes one `Deps` (db, env, clock, log: src/services/deps.ts) first, built once per
// request, cron run or queue batch; never `db`, `env` or a raw D1 binding by position
// (docs/architecture.md "Services on the context").

/**
 * Folders not yet moved to Deps (issue 20), each with what is left. The list only shrinks: a folder
 * whose every function takes Deps must leave it (the test below fails while it stays).
 */
const NOT_YET: Record<string, string> = {
  "src/services/webhooks": "delivery, first attempts, endpoints and secrets (env); dispatch takes Deps",
};

/** The builders: they make a Deps (or the view context around one) from the bindings, so they take env. */
const BUILDERS: Record<string, string> = {
  "src/services/deps.ts": "builds Deps from the bindings (once per request, cron run, queue batch)",
  "src/services/views/view-context.ts": "builds the view context (a Deps with links)",
  "src/services/views/links.ts": "builds the link signer from the signing secret and the public URL",
};

const folderOf = (mention: string) => mention.split(":")[0].split("/").slice(0, 3).join("/");

describe("services take Deps, not db/env by position", () => {
  let mentions: string[] = [];
  beforeAll(() => {
    mentions = collectPositionalDeps(process.cwd());
  }, 60_000);

  it("no exported function under src/services takes a Database, D1Database or Bindings (or db/env/d1) first", () => {
    expect(mentions.filter((m) => !(folderOf(m) in NOT_YET) && !(m.split(":")[0] in BUILDERS))).toEqual([]);
  });

  it("each builder still takes the bindings (an entry that no longer applies goes)", () => {
    for (const file of Object.keys(BUILDERS)) expect(mentions.some((m) => m.startsWith(`${file}:`)), file).toBe(true);
  });

  it("each folder still listed as not yet moved still has such a function (an entry that no longer applies goes)", () => {
    for (const folder of Object.keys(NOT_YET)) expect(mentions.some((m) => folderOf(m) === folder), folder).toBe(true);
  });

  it("catches each kind of breach in a made-up service, and not a function that takes Deps", () => {
    expect(positionalDepsIn(DEPS_FIXTURE.file, DEPS_FIXTURE.text)).toEqual([
      "src/services/made-up.ts:5 a(db: Database)",
      "src/services/made-up.ts:6 b(d1: D1Database)",
      'src/services/made-up.ts:7 c(env: Pick<Bindings, "DB" | "DOCUMENTS">)',
      "src/services/made-up.ts:8 d(store: SweepEnv)",
      "src/services/made-up.ts:9 e(db)",
      "src/services/made-up.ts:10 f(client: Database & { extra: true })",
    ]);
  });
});
