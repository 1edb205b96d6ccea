/**
 * The pool hands every module to the workerd runtimes as code with its source map inlined (vitest's
 * `inlineSourceMap`: the map as base64 JSON in a comment, its `sourcesContent` holding the whole original file).
 * For a dependency that map is a second copy of the file, base64'd: 72 % of the bytes the main process sent the
 * runtimes over a run of test/leads (29 of 40 MB: three runtimes each loading zod, hono, fast-check...), each map
 * made (vite's map of its import rewrite), serialised by devalue character by character, sent, and parsed again
 * in the runtime. Generated data is the same: the rendered guides (`*.generated.ts`, 840 kB with a 450 kB map)
 * and JSON modules (the captured examples) have no line anyone debugs.
 *
 * Such a module (a file under node_modules/, a `.generated.ts`, a `.json`) is returned without its map, so vitest
 * inlines none: its code and line numbers are those the runtime runs (the import rewrite keeps lines where they
 * are). The maps of src/ and test/ stay: they map the stack traces a failing test prints. The transform result is
 * the object the module graph keeps, so the map is dropped there too (docs/testing.md, "Dependencies sent to the
 * runtimes without their source maps").
 */
import type { Plugin } from "vite";

/** A module whose source map nobody reads: a dependency, generated code, JSON data. */
export const needsNoSourceMap = (url: string) => /\/node_modules\/|\.generated\.[cm]?[jt]s(?:\?|$)|\.json(?:\?|$)/.test(url);

export function noDependencySourceMaps(): Plugin {
  return {
    name: "rfs:no-dependency-source-maps",
    configureServer(server) {
      for (const environment of Object.values(server.environments)) {
        const transformRequest = environment.transformRequest.bind(environment);
        environment.transformRequest = async (url, ...rest) => {
          const result = await transformRequest(url, ...rest);
          if (result?.map && needsNoSourceMap(url)) result.map = null;
          return result;
        };
      }
    },
  };
}
