import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectJson, http } from "../../e2e/answers";
import { forcedOrder, orderByDuration } from "../../e2e/sequencer";

// The e2e client (test/e2e/client.ts) against a local server that answers what wrangler dev answered
// in the flaky run: a text/plain 503, an empty 200, an HTML page. Reading `.body` of such an answer
// must fail saying what came back (status, content type, the start of the text), not hand back null
// for the caller's `.id` to fail on with "Cannot read properties of null".
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    const path = req.url ?? "/";
    if (path === "/json") return void res.writeHead(201, { "Content-Type": "application/json" }).end('{"id":"org_1"}');
    if (path === "/restarted")
      return void res
        .writeHead(503, { "Content-Type": "text/plain;charset=UTF-8", "Retry-After": "0" })
        .end("Your worker restarted mid-request. Please try sending the request again. Only GET or HEAD requests are retried automatically.");
    if (path === "/empty") return void res.writeHead(200, { "Content-Type": "application/json" }).end();
    if (path === "/no-content") return void res.writeHead(204).end();
    if (path === "/long") return void res.writeHead(500, { "Content-Type": "text/html" }).end(`<html>${"x".repeat(1000)}</html>`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("the e2e client says what it got when JSON was due", () => {
  it("reads a JSON answer as before", async () => {
    const res = await http("POST", `${base}/json`, { body: { name: "x" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ id: "org_1" });
    expect(expectJson(res, 201).id).toBe("org_1");
  });

  it("throws on reading the body of wrangler dev's text/plain 503, naming the call, status, type and text", async () => {
    const res = await http("POST", `${base}/restarted`, { body: {} });
    expect(res.status).toBe(503);
    expect(() => res.body.id).toThrow(
      'expected a JSON answer to POST /restarted, got the answer: 503 (text/plain;charset=UTF-8) "Your worker restarted mid-request.',
    );
  });

  it("throws on an empty body where one was due, and gives null for a 204", async () => {
    const empty = await http("POST", `${base}/empty`, { body: {} });
    expect(() => empty.body).toThrow("got the answer: 200 (application/json) with an empty body");
    const none = await http("DELETE", `${base}/no-content`);
    expect(none.body).toBeNull();
  });

  it("shows at most 300 characters of a long answer", async () => {
    const res = await http("GET", `${base}/long`);
    let message = "";
    try {
      void res.body;
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('500 (text/html) "<html>xxx');
    expect(message).toContain(`${"<html>".concat("x".repeat(294))}…"`);
    expect(message).not.toContain("</html>");
  });

  it("expectJson refuses a JSON answer of another status, with what came back", async () => {
    const res = await http("GET", `${base}/json`);
    expect(() => expectJson(res, 200)).toThrow('expected 200, got the answer: 201 (application/json) "{\\"id\\":\\"org_1\\"}"');
  });

  it("keeps body out of a spread, so logging an answer cannot throw", async () => {
    const res = await http("POST", `${base}/restarted`, { body: {} });
    expect(Object.keys({ ...res }).sort()).toEqual(["headers", "status", "text"]);
  });
});

describe("the e2e sequencer's forced order (E2E_FILE_ORDER)", () => {
  const seconds = { "a.ts": 1, "b.ts": 30, "c.ts": 20, "d.ts": 5 };
  const byDuration = orderByDuration(["a.ts", "b.ts", "c.ts", "d.ts"], (f) => f, seconds);

  it("runs the named files first in the given order, then the rest longest first", () => {
    expect(byDuration).toEqual(["b.ts", "c.ts", "d.ts", "a.ts"]);
    expect(forcedOrder(byDuration, (f) => f, "d.ts, a.ts")).toEqual(["d.ts", "a.ts", "b.ts", "c.ts"]);
  });

  it("leaves the duration order alone when unset", () => {
    expect(forcedOrder(byDuration, (f) => f, undefined)).toEqual(byDuration);
  });
});
