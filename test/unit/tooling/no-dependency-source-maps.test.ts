import { createRequire } from "node:module";
import { resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type ViteDevServer } from "vite";
import { needsNoSourceMap, noDependencySourceMaps } from "../../harness/no-dependency-source-maps.mjs";

// The workerd project's modules reach the runtimes with their source map inlined only where a stack trace is read:
// src/ and test/ keep theirs; dependencies, generated code and JSON lose theirs (test/harness/no-dependency-source-maps.mts).
describe("source maps sent to the runtimes", () => {
  it("are dropped for dependencies, generated code and JSON only", () => {
    for (const url of ["/work/main/node_modules/zod/v4/core/core.js", "/@fs/x/node_modules/hono/dist/index.js?v=1", "/src/api/reference/guides.generated.ts", "/src/api/reference/examples.json", "/src/api/reference/examples.json?import"]) {
      expect(needsNoSourceMap(url), url).toBe(true);
    }
    for (const url of ["/src/services/leads/leads.ts", "/test/leads/leads.happy.test.ts", "/src/lib/json-body.ts", "/src/generated-names.ts"]) {
      expect(needsNoSourceMap(url), url).toBe(false);
    }
  });

  describe("through vite's own transform, as the pool asks for a module", () => {
    let server: ViteDevServer;
    beforeAll(async () => {
      server = await createServer({ configFile: false, root: process.cwd(), logLevel: "silent", server: { middlewareMode: true, hmr: false, ws: false }, plugins: [noDependencySourceMaps()] });
    });
    afterAll(() => server?.close());

    it("keeps a map for our own code and gives a dependency's module none", async () => {
      const ssr = server.environments.ssr;
      const own = await ssr.transformRequest(`/${"src/lib/logger.ts"}`);
      expect(own?.map && "mappings" in own.map ? own.map.mappings.length : 0).toBeGreaterThan(0);
      const dependency = createRequire(resolve("package.json")).resolve("hono/utils/mime");
      const theirs = await ssr.transformRequest(dependency);
      expect(theirs?.code.length).toBeGreaterThan(0);
      expect(theirs?.map).toBeNull();
      // The module graph keeps the same result: what vitest inlines from it has no map either.
      expect((await ssr.moduleGraph.getModuleByUrl(dependency))?.transformResult?.map).toBeNull();
    });
  });
});
