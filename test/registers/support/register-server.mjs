// A stand-in for the company registers and VAT services, run in Node by
// global-setup.mjs. It answers with the fixtures under test/registers/fixtures/
// and checks credentials the way each service does. Every URL is
//   /{token}/{scenario}/{service}/{the service's own path}
// where `token` names the test (its requests are recorded under it) and
// `scenario` switches the failure: ok, unauthorized, forbidden, rate-limited,
// server-error, redirect (302 elsewhere), malformed, wrong-shape, hang, fail-{suffix} (only paths
// ending in /{suffix} answer 500), limit-{suffix} (only those answer 429,
// Retry-After 60), or live (the services as they answer in production, below).
//
// Where the shapes come from (the live services, not only their published specs):
// - Companies House: 429 carries X-Ratelimit-Limit/-Remain/-Reset (epoch seconds)/-Window
//   and no Retry-After (developer forum and the service's own api-enumerations /
//   rate-limiting docs); the insolvency resource's `status` is an array of strings
//   (companieshouse/insolvency-data-api, src/itest/resources/json/output/
//   retrieve_by_company_number.json: `"status": ["in-administration"]`),
//   the swagger's string notwithstanding; corporate directors have no date_of_birth;
//   the disqualified-officers search pages with start_index/total_results; filing
//   histories hold capital entries with no figure.
// - VIES REST: HTTP 200 for throttles, either `{actionSucceed: false, errorWrappers: [{error}]}`
//   or `userError` beside `isValid: false` (the EC's error list, issue 22; captured answers).
// - KRS: natural persons masked as first letter + asterisks ("W*********"), second surname
//   part nazwiskoIICzlon (captured OdpisAktualny for KRS 0000413516 in
//   michal-bed/el-proyecte-grande-naspolke, KRSMock.java); 204 with no body for a number
//   with no current entry.
// - recherche-entreprises: `[NON-DIFFUSIBLE]` in names, addresses and directors for a
//   unit that opted out of publication (annuaire-entreprises' own search API).
import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const HERE = dirname(fileURLToPath(import.meta.url));
const FIXTURES = join(HERE, "..", "fixtures");
/** The credentials the stand-in accepts; the tests read the same file. */
const CREDENTIALS = JSON.parse(readFileSync(join(HERE, "credentials.json"), "utf8"));


const readBody = (req) =>
  new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

const send = (res, status, body, headers = {}) => {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  res.writeHead(status, status === 204 ? headers : { "Content-Type": "application/json", ...headers });
  res.end(status === 204 ? undefined : text);
};

/** The register tests' clock (test/registers/support/context.ts NOW), in epoch seconds. */
const TEST_NOW_SECONDS = Date.parse("2026-11-23T12:00:00Z") / 1000;

/** Companies House's live 429: the window's reset in epoch seconds, no Retry-After. */
const chRateLimitHeaders = (resetEpochSeconds) => ({
  "X-Ratelimit-Limit": "600",
  "X-Ratelimit-Remain": "0",
  "X-Ratelimit-Reset": String(resetEpochSeconds),
  "X-Ratelimit-Window": "5m",
});

const slug = (value) => value.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

/** "/company/01234567/officers" → "company-01234567-officers"; a search term (q, abn) is added slugged. */
function fixtureName(path, params) {
  const base = path.split("/").filter(Boolean).join("-");
  const key = params.get("q") ?? params.get("abn");
  // Later pages of a search: "-start-{start_index}".
  const start = Number(params.get("start_index") ?? 0);
  return `${base}${key ? `-${slug(key)}` : ""}${start > 0 ? `-start-${start}` : ""}.json`;
}

async function fixture(service, path, params) {
  try {
    return JSON.parse(await readFile(join(FIXTURES, service, fixtureName(path, params)), "utf8"));
  } catch (error) {
    if (error.code === "ENOENT") return null;
    throw error;
  }
}

const jsonp = (callback, body) => `${callback}(${JSON.stringify(body)})`;

