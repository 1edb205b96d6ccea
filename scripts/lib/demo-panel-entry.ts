// Bundled by scripts/lib/seed.mjs: the demo panel as operator API bodies.
import { DEMO_LENDERS } from "../../src/dev/demo-panel";
import { productBody } from "../../src/domain/panel/product-body";

export const demoPanel = DEMO_LENDERS.map((lender) => ({ name: lender.name, products: lender.products.map(productBody) }));
