import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, type ApiResponse } from "../helpers/api";
import { captureLogs, type LogCapture } from "../helpers/logs";
import { createOrganisation, expectProblem, partnerWithKeys } from "../helpers/seed";
import { createLead } from "../leads/helpers";
import { portal, signedInMember } from "../helpers/portal";

let logs: LogCapture;
beforeEach(() => {
  logs = captureLogs();
});
afterEach(() => logs.restore());

/** The request line written for `res` (found by its X-Request-Id). */
function lineOf(res: ApiResponse) {
  const found = logs.of("request").filter((line) => line.request_id === res.headers.get("X-Request-Id"));
  expect(found).toHaveLength(1);
  return found[0];
}

/** `d1;desc="1 round trip";dur=0.8, do;desc="1 call";dur=0.4, app;dur=2.1` → the counts. */
function serverTimingCounts(res: ApiResponse) {
  const header = res.headers.get("Server-Timing") ?? "";
  const count = (name: string) => Number(new RegExp(`(?:^|, )${name};desc="(\\d+) `).exec(header)?.[1]);
  return { d1_round_trips: count("d1"), do_calls: count("do") };
}

const traceIdOf = (res: ApiResponse) => res.headers.get("traceparent")?.split("-")[1];

describe("one JSON line per request", () => {
  it("an authenticated partner call: route pattern, caller's organisation and environment, round trips as Server-Timing counted them", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const lead = await createLead(sandbox.key);
    const res = await call("GET", `/partner/v1/leads/${lead.id}`, { key: sandbox.key });
    expect(res.status).toBe(200);

    const line = lineOf(res);
    expect(line).toMatchObject({
      level: "info",
      event: "request",
      method: "GET",
      route: "/partner/v1/leads/:id",
      status: 200,
      organisation_id: organisation.id,
      environment: "sandbox",
      key_kind: "partner",
      auth: "api_key",
      trace_id: traceIdOf(res),
      trace_origin: "absent",
      ...serverTimingCounts(res),
    });
    expect(line.d1_round_trips).toBe(1);
    expect(line.do_calls).toBe(1);
    expect(typeof line.duration_ms).toBe("number");
    // The pattern, not the path: the lead's id is not in the line.
    expect(JSON.stringify(line)).not.toContain(lead.id);
  });

  it("a write answered 201, by a bearer token, names its route and caller too", async () => {
    const { organisation, live } = await partnerWithKeys();
    const token = (await call("POST", "/partner/v1/oauth/token", { body: { grant_type: "client_credentials", client_id: live.client_id, client_secret: live.key } })).body
      .access_token;
    const res = await call("POST", "/partner/v1/leads", { token, body: { country: "GB", business: { name: "Logged Ltd" } } });
    expect(res.status).toBe(201);
    expect(lineOf(res)).toMatchObject({ method: "POST", route: "/partner/v1/leads", status: 201, organisation_id: organisation.id, environment: "live", auth: "bearer" });
  });

  it("an unauthenticated 401: the route it asked for, no caller", async () => {
    const res = await call("GET", "/partner/v1/leads");
    expectProblem(res, 401, "unauthorized");
    const line = lineOf(res);
    expect(line).toMatchObject({ level: "info", event: "request", method: "GET", route: "/partner/v1/leads", status: 401, d1_round_trips: 0 });
    expect(line).not.toHaveProperty("organisation_id");
    expect(line).not.toHaveProperty("environment");
  });

  it("a 404 has no route: the raw path, which may hold anything a caller typed, is not logged", async () => {
    const { organisation, sandbox } = await partnerWithKeys();
    const res = await call("GET", "/partner/v1/no-such-thing/tok_secret-looking-value?api_key=sk_live_in_a_query", { key: sandbox.key, unjudged: true });
    expectProblem(res, 404, "not_found");
    const line = lineOf(res);
    expect(line).toMatchObject({ method: "GET", route: null, status: 404, organisation_id: organisation.id });
    expect(logs.raw.join("\n")).not.toMatch(/tok_secret-looking-value|sk_live_in_a_query|no-such-thing/);
  });

  it("a known path with the wrong method (405) has no route either", async () => {
    const { sandbox } = await partnerWithKeys();
    const res = await call("DELETE", "/partner/v1/leads", { key: sandbox.key, unjudged: true });
    expectProblem(res, 405, "method_not_allowed");
    expect(lineOf(res)).toMatchObject({ method: "DELETE", route: null, status: 405 });
  });

  it("an unknown path outside every API is a 404 with no route and no caller", async () => {
    const res = await call("GET", "/hub-typo/lead_123/some-token", { unjudged: true });
    expect(res.status).toBe(404);
    expect(lineOf(res)).toMatchObject({ route: null, status: 404 });
    expect(logs.raw.join("\n")).not.toContain("some-token");
  });

  it("a portal page names the member's organisation and environment, never the member's e-mail or session", async () => {
    const organisation = await createOrganisation("partner");
    const session = await signedInMember(organisation.id);
    const res = await portal("GET", "/", { session });
    expect(res.status).toBe(200);
    const line = logs.of("request").find((l) => l.request_id === res.headers.get("X-Request-Id"));
    expect(line).toMatchObject({ route: expect.stringMatching(/^\/portal/), status: 200, organisation_id: organisation.id, environment: "sandbox", auth: "portal_session" });
    const all = logs.raw.join("\n");
    expect(all).not.toContain(session.email);
    expect(all).not.toContain(session.cookie.split("=")[1]);
  });

  it("the health check is logged with its route and no round trip", async () => {
    const res = await call("GET", "/health");
    expect(lineOf(res)).toMatchObject({ route: "/health", status: 200, d1_round_trips: 0, do_calls: 0 });
  });
});
