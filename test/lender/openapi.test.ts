import { describe, expect, it } from "vitest";
import { call } from "../helpers/api";

describe("lender OpenAPI document", () => {
  it("describes the deal routes and the market object as one schema per country, discriminated on country", async () => {
    const res = await call("GET", "/v1/openapi.json");
    expect(res.status).toBe(200);
    const doc = res.body;
    for (const path of ["/deals", "/deals/{ref}", "/deals/{ref}/status", "/deals/{ref}/offers", "/deals/{ref}/messages", "/deals/{ref}/completion", "/deals/{ref}/agreement", "/test/deals", "/test/deals/{ref}", "/referrals"]) {
      expect(doc.paths).toHaveProperty([path]);
    }
    const market = doc.components.schemas.DealMarket;
    expect(market.discriminator.propertyName).toBe("country");
    expect(market.oneOf).toHaveLength(12);
    expect(Object.keys(market.discriminator.mapping ?? {})).toContain("UK");
    expect(doc.components.schemas.DealMarketUS.properties).toHaveProperty("ein");
    expect(doc.components.schemas.DealMarketUK.properties).not.toHaveProperty("ein");
    expect(doc.components.schemas.Deal.properties.monthly_revenue.deprecated).toBe(true);
    expect(JSON.stringify(doc.components.schemas.Deal.properties.market_block)).toContain('"deprecated":true');
    expect(doc.paths["/deals/{ref}/agreement"].put.requestBody.content).toHaveProperty(["application/pdf"]);
  });
});
