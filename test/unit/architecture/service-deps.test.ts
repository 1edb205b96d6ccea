import { beforeAll, describe, expect, it } from "vitest";
import { collectPositionalDeps, DEPS_FIXTURE, positionalDepsIn } from "../../architecture/service-deps";

// Every service takes one `Deps` (db, env, clock, log: src/services/deps.ts) first, built once per
// request, cron run or queue batch; never `db`, `env` or a raw D1 binding by position
// (docs/architecture.md "Services on the context"). Every folder has moved (issue 20): the only
// functions that take the bindings are the builders below.

/** The builders: they make a Deps (or the view context around one) from the bindings, so they take env. */
const BUILDERS: Record<string, string> = {
  "src/services/deps.ts": "builds Deps from the bindings (once per request, cron run, queue batch)",
  "src/services/views/view-context.ts": "builds the view context (a Deps with links)",
  "src/services/views/links.ts": "builds the link signer from the signing secret and the public URL",
};

describe("services take Deps, not db/env by position", () => {
  let mentions: string[] = [];
  beforeAll(() => {
    mentions = collectPositionalDeps(process.cwd());
  }, 60_000);

  it("no exported function under src/services takes a Database, D1Database or Bindings (or db/env/d1) first", () => {
    expect(mentions.filter((m) => !(m.split(":")[0] in BUILDERS))).toEqual([]);
  });

  it("each builder still takes the bindings (an entry that no longer applies goes)", () => {
    for (const file of Object.keys(BUILDERS)) expect(mentions.some((m) => m.startsWith(`${file}:`)), file).toBe(true);
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