/** What each service answers for a number it does not hold (its documented not-found answer). */
const NOT_FOUND = {
  "companies-house": (path) =>
    path.startsWith("/search/")
      ? [200, { items: [], total_results: 0, items_per_page: 50, start_index: 0, kind: "search#disqualified-officers" }]
      : [404, { errors: [{ error: "company-profile-not-found", type: "ch:service" }] }],
  hmrc: () => [404, { code: "NOT_FOUND", message: "targetVrn does not match a registered company" }],
  vies: (path) => {
    const [, , cc, , number] = path.split("/");
    return [200, { isValid: false, requestDate: "2026-11-23T12:00:00.000Z", userError: "INVALID", name: "---", address: "---", vatNumber: number, originalVatNumber: number, countryCode: cc }];
  },
  fr: () => [200, { results: [], total_results: 0, page: 1, per_page: 5, total_pages: 0 }],
  // Live KRS: 204 with no body for a number with no current entry in the register asked.
  krs: () => [204, ""],
  abn: () => [200, null],
};

/** Credentials as each service checks them; null when accepted, else the service's own refusal. */
function refusal(service, req, params) {
  if (service === "companies-house") {
    const expected = `Basic ${Buffer.from(`${CREDENTIALS.companiesHouseKey}:`).toString("base64")}`;
    return req.headers.authorization === expected ? null : [401, { error: "Invalid Authorization", type: "ch:service" }];
  }
  if (service === "hmrc" && req.url.includes("/organisations/")) {
    if (req.headers.accept !== "application/vnd.hmrc.2.0+json") return [406, { code: "ACCEPT_HEADER_INVALID", message: "The accept header is missing or invalid" }];
    const ok = [`Bearer ${CREDENTIALS.hmrcIssuedToken}`, `Bearer ${CREDENTIALS.hmrcFixedToken}`].includes(req.headers.authorization);
    return ok ? null : [401, { code: "INVALID_CREDENTIALS", message: "Invalid Authentication information provided" }];
  }
  if (service === "abn" && params.get("guid") !== CREDENTIALS.abnGuid) return [200, "guid"];
  return null;
}

const SCENARIOS = {
  unauthorized: (service) => [401, service === "hmrc" ? { code: "INVALID_CREDENTIALS", message: "Invalid Authentication information provided" } : { error: "Invalid Authorization" }],
  forbidden: () => [403, { code: "FORBIDDEN", message: "Access denied" }],
  // Companies House tells the reset (120 s after the tests' clock) in its own headers; the others send Retry-After.
  "rate-limited": (service) =>
    service === "companies-house"
      ? [429, { error: "Too Many Requests" }, chRateLimitHeaders(TEST_NOW_SECONDS + 120)]
      : [429, { code: "TOO_MANY_REQUESTS", message: "Rate limit exceeded" }, { "Retry-After": "120" }],
  "server-error": () => [503, { code: "SERVER_ERROR", message: "Service unavailable" }],
  redirect: () => [302, "", { Location: "http://127.0.0.1:9/elsewhere" }],
  malformed: () => [200, '{"company_name": "Trunc'],
  "wrong-shape": () => [200, { unexpected: true }],
};

/** How long the live scenario's Companies House window takes to reset after its first 429. */
export const LIVE_RESET_SECONDS = 2;

/**
 * The "live" scenario: per token, Companies House answers its first call with
 * its 429 (window reset LIVE_RESET_SECONDS later, real clock) and every call
 * before the reset the same way; VIES answers each number's first check with a
 * `_TIME` throttle (the two forms by turns) and the fixture afterwards.
 */
function liveAnswer(state, service, path, cc) {
  const now = Date.now();
  if (service === "companies-house") {
    if (state.chResetAt === undefined) state.chResetAt = (Math.floor(now / 1000) + LIVE_RESET_SECONDS) * 1000;
    if (now < state.chResetAt) return [429, { error: "Too Many Requests" }, chRateLimitHeaders(state.chResetAt / 1000)];
    return null;
  }
  if (service === "vies") {
    state.vies ??= new Map();
    const seen = state.vies.get(path) ?? 0;
    state.vies.set(path, seen + 1);
    if (seen > 0) return null;
    return state.vies.size % 2 === 1
      ? [200, { actionSucceed: false, errorWrappers: [{ error: "MS_MAX_CONCURRENT_REQ_TIME", message: "The maximum number of concurrent requests for this Member State has been reached." }] }]
      : [200, { isValid: false, requestDate: new Date(now).toISOString(), userError: "GLOBAL_MAX_CONCURRENT_REQ_TIME", name: "---", address: "---", countryCode: cc }];
  }
  return null;
}

