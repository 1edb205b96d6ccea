// The TypeScript compiler for the architecture checks, loaded with `require`. `import ts from "typescript"`
// made Node's ESM loader read typescript.js (9 MB of CommonJS) twice more: once to detect its module format
// and once with cjs-module-lexer for named exports: 1.3 CPU-s a load against 0.4 with `require`, paid in
// vitest's main process (test/architecture/global-setup.mjs, before the first runtime starts) and in each
// node worker that runs an architecture check (docs/testing.md, "What the first seconds cost").
import { createRequire } from "node:module";

export default createRequire(import.meta.url)("typescript");
