// A setup file of the e2e config (test/e2e/vitest.config.mts): under `npm run docs:screenshots` the docs'
// screenshots a browser file took are written when its tests have ended (keepForDocs in
// test/browser/page-checks.ts says why). Other runs register nothing.
import { afterAll } from "vitest";

if (process.env.DOCS_SCREENSHOTS === "1") afterAll(async () => (await import("../browser/page-checks")).writeHeldDocsShots());
