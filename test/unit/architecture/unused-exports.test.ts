import { beforeAll, describe, expect, it } from "vitest";
import { unusedExports, type UnusedExport } from "../../architecture/unused-exports";

// Dead code out: an export of src/ that nothing outside test/ imports and its own module does not use
// either is code only tests can reach. Give it a caller or delete it (and its test). `src/index.ts`'s
// exports are read like any module's: the runtime calls only the default handler and the Durable Object
// classes wrangler.toml names, so anything else it exports needs a caller too. A use by its own module
// is a use of that export (the checker resolves the name), not of a property that shares its name.
//
// Explicit allow-list, each with its reason; an entry that is no longer dead fails the last test.
const ALLOWED_DEAD: Record<string, string> = {
  "src/index.ts: default": "the Worker's fetch/scheduled/queue handlers: the runtime calls them",
};

/**
 * Exports whose own module uses them but nothing else imports (types in signatures, helpers that need
 * no `export`): not dead, but each is an `export` too many. This number may only go down.
 */
const NEEDLESS_EXPORTS_AT_MOST = 320;

describe("no dead exports in src/", () => {
  let unused: UnusedExport[] = [];
  beforeAll(() => {
    unused = unusedExports(process.cwd());
  }, 240_000);

  it("every export is imported outside test/ or used by its own module (allow-list aside)", () => {
    const dead = unused.filter((u) => !u.usedInModule).map((u) => u.name);
    expect(dead.filter((name) => !(name in ALLOWED_DEAD))).toEqual([]);
  });

  it("every allow-listed export is still dead (an entry that got a caller leaves the list)", () => {
    const dead = new Set(unused.filter((u) => !u.usedInModule).map((u) => u.name));
    expect(Object.keys(ALLOWED_DEAD).filter((name) => !dead.has(name))).toEqual([]);
  });

  it(`exports that only their own module uses stay at most ${NEEDLESS_EXPORTS_AT_MOST}`, () => {
    expect(unused.filter((u) => u.usedInModule).length).toBeLessThanOrEqual(NEEDLESS_EXPORTS_AT_MOST);
  });
});
