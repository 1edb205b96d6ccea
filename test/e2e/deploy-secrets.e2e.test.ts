import { describe, expect, it } from "vitest";
import { missingFrom } from "../../scripts/lib/deploy-secrets.mjs";

// The rule `npm run deploy` applies to `wrangler secret list --format json` before deploying.
describe("the pre-deploy secret check", () => {
  const list = (...names: string[]) => JSON.stringify(names.map((name) => ({ name, type: "secret_text" })));

  it("stops a deploy without SIGNING_SECRET and only notes a missing ADMIN_TOKEN", () => {
    expect(missingFrom(list())).toEqual({ required: ["SIGNING_SECRET"], optional: ["ADMIN_TOKEN"] });
    expect(missingFrom(list("ADMIN_TOKEN"))).toEqual({ required: ["SIGNING_SECRET"], optional: [] });
    expect(missingFrom(list("SIGNING_SECRET"))).toEqual({ required: [], optional: ["ADMIN_TOKEN"] });
    expect(missingFrom(list("SIGNING_SECRET", "ADMIN_TOKEN", "OTHER"))).toEqual({ required: [], optional: [] });
  });
});
