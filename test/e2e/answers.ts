// The e2e client's requests and what it makes of the answers (re-exported by client.ts). Kept apart from
// client.ts, which reads the run's lanes through vitest's inject(), so a unit test can run it against a
// local server (test/unit/tooling/e2e-client-answers.test.ts).

/** What came back, for an error message: status, content type and the first 300 characters of the text. */
export function describeAnswer(res: { status: number; headers: Headers; text: string }, what = "the answer") {
  const type = res.headers.get("Content-Type") ?? "no Content-Type";
  const shown = res.text.length > 300 ? `${res.text.slice(0, 300)}…` : res.text;
  return `${what}: ${res.status} (${type}) ${res.text ? JSON.stringify(shown) : "with an empty body"}`;
}

/** Statuses whose answer has no body by definition: their `body` is null, not an error. */
const NO_BODY = new Set([204, 205, 304]);

/**
 * A request and its answer: `status`, `headers`, `text`, and `body`, the text read as JSON. Reading
 * `body` of an answer that is not JSON (an HTML or text/plain page, wrangler dev's own 503, an empty
 * body where one was due) throws with what came back (describeAnswer), so a caller that reads
 * `.body.id` fails saying what the service answered instead of "Cannot read properties of null".
 * A 204/205/304, or a HEAD, has a null `body`.
 */
export async function http(method: string, url: string, init: { headers?: Record<string, string>; body?: unknown; raw?: string } = {}) {
  const headers = { ...init.headers };
  let body: string | undefined = init.raw;
  if (init.body !== undefined) {
    body = JSON.stringify(init.body);
    headers["Content-Type"] ??= "application/json";
  }
  const res = await fetch(url, { method, headers, body });
  const text = await res.text();
  let json: { ok: true; value: any } | { ok: false } = { ok: false };
  try {
    if (text) json = { ok: true, value: JSON.parse(text) };
  } catch {
    /* not JSON: reading body says so */
  }
  const answer = { status: res.status, headers: res.headers, text } as { status: number; headers: Headers; text: string; body: any };
  const path = new URL(url).pathname;
  Object.defineProperty(answer, "body", {
    enumerable: false,
    get() {
      if (json.ok) return json.value;
      if (!text && (NO_BODY.has(answer.status) || method === "HEAD")) return null;
      throw new Error(`expected a JSON answer to ${method} ${path}, got ${describeAnswer(answer)}`);
    },
  });
  return answer;
}

/** The JSON body of an answer with one of `statuses` (any status when none is given); otherwise an error saying what came back. */
export function expectJson(res: Awaited<ReturnType<typeof http>>, ...statuses: number[]) {
  if (statuses.length && !statuses.includes(res.status)) throw new Error(`expected ${statuses.join(" or ")}, got ${describeAnswer(res)}`);
  return res.body;
}