export async function startRegisterServer() {
  /** token → recorded requests */
  const recorded = new Map();
  /** token → the live scenario's state */
  const live = new Map();
  const sockets = new Set();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://registers");
    const [token, scenario, service, ...rest] = url.pathname.split("/").filter(Boolean);
    if (token === "__requests") return send(res, 200, recorded.get(scenario) ?? []);
    const path = `/${rest.join("/")}`;
    const body = await readBody(req);
    if (!recorded.has(token)) recorded.set(token, []);
    recorded.get(token).push({
      method: req.method,
      service,
      path,
      search: url.search,
      authorization: req.headers.authorization ?? null,
      accept: req.headers.accept ?? null,
      userAgent: req.headers["user-agent"] ?? null,
      at: Date.now(),
      body,
    });

    if (scenario === "hang") return; // never answers; the adapter's timeout has to end it
    if (scenario.startsWith("fail-") && path.endsWith(`/${scenario.slice(5)}`)) return send(res, 500, { error: "Internal Server Error" });
    if (scenario.startsWith("limit-") && path.endsWith(`/${scenario.slice(6)}`)) return send(res, 429, { error: "Too Many Requests" }, { "Retry-After": "60" });
    if (scenario === "live") {
      if (!live.has(token)) live.set(token, {});
      const answer = liveAnswer(live.get(token), service, path, rest[1]);
      if (answer) {
        const entries = recorded.get(token);
        entries[entries.length - 1].answered = answer[0];
        if (answer[2]?.["X-Ratelimit-Reset"]) entries[entries.length - 1].resetAt = Number(answer[2]["X-Ratelimit-Reset"]) * 1000;
        return send(res, answer[0], answer[1], answer[2]);
      }
    }
    if (SCENARIOS[scenario]) {
      const [status, payload, headers] = SCENARIOS[scenario](service);
      // ABN Lookup wraps every answer in its callback: a wrong shape arrives as valid JSONP.
      if (service === "abn" && scenario === "wrong-shape") return send(res, status, jsonp(url.searchParams.get("callback") ?? "callback", payload), { "Content-Type": "text/javascript" });
      return send(res, status, payload, headers);
    }

    const params = url.searchParams;
    const refused = refusal(service, req, params);
    if (refused && service === "abn") {
      return send(res, 200, jsonp(params.get("callback") ?? "callback", await fixture("abn", "/guid-refused", new URLSearchParams())), { "Content-Type": "text/javascript" });
    }
    if (refused) return send(res, refused[0], refused[1]);

    if (service === "hmrc" && path === "/oauth/token" && req.method === "POST") {
      const form = new URLSearchParams(body);
      const valid =
        form.get("grant_type") === "client_credentials" &&
        form.get("client_id") === CREDENTIALS.hmrcClientId &&
        form.get("client_secret") === CREDENTIALS.hmrcClientSecret;
      return valid
        ? send(res, 200, { access_token: CREDENTIALS.hmrcIssuedToken, scope: form.get("scope"), expires_in: 14400, token_type: "bearer" })
        : send(res, 401, { error: "invalid_client", error_description: "invalid client id or secret" });
    }

    const found = await fixture(service, path, params);
    const [status, payload] = found !== null ? [200, found] : NOT_FOUND[service](path);
    if (service === "abn") {
      const answer = payload ?? (await fixture("abn", "/not-found", new URLSearchParams()));
      return send(res, 200, jsonp(params.get("callback") ?? "callback", answer), { "Content-Type": "text/javascript" });
    }
    return send(res, status, payload);
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: server.address().port,
    close: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(resolve);
      }),
  };
}
