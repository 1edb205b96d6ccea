// The benchmark's rows. Each is one request shape, measured with autocannon at
// every concurrency; `kind` says which round-trip target applies to it, and
// `ratioTarget` the minimum req/s ratio to /health at c=10 (issue 12, raised by issue 25 item 3:
// enums 0.80, prequalification 0.50, lead read 0.40, lead create 0.30).

/** A counter over ids that must not repeat (submit needs a fresh draft each time). */
export function rotating(ids, name) {
  let next = 0;
  return {
    take() {
      if (next >= ids.length) throw new Error(`${name}: all ${ids.length} prepared ids are used; seed more`);
      return ids[next++];
    },
    get used() {
      return next;
    },
  };
}

/**
 * @param {{ partnerKey: string, lenderKey: string, leadId: string, deepCursor: string, dealRef: string, drafts: ReturnType<typeof rotating>, deepPage: number }} ctx
 */
export function scenarios(ctx) {
  const partner = { "X-API-Key": ctx.partnerKey };
  const lender = { "X-API-Key": ctx.lenderKey };
  const json = { "Content-Type": "application/json" };
  return [
    { name: "GET /health", kind: "floor", method: "GET", path: "/health" },
    { name: "GET /partner/v1/enums/revenue-bands", kind: "auth", ratioTarget: 0.8, method: "GET", path: "/partner/v1/enums/revenue-bands?country=GB", headers: partner },
    {
      name: "POST /partner/v1/prequalification",
      kind: "prequalification",
      ratioTarget: 0.5,
      method: "POST",
      path: "/partner/v1/prequalification",
      headers: { ...partner, ...json },
      body: JSON.stringify({ country: "GB", funding: { purpose: "working_capital", amount: 60000 }, trading: { monthly_revenue: 40000, tib_months: 30 } }),
    },
    { name: "GET /partner/v1/leads?limit=25 (first page)", kind: "read", ratioTarget: 0.3, method: "GET", path: "/partner/v1/leads?limit=25", headers: partner },
    {
      name: `GET /partner/v1/leads?limit=25 (page ${ctx.deepPage.toLocaleString("en")})`,
      kind: "read",
      ratioTarget: 0.3,
      method: "GET",
      path: `/partner/v1/leads?limit=25&cursor=${encodeURIComponent(ctx.deepCursor)}`,
      headers: partner,
    },
    { name: "GET /partner/v1/leads/{id}", kind: "read", ratioTarget: 0.4, method: "GET", path: `/partner/v1/leads/${ctx.leadId}`, headers: partner },
    {
      name: "POST /partner/v1/leads",
      kind: "write",
      ratioTarget: 0.3,
      method: "POST",
      path: "/partner/v1/leads",
      headers: { ...partner, ...json },
      body: JSON.stringify({ country: "GB", business: { name: "Bench Ltd" }, funding: { amount: 20000, purpose: "working_capital" } }),
    },
    {
      name: "POST /partner/v1/leads/{id}/submit",
      kind: "submit",
      method: "POST",
      headers: partner,
      // A fresh complete draft per request: a repeated submit would only answer already_submitted.
      nextPath: () => `/partner/v1/leads/${ctx.drafts.take()}/submit`,
    },
    { name: "GET /v1/deals", kind: "read", method: "GET", path: "/v1/deals?limit=25", headers: lender },
    { name: "GET /v1/deals/{ref}", kind: "read", method: "GET", path: `/v1/deals/${ctx.dealRef}`, headers: lender },
  ];
}

/** What each kind must cost in round trips (issue 12): D1 round trips and Durable Object calls per request. */
export const ROUND_TRIP_TARGETS = {
  floor: { d1: 0, do: 0, says: "no storage" },
  auth: { d1: 0, do: 1, says: "auth + limit: one DO call, no D1" },
  prequalification: { d1: 0, do: 1, says: "no D1" },
  read: { d1: 1, do: 1, says: "one D1 query" },
  write: { d1: 1, do: 1, says: "one D1 batch" },
  // The decision needs the lead (its figures, register answers and documents feed the matcher, in
  // the isolate), so a submit is one read and then one batch that writes the state, events and routing
  // together: two round trips by design (docs/capacity.md, "The submit row"). One batch would need the
  // matcher in SQL.
  submit: { d1: 2, do: 1, says: "one read, then one D1 batch" },
};
