// Reads the README's API tour: its shell blocks, and the outputs it shows
// after `# →`. An output may elide with `…`: a bare `…` stands for any value
// (or, in a list, any further items; in an object, any further keys), and a
// string with `…` in it matches any string of that form.

export interface ShownOutput {
  /** 1-based index of the curl call, counted over the whole tour, whose answer this shows. */
  call: number;
  text: string;
  value: unknown;
}

export const WILDCARD = "\u0000any";

/** The ```sh blocks between "## API tour" and the next level-2 heading. */
export function tourBlocks(readme: string): string[] {
  const start = readme.indexOf("\n## API tour");
  const end = readme.indexOf("\n## ", start + 1);
  return [...readme.slice(start, end).matchAll(/```sh\n([\s\S]*?)```/g)].map(([, body]) => body);
}

/** Code without comments, for counting calls. */
const code = (line: string) => (line.trimStart().startsWith("#") ? "" : line.replace(/\s#\s.*$/, ""));

export function shownOutputs(script: string): ShownOutput[] {
  const lines = script.split("\n");
  const shown: ShownOutput[] = [];
  let calls = 0;
  for (let i = 0; i < lines.length; i++) {
    const arrow = /^#\s*→\s*(?:\d{3}\s+)?(.*)$/.exec(lines[i]);
    if (!arrow) {
      calls += (code(lines[i]).match(/(^|[\s($])curl\s/g) ?? []).length;
      continue;
    }
    let text = arrow[1];
    while (i + 1 < lines.length && /^#\s{2,}/.test(lines[i + 1])) text += lines[++i].replace(/^#\s+/, "");
    text = text.replace(/\)?\s{2,}\(.*$/, "").trim(); // a trailing "(remark)" after the JSON
    shown.push({ call: calls, text, value: parseShown(text) });
  }
  return shown;
}

/** JSON with `…` elisions into a value whose wildcards compare as described above. */
export function parseShown(text: string): unknown {
  let out = "";
  const stack: string[] = [];
  let inString = false;
  let last = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      out += ch;
      if (ch === "\\") out += text[++i];
      else if (ch === '"') inString = false;
      continue;
    }
    if (ch === '"') inString = true;
    if (ch === "{" || ch === "[") stack.push(ch);
    if (ch === "}" || ch === "]") stack.pop();
    if (ch === "…") {
      const inObject = stack.at(-1) === "{";
      if (inObject && last !== ":") {
        // "any further keys": drop it and the comma that joined it
        const joined = /,\s*$/.test(out);
        out = out.replace(/,\s*$/, "");
        if (!joined && text[i + 1] === ",") i++;
        continue;
      }
      out += JSON.stringify(WILDCARD);
      last = '"';
      continue;
    }
    out += ch;
    if (!/\s/.test(ch)) last = ch;
  }
  return JSON.parse(out);
}

/** Where the actual answer differs from the shown one; empty when it matches. */
export function differences(shown: unknown, actual: unknown, at = "$"): string[] {
  if (shown === WILDCARD) return [];
  if (typeof shown === "string" && shown.includes("…")) {
    const pattern = new RegExp(`^${shown.split("…").map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("[\\s\\S]*")}$`);
    return typeof actual === "string" && pattern.test(actual) ? [] : [`${at}: ${JSON.stringify(actual)} is not of the form ${JSON.stringify(shown)}`];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual)) return [`${at}: expected a list, got ${JSON.stringify(actual)}`];
    const open = shown.at(-1) === WILDCARD;
    const items = open ? shown.slice(0, -1) : shown;
    const count = open ? actual.length >= items.length : actual.length === items.length;
    if (!count) return [`${at}: ${actual.length} items where the README shows ${open ? "at least " : ""}${items.length}`];
    return items.flatMap((item, i) => differences(item, actual[i], `${at}[${i}]`));
  }
  if (shown && typeof shown === "object") {
    if (!actual || typeof actual !== "object" || Array.isArray(actual)) return [`${at}: expected an object, got ${JSON.stringify(actual)}`];
    return Object.entries(shown).flatMap(([key, value]) =>
      key in actual ? differences(value, (actual as Record<string, unknown>)[key], `${at}.${key}`) : [`${at}.${key}: missing`],
    );
  }
  return Object.is(shown, actual) ? [] : [`${at}: ${JSON.stringify(actual)} where the README shows ${JSON.stringify(shown)}`];
}
