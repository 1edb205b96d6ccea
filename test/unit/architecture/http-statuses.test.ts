import { beforeAll, describe, expect, it } from "vitest";
import { collectStatusMentions, STATUS_FIXTURE, STATUS_FREE_FLOORS, statusMentionsIn } from "../../architecture/http-statuses";

// Statuses live only in src/lib/refusal-status.ts and the doors (api/, web/, middleware/): services,
// domain and db throw or return a Refusal (a code) and never say how it is answered. Hono imports are
// the import rule's business (test/architecture.test.ts); this scans the code itself.

/**
 * Mentions that are no status of ours, each with its reason. Keep it short: a new entry needs the
 * same kind of reason.
 */
const ALLOWED: Record<string, string> = {
  // The webhook retry schedule reads the status a partner's receiver answered (2xx delivered, 410 gone,
  // 429/503 slow down): the outside world's HTTP, which the domain decides on, not an answer of ours.
  "src/domain/webhooks/delivery-schedule.ts": "a webhook receiver's answer",
};

describe("no HTTP status below the doors", () => {
  let mentions: string[] = [];
  // One scan of the three floors (a few hundred files parsed; slow on a loaded machine).
  beforeAll(() => {
    mentions = collectStatusMentions(process.cwd());
  }, 60_000);

  it(`no file under ${STATUS_FREE_FLOORS.join(", ")} names an HTTP status (refusal, throw, return, status field, comparison)`, () => {
    expect(mentions.filter((m) => !(m.split(":")[0] in ALLOWED))).toEqual([]);
  });

  it("each allowed file still names a status (an entry that no longer applies goes)", () => {
    for (const file of Object.keys(ALLOWED)) expect(mentions.some((m) => m.startsWith(`${file}:`))).toBe(true);
  });

  it("catches each kind of mention in a made-up service, and no number that is not a status", () => {
    expect(statusMentionsIn(STATUS_FIXTURE.file, STATUS_FIXTURE.text)).toEqual([
      "src/services/made-up.ts:3 404 (throw)",
      "src/services/made-up.ts:4 409 (refusal)",
      "src/services/made-up.ts:5 410 (return)",
      "src/services/made-up.ts:7 503 (return)",
      "src/services/made-up.ts:9 202 (status field)",
      "src/services/made-up.ts:13 400 (comparison)",
      "src/services/made-up.ts:13 500 (comparison)",
    ]);
  });
});
