import type { RegisterQuery } from "../domain/registers/types";
import type { SourceContext } from "./context";
import type { RegisterOutcome, VatOutcome } from "./outcome";

/** One company register. `source` names the adapter (for logs and docs); the answer's own `source` is the spec's. */
export interface RegisterSource {
  source: string;
  lookup(query: RegisterQuery, ctx: SourceContext): Promise<RegisterOutcome>;
}

/** One VAT register, bound to the market it checks. */
export interface VatSource {
  source: string;
  check(number: string, ctx: SourceContext): Promise<VatOutcome>;
}
