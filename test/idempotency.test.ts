/**
 * Decisions doc: `Idempotency-Key` on POST, on both APIs (issues 20 and 21). This walks every POST
 * operation of the served OpenAPI documents (partner, lender and operator) that declares the key's
 * refusal (`idempotency_key_reused` among its 422 codes; prequalification opts out and declares none),
 * and for each: the same key with the same body replays the first answer (same status and body,
 * `Idempotent-Replayed: true`) and changes nothing a second execution would change; the same key
 * with another body is 422 `idempotency_key_reused`. The cases are the fault walk's too
 * (test/helpers/keyed-post-cases.ts); an operation without one fails.
 */
import { describe, expect, it } from "vitest";
import { call } from "./helpers/api";
import { expectProblem } from "./helpers/seed";
import { BASE, type ApiName } from "./helpers/keyed-posts";
import { KEYED_POST_CASES, keyedPostsOfTheDocuments, keyedRequest, type KeyedPost } from "./helpers/keyed-post-cases";

const send = (api: ApiName, prepared: KeyedPost, idempotencyKey: string, body: "same" | "other") => {
  const request = keyedRequest(api, prepared, idempotencyKey);
  return call("POST", `${BASE[api]}${prepared.path}`, body === "other" ? { key: request.key, headers: request.headers, body: { another: "body" } } : request);
};

describe("Idempotency-Key on every POST", () => {
  it("walks every keyed POST of the partner, lender and operator documents, and has a fixture for each", async () => {
    const operations = await keyedPostsOfTheDocuments();
    expect(operations.length).toBeGreaterThan(15);
    expect(operations.filter((op) => !KEYED_POST_CASES[op]).map((op) => `${op}: no fixture; add one to KEYED_POST_CASES in test/helpers/keyed-post-cases.ts`)).toEqual([]);
    // A fixture whose operation left the documents is stale.
    expect(Object.keys(KEYED_POST_CASES).filter((op) => !operations.includes(op))).toEqual([]);
  });

  for (const label of Object.keys(KEYED_POST_CASES)) {
    const api = label.split(" ")[0] as ApiName;
    it(`${label}: the same key and body replay the first answer and change nothing; another body is 422`, { timeout: 60_000 }, async () => {
      const prepared = await KEYED_POST_CASES[label]!();
      const snapshot = prepared.snapshot ?? prepared.written;
      const idempotencyKey = `idem-${crypto.randomUUID()}`;
      const first = await send(api, prepared, idempotencyKey, "same");
      expect(first.status, first.text).toBeGreaterThanOrEqual(200);
      expect(first.status, first.text).toBeLessThan(300);
      expect(first.headers.get("Idempotent-Replayed")).toBeNull();
      const before = await snapshot();

      const again = await send(api, prepared, idempotencyKey, "same");
      expect(again.status).toBe(first.status);
      expect(again.text).toBe(first.text);
      expect(again.headers.get("Idempotent-Replayed")).toBe("true");
      expect(await snapshot()).toEqual(before);

      const other = await send(api, prepared, idempotencyKey, "other");
      expectProblem(other, 422, "idempotency_key_reused");
      expect(await snapshot()).toEqual(before);
    });
  }
});
