/**
 * The webhook events' examples: bodies the service signed and delivered in a real run
 * (src/api/reference/webhook-examples.json, written by scripts/capture-webhook-examples.mjs and
 * checked against each event's schema by test/docs-examples.test.ts), one per payload mode.
 */
import captured from "./webhook-examples.json";

type Media = Record<string, { examples?: Record<string, { summary: string; value: unknown }> }>;
type Webhooks = Record<string, { post?: { requestBody?: { content?: Media } } }>;
type CapturedEvents = Record<string, { full: unknown; reference: unknown }>;

/** The captured bodies of one API's events, keyed by event name; none for the operator API. */
function webhookExamplesOf(api: string): CapturedEvents {
  return ((captured as Record<string, CapturedEvents>)[api] ?? {}) as CapturedEvents;
}

/** Puts each event's two captured bodies on its request body, named by payload mode. */
export function withWebhookExamples<T extends { webhooks?: unknown }>(document: T, api: string): T {
  const examples = webhookExamplesOf(api);
  for (const [event, item] of Object.entries((document.webhooks ?? {}) as Webhooks)) {
    const example = examples[event];
    const media = item.post?.requestBody?.content?.["application/json"];
    if (!example || !media) continue;
    media.examples = {
      full: { summary: "payload: full (the subject as its GET answers it)", value: example.full },
      reference: { summary: "payload: reference (the subject's reference only)", value: example.reference },
    };
  }
  return document;
}
