/**
 * Issue 21 item 10, "The local signing fallback reaches cron and queues": the public local-only key
 * is used only when the deployment's own PUBLIC_URL is a local name, on every path (requests, the
 * cron, the queue consumers). And staging's register-lookups queue reaches the register consumer.
 * (The deploy half, `npm run deploy` without `--env`, is in test/e2e/deploy.e2e.test.ts.)
 */
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import * as worker from "../../src/index";
import { runScheduledWork } from "../../src/jobs/scheduled";
import { LOCAL_DEVELOPMENT_SIGNING_SECRET, missingSecrets, signingSecretOf } from "../../src/lib/signing-secret";

const LOCAL_ON_A_PUBLIC_URL = { DEPLOYMENT: "local", SIGNING_SECRET: undefined, PUBLIC_URL: "https://api.example.com" };
const LOCAL_ON_LOCALHOST = { DEPLOYMENT: "local", SIGNING_SECRET: undefined, PUBLIC_URL: "http://localhost:8787" };

describe("issue 21 item 10: the local signing fallback is decided from PUBLIC_URL on every path", () => {
  it("item 10: with no hostname (cron, queue) a local deployment on a public PUBLIC_URL lacks SIGNING_SECRET", () => {
    expect(missingSecrets(LOCAL_ON_A_PUBLIC_URL)).toEqual(["SIGNING_SECRET"]);
    expect(missingSecrets(LOCAL_ON_A_PUBLIC_URL, "localhost")).toEqual(["SIGNING_SECRET"]);
    expect(() => signingSecretOf(LOCAL_ON_A_PUBLIC_URL)).toThrow(/SIGNING_SECRET/);
    expect(missingSecrets(LOCAL_ON_LOCALHOST)).toEqual([]);
    expect(signingSecretOf(LOCAL_ON_LOCALHOST)).toBe(LOCAL_DEVELOPMENT_SIGNING_SECRET);
    expect(missingSecrets({ ...LOCAL_ON_LOCALHOST, PUBLIC_URL: "http://127.0.0.1:8792" })).toEqual([]);
  });

  it("item 10: the cron pauses webhook dispatch instead of signing with the public key", async () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const jobs = await runScheduledWork({ ...env, ...LOCAL_ON_A_PUBLIC_URL });
    expect(Object.keys(jobs)).not.toContain("dispatch");
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("webhook dispatch is paused"));
    errors.mockRestore();
  });

  it("item 10: every environment's register-lookups queue goes to the register consumer", () => {
    const kindOf = (worker as unknown as { queueKindOf: (queue: string) => string }).queueKindOf;
    expect(typeof kindOf).toBe("function");
    expect(kindOf("register-lookups")).toBe("register-lookups");
    expect(kindOf("register-lookups-staging")).toBe("register-lookups");
    expect(kindOf("register-lookups-local")).toBe("register-lookups");
    expect(kindOf("webhook-deliveries-staging")).toBe("webhook-deliveries");
    expect(kindOf("webhook-deliveries")).toBe("webhook-deliveries");
  });
});
