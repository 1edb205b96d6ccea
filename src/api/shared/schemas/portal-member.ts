import { z } from "@hono/zod-openapi";
import { DISPLAY_NAME_MAX, isTimeZone } from "../../../domain/portal/profile";
import { PlainText } from "./common";

/** A member's display name: plain text on one line (bidi and control characters refused), as every name of the API. */
export const DisplayName = PlainText(DISPLAY_NAME_MAX, { min: 1 }).openapi({
  description: "The name the member goes by: the client hub names the adviser of a lead the member opened by it (\"Your adviser: Ada Lovelace, Acme Introducers\").",
  example: "Ada Lovelace",
});

/** A zone from Intl's list (`Europe/London`, `UTC`). */
const TimeZoneName = z.string().max(64).refine(isTimeZone, { message: "Choose a time zone from the list." });

/** The portal's *Your settings* form: an emptied name clears it; the zone is always one of the list. */
export const MemberSettings = z.strictObject({
  display_name: DisplayName.nullable(),
  time_zone: TimeZoneName,
});
