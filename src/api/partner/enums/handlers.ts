import { ENUM_LISTS, ENUM_NAMES, type EnumName } from "../../../domain/reference/catalogue";
import { Refusal } from "../../../lib/refusal";
import type { Router } from "../../router";
import { getEnum, listEnums } from "./routes";

const isEnumName = (name: string): name is EnumName => (ENUM_NAMES as string[]).includes(name);

export function registerEnumRoutes(router: Router) {
  router.openapi(listEnums, (c) =>
    c.json(
      {
        enums: ENUM_NAMES.map((name) => ({
          name,
          description: ENUM_LISTS[name].description,
          requires_country: ENUM_LISTS[name].per_country,
          url: `/partner/v1/enums/${name}${ENUM_LISTS[name].per_country ? "?country={country}" : ""}`,
        })),
      },
      200,
    ),
  );

  router.openapi(getEnum, (c) => {
    // Reference data changes only with a deploy: a browser (the embeddable widget) may keep it an hour.
    c.header("Cache-Control", "private, max-age=3600");
    const { name } = c.req.valid("param");
    const { country } = c.req.valid("query");
    if (!isEnumName(name)) {
      throw new Refusal("not_found", `There is no enum list named "${name}". Lists: ${ENUM_NAMES.join(", ")}.`);
    }
    const list = ENUM_LISTS[name];
    if (list.per_country && !country) {
      throw new Refusal("invalid_request", `The ${name} list differs by market: pass ?country= (alpha-2, alpha-3 or name).`, { field: "query.country" });
    }
    const market = list.per_country ? country! : null;
    return c.json({ name, country: market?.code ?? null, values: list.entries(market) }, 200);
  });
}
