// An integrator's script against the packed @rfs/sdk: plain Node ESM, no TypeScript, no build step.
// test/e2e/sdk-package.e2e.test.ts runs it as it is and type-checks a copy of it as TypeScript
// (`module: nodenext` and `moduleResolution: bundler`), so it stays valid as both.
// Needs RFS_BASE_URL and RFS_KEY (a sandbox partner key); prints one JSON line of what it saw.
import { createServer } from "node:http";
import { createPartnerClient, createTokenProvider, verifyWebhook } from "@rfs/sdk";

const baseUrl = process.env.RFS_BASE_URL ?? "http://localhost:8787";
const apiKey = process.env.RFS_KEY ?? "";

// A receiver for the service's deliveries: the raw body and headers, as verifyWebhook wants them.
const deliveries = [{ raw: "", headers: {} }].slice(1);
const receiver = createServer((req, res) => {
  const chunks = [Buffer.alloc(0)].slice(1);
  req.on("data", (chunk) => chunks.push(chunk));
  req.on("end", () => {
    deliveries.push({ raw: Buffer.concat(chunks).toString("utf8"), headers: req.headers });
    res.writeHead(200).end();
  });
});
await new Promise((resolve) => receiver.listen(0, "127.0.0.1", () => resolve(undefined)));
const address = receiver.address();
const port = typeof address === "object" && address ? address.port : 0;

// 1. The token: the client exchanges the key itself; the provider is exported for other HTTP clients.
const token = await createTokenProvider({ baseUrl, apiKey }).token();
const partner = createPartnerClient({ baseUrl, apiKey });

const endpoint = await partner.POST("/webhooks", { body: { url: `http://127.0.0.1:${port}/hook`, events: ["lead.offer_accepted"] } });
if (!endpoint.data?.secret) throw new Error(`webhook endpoint: ${endpoint.response.status}`);
const secret = endpoint.data.secret;

// 2. Create a lead with everything a UK submit needs.
const created = await partner.POST("/leads", {
  body: {
    country: "GB",
    business: { name: "Packed Tarball Ltd", company_number: "01234567", entity_type: "private_limited_company", industry: "retail" },
    contact: { first_name: "Ada", last_name: "Lovelace", email: "ada@tarball.example" },
    funding: { amount: 40000, purpose: "working_capital" },
    trading: { monthly_revenue: 30000, tib_months: 48, annual_turnover: 360000 },
    consent: { obtained: true, obtained_at: "2026-11-01T10:00:00Z", soft_credit_search: true },
  },
});
if (!created.data) throw new Error(`create: ${created.error?.error.code}`);
const lead = created.data;
const params = { path: { id: lead.id } };

// 3. Submit, 4. read the offers, 5. accept the first.
const submitted = await partner.POST("/leads/{id}/submit", { params });
if (!submitted.data) throw new Error(`submit: ${submitted.error?.error.code}`);
const offers = await partner.GET("/leads/{id}/offers", { params });
const offer = offers.data?.offers[0];
if (!offer) throw new Error("no offer");
const accepted = await partner.POST("/leads/{id}/offers/{offerId}/acceptance", { params: { path: { id: lead.id, offerId: offer.id } } });
if (!accepted.data) throw new Error(`accept: ${accepted.error?.error.code}`);

// 6. Wait for the lead.offer_accepted delivery and verify it.
const deadline = Date.now() + 20_000;
let delivery = deliveries.find((d) => d.raw.includes(lead.id));
while (!delivery && Date.now() < deadline) {
  await new Promise((resolve) => setTimeout(resolve, 100));
  delivery = deliveries.find((d) => d.raw.includes(lead.id));
}
if (!delivery) throw new Error("no delivery");
const event = await verifyWebhook(delivery.raw, delivery.headers, secret);
receiver.close();

console.log(JSON.stringify({
  token: token.length > 0,
  lead: lead.id,
  submitted: submitted.data.state,
  offers: offers.data?.offers.length ?? 0,
  accepted: accepted.data.state,
  event: event.event,
  offer: event.event === "lead.offer_accepted" ? event.data.offer.id : null,
}));
