import { beforeAll, describe, expect, it } from "vitest";
import { CLOCK_FIXTURE, clockAndBindingBreachesIn, collectClockAndBindingBreaches } from "../../architecture/service-clock-bindings";

// Services read the time through `deps.clock()` and the R2 bucket and the queues through `deps.env`
// (docs/architecture.md "Services on the context", issue 20): no `nowIso`, `Date.now()` or
// argument-less `new Date()` under src/services, and no parameter typed `R2Bucket` or `Queue`.

/** The one place that may read the real time: it is the clock every Deps starts with. */
const CLOCK_OWNERS: Record<string, string> = {
  "src/services/deps.ts": "the system clock (`() => new Date()`) that depsOf gives a Deps unless told otherwise",
};

describe("services take the time and the bindings from Deps", () => {
  let breaches: string[] = [];
  beforeAll(() => {
    breaches = collectClockAndBindingBreaches(process.cwd());
  }, 60_000);

  it("no module under src/services imports nowIso, calls Date.now() or new Date(), or takes an R2Bucket or Queue parameter", () => {
    expect(breaches.filter((b) => !(b.split(":")[0] in CLOCK_OWNERS))).toEqual([]);
  });

  it("the clock's owner still reads the real time (an entry that no longer applies goes)", () => {
    for (const file of Object.keys(CLOCK_OWNERS)) expect(breaches.some((b) => b.startsWith(`${file}:`)), file).toBe(true);
  });

  it("catches each kind of breach in a made-up service, and not code that keeps the rule", () => {
    expect(clockAndBindingBreachesIn(CLOCK_FIXTURE.file, CLOCK_FIXTURE.text)).toEqual([
      "src/services/made-up.ts:1 imports nowIso",
      "src/services/made-up.ts:2 imports nowIso",
      "src/services/made-up.ts:4 takes bucket: R2Bucket",
      "src/services/made-up.ts:5 takes queue: Queue<{ id: string }>",
      "src/services/made-up.ts:6 takes lookups: Queue | undefined",
      "src/services/made-up.ts:7 calls new Date()",
      "src/services/made-up.ts:7 calls Date.now()",
      "src/services/made-up.ts:8 calls new Date()",
    ]);
  });
});
