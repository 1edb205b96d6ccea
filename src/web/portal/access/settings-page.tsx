/**
 * Your settings: the name a member goes by, shown to the businesses they
 * introduce as their adviser ("Your adviser: Ada Lovelace, Acme Introducers" on the client hub), and the
 * time zone every portal time is shown in for them (UTC until they choose one). Any member sets their
 * own; the form is the portal's one form shape, validated by `MemberSettings` and audited in its batch.
 */
import type { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { MemberSettings } from "../../../api/shared/schemas/portal-member";
import { DEFAULT_TIME_ZONE, DISPLAY_NAME_MAX, TIME_ZONES } from "../../../domain/portal/profile";
import { saveOwnSettings } from "../../../services/portal/members";
import { formatFor } from "../../kit/format";
import { textOf } from "../../kit/form";
import { parseForm, type PageRefusal } from "../../kit/refusal";
import { PORTAL_ROUTE, type PortalContext, type PortalEnv } from "../context";
import { portalForm } from "../form-action";
import { FieldError, FormToken, PortalPage } from "../layout";

const SETTINGS_PATH = `${PORTAL_ROUTE}/settings`;

interface SettingsDraft {
  display_name: string;
  time_zone: string;
}

const invalid = (refusal: PageRefusal | null, name: string, first: boolean) =>
  refusal?.problems.some((p) => p.field === name) ? { "aria-invalid": "true" as const, "aria-describedby": `${name}-error`, autofocus: first || undefined } : {};

function settingsPage(c: PortalContext, status: ContentfulStatusCode, refusal: PageRefusal | null = null, draft: SettingsDraft | null = null) {
  const viewer = c.get("viewer");
  const shown: SettingsDraft = draft ?? { display_name: viewer.displayName ?? "", time_zone: viewer.timeZone ?? DEFAULT_TIME_ZONE };
  const firstField = refusal?.problems.find((p) => p.field)?.field ?? null;
  const notice = c.req.query("notice") === "saved" ? "Your settings were saved." : null;
  const now = formatFor(null).time(new Date().toISOString());
  return c.html(
    <PortalPage
      title="Your settings"
      viewer={viewer}
      formToken={c.get("formToken")}
      feedback={refusal ? { error: { field: refusal.field, message: refusal.message, problems: refusal.problems } } : { notice }}
    >
      <form method="post" action={SETTINGS_PATH} novalidate>
        <FormToken token={c.get("formToken")} />
        <label for="display_name">Your name</label>
        <small class="muted" id="display_name-hint">
          How you are named to the businesses you introduce: their hub says "Your adviser: {viewer.displayName || "your name"}, {viewer.organisationName}". Left empty, it names {viewer.organisationName} alone.
        </small>
        <input
          type="text"
          id="display_name"
          name="display_name"
          maxlength={DISPLAY_NAME_MAX}
          autocomplete="name"
          value={shown.display_name}
          aria-describedby="display_name-hint"
          {...invalid(refusal, "display_name", firstField === "display_name")}
        />
        <FieldError field="display_name" error={refusal} />
        <label for="time_zone">Your time zone</label>
        <small class="muted" id="time_zone-hint">
          Every time in the portal is shown in it, with its name. Now: {now}.
        </small>
        <select id="time_zone" name="time_zone" aria-describedby="time_zone-hint" {...invalid(refusal, "time_zone", firstField === "time_zone")}>
          {TIME_ZONES.map((zone) => (
            <option value={zone} selected={zone === shown.time_zone}>
              {zone.replace(/_/g, " ")}
            </option>
          ))}
        </select>
        <FieldError field="time_zone" error={refusal} />
        <button type="submit">Save settings</button>
      </form>
    </PortalPage>,
    status,
  );
}

export function registerSettingsPages(portal: Hono<PortalEnv>) {
  portal.get("/settings", (c) => settingsPage(c, 200));
  portal.post(
    "/settings",
    portalForm<SettingsDraft>({
      audit: (c) => ({ action: "member.settings_changed", target: c.get("viewer").memberId }),
      draftOf: (form) => ({ display_name: textOf(form, "display_name"), time_zone: textOf(form, "time_zone") }),
      showAgain: (c, refusal, draft) => settingsPage(c, refusal.status as ContentfulStatusCode, refusal, draft),
      act: async (c, form) => {
        const name = textOf(form, "display_name").trim();
        const asked = parseForm(MemberSettings, { display_name: name === "" ? null : name, time_zone: textOf(form, "time_zone") }, "form");
        await saveOwnSettings(c.get("deps"), c.get("viewer"), { displayName: asked.display_name, timeZone: asked.time_zone });
        return `${SETTINGS_PATH}?notice=saved`;
      },
    }),
  );
}
