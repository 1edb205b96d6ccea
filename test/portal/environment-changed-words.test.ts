/**
 * Issue 23 item 9 on the "Environment changed" page (require-viewer.ts, issue 21 item 7): it names the
 * environments with the header's words (the badge's "Sandbox"/"Live" and the switch's own button,
 * "Switch to sandbox"), never the codes `sandbox`/`live` bare in a sentence.
 */
import { describe, expect, it } from "vitest";
import { LABELS } from "../../src/web/kit/format";
import { portal, signedInMember } from "../helpers/portal";
import { createOrganisation } from "../helpers/seed";
import { completeUkForm, leadIdsOf } from "./partner/helpers";

const tokenOn = (html: string) => html.match(/name="_form_token" value="([^"]+)"/)![1];
/** The header's switch: the sandbox → live one is a link to its confirm page, live → sandbox a button. */
const switchLabelOf = (html: string) => /<header>[\s\S]*?(Switch to [^<]+)<\/(?:a|button)>/.exec(html)?.[1];
/** The page's own content, without the header (whose switch reads "Switch to live" by design). */
const mainOf = (html: string) => /<main[\s\S]*<\/main>/.exec(html)?.[0] ?? "";
const textOf = (html: string) => html.replace(/<style[\s\S]*?<\/style>/g, " ").replace(/<[^>]+>/g, " ").replace(/&#8220;|&ldquo;/g, "“").replace(/&#8221;|&rdquo;/g, "”").replace(/\s+/g, " ");

describe("the Environment changed page speaks the header's words", () => {
  it.each([
    ["sandbox", "live"],
    ["live", "sandbox"],
  ] as const)("a form opened in %s, posted while the portal shows %s", async (opened, now) => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    if (opened === "live") expect((await portal("POST", "/environment", { session, form: { environment: "live" } })).status).toBe(303);
    const form = await portal("GET", "/leads/new", { session });
    const openedToken = tokenOn(form.text);
    expect(switchLabelOf(form.text)).toBe(`Switch to ${now}`);

    // Another tab switches; its header now offers the way back.
    expect((await portal("POST", "/environment", { session, form: { environment: now } })).status).toBe(303);
    const otherTab = await portal("GET", "/", { session });
    const switchBack = switchLabelOf(otherTab.text)!;
    expect(switchBack).toBe(`Switch to ${opened}`);

    const posted = await portal("POST", "/leads/new", { session, form: { ...completeUkForm(), intent: "save" }, formToken: openedToken });
    expect(posted.status).toBe(409);
    const text = textOf(mainOf(posted.text));
    expect(text).toContain("Environment changed");
    expect(text).toContain(`opened in the ${LABELS.environment(opened)} environment`);
    expect(text).toContain(`now shows the ${LABELS.environment(now)} environment`);
    expect(text).toContain(`“${switchBack}”`);
    expect(text).toContain("Nothing was saved");
    // The page keeps the signed-in header, so the switch it names is there to press (not a "Sign in" link).
    expect(switchLabelOf(posted.text)).toBe(switchBack);
    expect(posted.text).toContain(">Sign out</button>");
    expect(posted.text).not.toContain(">Sign in</a>");
    // No environment code bare in a sentence ("opened in sandbox", "showing live").
    expect(text).not.toMatch(/\b(?:in|showing|to) (?:sandbox|live)\b(?! environment)(?!”)/);
    expect(await leadIdsOf(org.id)).toEqual([]);
  });

  it("shows Already sent inside the signed-in header too", async () => {
    const org = await createOrganisation("partner");
    const session = await signedInMember(org.id);
    const formToken = tokenOn((await portal("GET", "/keys", { session })).text);
    // A new key's answer is a page (its secret, shown once), so a second post of the form is "Already sent".
    expect((await portal("POST", "/keys", { session, form: { type: "secret" }, formToken })).status).toBe(201);
    const again = await portal("POST", "/keys", { session, form: { type: "secret" }, formToken });
    expect(again.status).toBe(409);
    expect(textOf(again.text)).toContain("Already sent");
    expect(again.text).toContain(">Sign out</button>");
    expect(again.text).not.toContain(">Sign in</a>");
  });
});
