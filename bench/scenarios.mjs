import { loadDemoPanel } from "../scripts/lib/seed.mjs";

// Benchmark scenarios. Each `prepare` sets up data through the public API and
// returns the request to time. The first scenario is the baseline.

async function json(method, url, { headers = {}, body } = {}) {
  const res = await fetch(url, {
    method,
    headers: { ...headers, ...(body ? { "Content-Type": "application/json" } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function partnerKey({ url, adminToken }) {
  const auth = { Authorization: `Bearer ${adminToken}` };
  const org = await json("POST", `${url}/admin/v1/organisations`, { headers: auth, body: { name: "bench", kind: "partner" } });
  return (await json("POST", `${url}/admin/v1/organisations/${org.id}/keys`, { headers: auth, body: { environment: "sandbox" } })).key;
}

export const scenarios = [
  {
    // The cheapest trip through the whole stack: request id, routing, the problem+json 404.
    name: "baseline: unknown route (404 problem+json)",
    prepare: async ({ url }) => async () => {
      const res = await fetch(`${url}/nowhere`);
      await res.text();
      if (res.status !== 404) throw new Error(`baseline answered ${res.status}`);
    },
  },
  {
    name: "GET /me with X-API-Key (D1 key lookup + DO)",
    prepare: async (ctx) => {
      const key = await partnerKey(ctx);
      return () => json("GET", `${ctx.url}/partner/v1/me`, { headers: { "X-API-Key": key } });
    },
  },
  {
    name: "GET /me with a bearer token",
    prepare: async (ctx) => {
      const key = await partnerKey(ctx);
      const token = await json("POST", `${ctx.url}/partner/v1/oauth/token`, {
        body: { grant_type: "client_credentials", client_id: key.slice(0, key.lastIndexOf("_")), client_secret: key },
      });
      return () => json("GET", `${ctx.url}/partner/v1/me`, { headers: { Authorization: `Bearer ${token.access_token}` } });
    },
  },
  {
    name: "GET /enums/revenue-bands (no D1 after auth)",
    prepare: async (ctx) => {
      const key = await partnerKey(ctx);
      return () => json("GET", `${ctx.url}/partner/v1/enums/revenue-bands?country=GB`, { headers: { "X-API-Key": key } });
    },
  },

  {
    name: "POST /prequalification (panel cached in isolate)",
    prepare: async (ctx) => {
      const auth = { Authorization: `Bearer ${ctx.adminToken}` };
      for (const lender of await loadDemoPanel()) {
        const org = await json("POST", `${ctx.url}/admin/v1/organisations`, { headers: auth, body: { name: lender.name, kind: "lender" } });
        await json("PUT", `${ctx.url}/admin/v1/organisations/${org.id}/products`, { headers: auth, body: { products: lender.products } });
      }
      const key = await partnerKey(ctx);
      const body = { country: "GB", funding: { purpose: "working_capital", amount: 60000 }, trading: { monthly_revenue: 40000, tib_months: 30 } };
      return () => json("POST", `${ctx.url}/partner/v1/prequalification`, { headers: { "X-API-Key": key }, body });
    },
  },

  ...(() => {
    // Keyset pagination: a page deep in the list should cost what the first page costs.
    let pages;
    const prepareList = async (ctx) => {
      if (pages) return pages;
      const key = await partnerKey(ctx);
      const headers = { "X-API-Key": key };
      const body = { country: "GB", business: { name: "Bench Ltd" }, funding: { amount: 20000, purpose: "working_capital" } };
      for (let i = 0; i < 2000; i += 50) {
        await Promise.all(Array.from({ length: 50 }, () => json("POST", `${ctx.url}/partner/v1/leads`, { headers, body })));
      }
      let cursor = null;
      for (let page = 1; page < 60; page++) {
        const res = await json("GET", `${ctx.url}/partner/v1/leads?limit=25${cursor ? `&cursor=${cursor}` : ""}`, { headers });
        cursor = res.next_cursor;
      }
      pages = { headers, deepCursor: cursor };
      return pages;
    };
    return [
      {
        name: "GET /leads first page (2,000 leads held)",
        prepare: async (ctx) => {
          const { headers } = await prepareList(ctx);
          return () => json("GET", `${ctx.url}/partner/v1/leads?limit=25`, { headers });
        },
      },
      {
        name: "GET /leads page 60 (keyset cursor)",
        prepare: async (ctx) => {
          const { headers, deepCursor } = await prepareList(ctx);
          return () => json("GET", `${ctx.url}/partner/v1/leads?limit=25&cursor=${deepCursor}`, { headers });
        },
      },
    ];
  })(),
];
