import { describe, expect, inject, it } from "vitest";
import { folderCycleImports, folderCycles, folderOf, importCycles, layeringBreaches, type ImportGraph } from "./architecture/rules";

// The picture in docs/architecture.md as a test: an import that runs up a floor or closes a
// circle fails here. The graph is collected from src/ on the Node side (test/architecture/global-setup.mjs).
const graph: ImportGraph = inject("importGraph");
const breachesOf = (rule: string) =>
  layeringBreaches(graph).filter((b) => b.rule === rule).map((b) => `${b.from} -> ${b.to}`);

describe("architecture", () => {
  it("reads the imports of every module in src/", () => {
    expect(Object.keys(graph)).toContain("src/index.ts");
    expect(Object.keys(graph)).toContain("src/lib/refusal.ts");
    expect(Object.keys(graph).length).toBeGreaterThan(100);
  });

  it("lib is the ground floor: it imports no other folder of src/", () => {
    expect(breachesOf("lib is the ground floor: it imports no other folder of src/")).toEqual([]);
  });

  it("domain decides without services, routes, db, middleware, registers, Hono or drizzle", () => {
    expect(breachesOf("domain decides without services, routes, db, middleware, registers, Hono or drizzle")).toEqual([]);
  });

  it("drizzle is imported only inside src/db", () => {
    expect(breachesOf("drizzle is imported only inside src/db")).toEqual([]);
  });

  it("route folders (api/partner, api/lender, api/admin, web/hub, web/portal, web/files) read no storage and do not lean on each other", () => {
    expect(breachesOf("route folders read no storage and do not lean on each other")).toEqual([]);
  });

  it("registers (company-register adapters) import lib and domain only", () => {
    expect(breachesOf("registers (company-register adapters) import lib and domain only")).toEqual([]);
  });

  for (const rule of [
    "only the doors (api/, web/, middleware/, app.ts, index.ts, app-env.ts) import Hono",
    "only the doors read the refusal status table",
    "web/ imports from api/ only api/shared/schemas and api/problem.ts",
    "api/ never imports web/",
    "jobs/ import only services, db, domain and lib",
    "services log through deps.log: only services/deps.ts imports the lib logger",
  ]) {
    it(rule, () => {
      expect(breachesOf(rule)).toEqual([]);
    });
  }

  it("no import closes a cycle", () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it("no folder-level cycle: the folders of src/ import each other in one direction (a parent folder and its subfolder count as two)", () => {
    const circles = folderCycles(graph).map((cycle) => ({ cycle, closedBy: folderCycleImports(graph, cycle) }));
    expect(circles).toEqual([]);
  });

  it("only the logger (src/lib/logger.ts) writes to the console: every line is structured and goes through one place", () => {
    const calls = inject("consoleCalls");
    expect(calls.some((call) => call.startsWith("src/lib/logger.ts:"))).toBe(true);
    expect(calls.filter((call) => !call.startsWith("src/lib/logger.ts:"))).toEqual([]);
  });
});

describe("the architecture rules themselves", () => {
  const fixture: ImportGraph = {
    "src/lib/a.ts": ["src/domain/x.ts"],
    "src/domain/x.ts": ["hono", "src/db/client.ts"],
    "src/db/client.ts": ["drizzle-orm/d1"],
    "src/services/s.ts": ["drizzle-orm"],
    "src/api/partner/p.ts": ["src/api/lender/l.ts", "src/db/client.ts", "src/api/shared/schemas.ts"],
    "src/api/lender/l.ts": ["src/api/shared/schemas.ts"],
    "src/api/shared/schemas.ts": ["src/lib/a.ts"],
    "src/registers/r.ts": ["src/services/s.ts", "src/domain/x.ts"],
    "src/domain/c1.ts": ["src/domain/c2.ts"],
    "src/domain/c2.ts": ["src/domain/c1.ts"],
    "src/services/t.ts": ["hono", "src/lib/refusal-status.ts"],
    "src/middleware/m.ts": ["hono", "src/lib/refusal-status.ts"],
    "src/web/hub/h.ts": ["src/api/router.ts", "src/api/problem.ts", "src/api/shared/schemas/ok.ts"],
    "src/api/lender/w.ts": ["src/web/kit/form.ts"],
    "src/jobs/j.ts": ["src/services/s.ts", "src/middleware/m.ts", "src/lib/logger.ts"],
    "src/services/webhooks/logs.ts": ["src/lib/logger.ts", "src/services/deps.ts"],
    "src/services/deps.ts": ["src/lib/logger.ts"],
  };

  it("names each kind of breach it is meant to catch", () => {
    const found = layeringBreaches(fixture).map((b) => `${b.from} -> ${b.to}`);
    expect(found.sort()).toEqual([
      "src/api/lender/w.ts -> src/web/kit/form.ts",
      "src/api/partner/p.ts -> src/api/lender/l.ts",
      "src/api/partner/p.ts -> src/db/client.ts",
      "src/domain/x.ts -> hono",
      "src/domain/x.ts -> hono",
      "src/domain/x.ts -> src/db/client.ts",
      "src/jobs/j.ts -> src/middleware/m.ts",
      "src/lib/a.ts -> src/domain/x.ts",
      "src/registers/r.ts -> src/services/s.ts",
      "src/services/s.ts -> drizzle-orm",
      "src/services/t.ts -> hono",
      "src/services/t.ts -> src/lib/refusal-status.ts",
      "src/services/webhooks/logs.ts -> src/lib/logger.ts",
      "src/web/hub/h.ts -> src/api/router.ts",
    ]);
  });

  it("finds a cycle and only the cycle", () => {
    expect(importCycles(fixture)).toEqual([["src/domain/c1.ts", "src/domain/c2.ts"]]);
  });

  it("finds a folder-level cycle no file-level cycle shows, a parent and its subfolder included, and only that", () => {
    // No two files import each other, yet domain/a → domain/b → domain/a, and db → db/webhooks → db.
    const folders: ImportGraph = {
      "src/domain/a/one.ts": ["src/domain/b/two.ts"],
      "src/domain/b/two.ts": ["src/lib/x.ts"],
      "src/domain/b/three.ts": ["src/domain/a/four.ts"],
      "src/domain/a/four.ts": ["src/lib/x.ts"],
      "src/db/guarded.ts": ["src/db/webhooks/events.ts"],
      "src/db/webhooks/events.ts": ["src/db/client.ts"],
      "src/db/client.ts": ["drizzle-orm"],
      "src/lib/x.ts": [],
      // The entry files count as themselves: app.ts composing a door that reads app-env.ts is no circle.
      "src/app.ts": ["src/api/router.ts"],
      "src/api/router.ts": ["src/app-env.ts"],
      "src/app-env.ts": ["src/lib/x.ts"],
    };
    expect(importCycles(folders)).toEqual([]);
    expect(folderCycles(folders)).toEqual([["src/db", "src/db/webhooks"], ["src/domain/a", "src/domain/b"]]);
    expect(folderCycleImports(folders, ["src/db", "src/db/webhooks"]).sort()).toEqual([
      "src/db/guarded.ts -> src/db/webhooks/events.ts",
      "src/db/webhooks/events.ts -> src/db/client.ts",
    ]);
    expect(folderOf("src/app.ts")).toBe("src/app.ts");
    expect(folderOf("src/db/webhooks/events.ts")).toBe("src/db/webhooks");
  });
});
