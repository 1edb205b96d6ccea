// <rfs-prequalify>: the embeddable prequalification form (docs/embed.md). A web component with a
// shadow root, talking only to the service it was loaded from: GET /partner/v1/enums/* for its lists
// and POST /partner/v1/prequalification with the partner's publishable key. It asks for no personal
// data, sets no cookies and keeps nothing but the reference lists in memory.
import { continueUrl } from "./action-url";
import { messagesFor, say, type MessageKey } from "./messages";
import { CSS } from "./styles";

type Entry = { value: string; label: string; [k: string]: unknown };
type Answer = Record<string, any>;
type Fill = Parameters<typeof say>[1];

const SERVICE = new URL(import.meta.url).origin;
const lists = new Map<string, Promise<Entry[]>>();

class Refused extends Error {
  constructor(readonly status: number, readonly code: string, readonly field: string | null, readonly wait: number) {
    super(code);
  }
}

async function call(path: string, key: string, body?: unknown): Promise<Answer> {
  const res = await fetch(SERVICE + path, {
    method: body ? "POST" : "GET",
    headers: body ? { "X-API-Key": key, "Content-Type": "application/json" } : { "X-API-Key": key },
    body: body ? JSON.stringify(body) : undefined,
    credentials: "omit",
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok) throw new Refused(res.status, json?.error?.code ?? "", json?.error?.field ?? null, Number(res.headers.get("Retry-After")) || 0);
  return json;
}

/** One request per list, key and country for the life of the page (the answer is also browser-cacheable). */
function list(name: string, key: string, country?: string): Promise<Entry[]> {
  const path = `/partner/v1/enums/${name}${country ? `?country=${encodeURIComponent(country)}` : ""}`;
  const id = `${key} ${path}`;
  if (!lists.has(id)) lists.set(id, call(path, key).then((r) => r.values as Entry[]).catch((e) => (lists.delete(id), Promise.reject(e))));
  return lists.get(id)!;
}

function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Record<string, string | boolean> = {}, ...kids: (Node | string | null)[]) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) if (v !== false) el.setAttribute(k, v === true ? "" : v);
  el.append(...kids.filter((k): k is Node | string => k !== null));
  return el;
}

const FIELD_IDS: Record<string, string> = {
  country: "country",
  "funding.amount": "amount",
  "funding.amount_band": "amount_band",
  "funding.purpose": "purpose",
  "trading.monthly_revenue": "monthly_revenue",
  "trading.monthly_revenue_band": "monthly_revenue_band",
  "trading.tib_months": "tib_months",
  "trading.time_in_business_band": "time_in_business_band",
  "trading.credit_score_band": "credit_score_band",
  "business.industry": "industry",
};

export class RfsPrequalify extends HTMLElement {
  static observedAttributes = ["publishable-key", "country", "locale", "action"];
  private root = this.attachShadow({ mode: "open" });
  private busy = false;
  private countries: Entry[] = [];
  private last: { request: Answer; answer: Answer } | null = null;

  private get key() {
    return this.getAttribute("publishable-key") ?? "";
  }
  private get locale() {
    return this.getAttribute("locale") || navigator.language || "en-GB";
  }
  private get t() {
    return messagesFor(this.locale);
  }
  private $<T extends HTMLElement>(id: string) {
    return this.root.getElementById(id) as T | null;
  }

  connectedCallback() {
    if ("adoptedStyleSheets" in this.root && typeof CSSStyleSheet.prototype.replaceSync === "function") {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(CSS);
      this.root.adoptedStyleSheets = [sheet];
    } else {
      this.root.append(h("style", {}, CSS));
    }
    void this.load();
  }

  attributeChangedCallback(_name: string, before: string | null, after: string | null) {
    if (this.isConnected && before !== null && before !== after) void this.load();
  }

  private fixedCountry(): Entry | null {
    const wanted = (this.getAttribute("country") ?? "").trim().toUpperCase();
    if (!wanted) return null;
    return this.countries.find((c) => [c.value, c.alpha2, c.alpha3].some((v) => String(v).toUpperCase() === wanted)) ?? null;
  }

  private country(): Entry | null {
    return this.fixedCountry() ?? this.countries.find((c) => c.value === this.$<HTMLSelectElement>("country")?.value) ?? null;
  }

  private async load() {
    const t = this.t;
    const shell = h("div", { class: "rfs", part: "container", lang: this.locale });
    this.root.replaceChildren(...[...this.root.childNodes].filter((n) => n.nodeName === "STYLE"), shell);
    shell.append(h("h2", {}, t.title), h("p", { class: "small" }, t.intro));
    const alert = h("div", { class: "alert", role: "alert", id: "alert", part: "error" });
    // The answer's region is in place before the form is: a visitor (or a script) that submits while the
    // market's bands are still loading gets an answer where to show it, not a lost one.
    const answer = h("div", { class: "answer", part: "answer", id: "answer", role: "status", "aria-live": "polite" });
    shell.append(answer, h("p", { class: "small", id: "disclaimer", part: "disclaimer" }, t.disclaimer));
    try {
      const [countries, purposes, industries, tib, credit] = await Promise.all(
        ["countries", "purposes", "industries", "time-in-business-bands", "credit-score-bands"].map((n) => list(n, this.key)),
      );
      this.countries = countries;
      const fixed = this.fixedCountry();
      const form = h("form", { part: "form", novalidate: true, "aria-describedby": "disclaimer" });
      if (!fixed) form.append(this.select("country", t.country, countries.map((c) => ({ ...c, label: String(c.label) })), true));
      form.append(
        this.input("amount", t.amount, "decimal", true),
        this.select("amount_band", t.amountBand, []),
        this.select("purpose", t.purpose, purposes, true),
        this.input("monthly_revenue", t.revenue, "decimal"),
        this.select("monthly_revenue_band", t.revenueBand, []),
        this.input("tib_months", t.tib, "numeric"),
        this.select("time_in_business_band", t.tibBand, tib),
        this.select("industry", t.industry, industries),
        this.select("credit_score_band", t.credit, credit),
        alert,
        h("div", { class: "actions" }, h("button", { type: "submit", part: "button submit", id: "submit" }, t.submit)),
      );
      form.addEventListener("submit", (e) => (e.preventDefault(), void this.submit()));
      answer.before(form);
      this.$<HTMLSelectElement>("country")?.addEventListener("change", () => void this.countryChanged());
      await this.countryChanged();
    } catch (error) {
      answer.before(alert);
      this.showRefusal(alert, error, t.loadFailed, () => void this.load());
    }
  }

  /** Money bands are in the market's currency; credit bands only exist where the market carries a score. */
  private async countryChanged() {
    const country = this.country();
    const credit = this.$("credit_score_band")?.parentElement;
    if (credit) credit.hidden = !(country?.required_for_submit as string[] | undefined)?.includes("credit_score_band");
    const code = String(country?.value ?? "");
    const [amounts, revenues] = country?.supported ? await Promise.all([list("funding-amount-bands", this.key, code), list("revenue-bands", this.key, code)]) : [[], []];
    this.fillOptions("amount_band", amounts);
    this.fillOptions("monthly_revenue_band", revenues);
  }

  private hint(id: string, text: string) {
    return h("span", { class: "hint", id: `${id}-hint` }, ` (${text})`);
  }

  private input(id: string, label: string, mode: string, required = false) {
    const t = this.t;
    return h(
      "div",
      { class: "field", part: "field" },
      h("label", { for: id, part: "label" }, label, this.hint(id, required ? t.required : t.optional)),
      h("input", { id, name: id, type: "text", inputmode: mode, autocomplete: "off", part: "input", "aria-required": required ? "true" : false, "aria-describedby": `${id}-hint ${id}-err` }),
      h("span", { class: "err", id: `${id}-err` }),
    );
  }

  private select(id: string, label: string, entries: Entry[], required = false) {
    const t = this.t;
    const el = h("select", { id, name: id, part: "input", "aria-describedby": `${id}-hint ${id}-err`, "aria-required": required ? "true" : false });
    const field = h(
      "div",
      { class: "field", part: "field" },
      h("label", { for: id, part: "label" }, label, this.hint(id, required ? t.required : t.optional)),
      el,
      h("span", { class: "err", id: `${id}-err` }),
    );
    this.fillOptions(id, entries, el);
    return field;
  }

  private fillOptions(id: string, entries: Entry[], el = this.$<HTMLSelectElement>(id)) {
    if (!el) return;
    const keep = el.value;
    el.replaceChildren(h("option", { value: "" }, this.t.choose), ...entries.map((e) => h("option", { value: e.value }, e.label)));
    if (entries.some((e) => e.value === keep)) el.value = keep;
  }

  private value(id: string) {
    const el = this.$<HTMLInputElement | HTMLSelectElement>(id);
    return el && !el.parentElement?.hidden ? el.value.trim() : "";
  }

  /** Reads "50,000", "50 000" or "50.000,50" the way the page's locale writes numbers. */
  private number(text: string, whole: boolean): number | null {
    if (!text) return null;
    const decimal = (1.5).toLocaleString(this.locale).charAt(1);
    const [int, frac = ""] = text.replace(/[\s\u00a0\u202f']/g, "").split(decimal);
    if (!/^[\d.,]+$/.test(int) || !/^\d*$/.test(frac)) return NaN;
    const n = Number(`${int.replace(/[.,]/g, "")}.${frac || 0}`);
    return whole && !Number.isInteger(n) ? NaN : n;
  }

  private setError(id: string, text: string) {
    const el = this.$(id);
    if (!el) return;
    el.setAttribute("aria-invalid", text ? "true" : "false");
    this.$(`${id}-err`)!.textContent = text;
  }

  private async submit() {
    if (this.busy) return;
    const t = this.t;
    const alert = this.$("alert")!;
    alert.replaceChildren();
    for (const id of Object.values(FIELD_IDS)) this.setError(id, "");
    const amount = this.number(this.value("amount"), false);
    const revenue = this.number(this.value("monthly_revenue"), false);
    const tib = this.number(this.value("tib_months"), true);
    const problems: [string, string][] = [];
    const country = this.country();
    if (!country) problems.push(["country", t.needCountry]);
    if (Number.isNaN(amount)) problems.push(["amount", t.badNumber]);
    else if (amount === null && !this.value("amount_band")) problems.push(["amount", t.needAmount]);
    if (!this.value("purpose")) problems.push(["purpose", t.needPurpose]);
    if (Number.isNaN(revenue)) problems.push(["monthly_revenue", t.badNumber]);
    if (Number.isNaN(tib)) problems.push(["tib_months", t.badNumber]);
    if (problems.length) {
      for (const [id, text] of problems) this.setError(id, text);
      this.$(problems[0][0])?.focus();
      return;
    }
    const pick = (entries: [string, unknown][]) => {
      const kept = entries.filter(([, v]) => v !== null && v !== "");
      return kept.length ? Object.fromEntries(kept) : undefined;
    };
    const request: Answer = {
      country: String(this.getAttribute("country") || country!.value),
      funding: pick([["purpose", this.value("purpose")], amount !== null ? ["amount", amount] : ["amount_band", this.value("amount_band")]]),
      trading: pick([
        revenue !== null ? ["monthly_revenue", revenue] : ["monthly_revenue_band", this.value("monthly_revenue_band")],
        tib !== null ? ["tib_months", tib] : ["time_in_business_band", this.value("time_in_business_band")],
        ["credit_score_band", this.value("credit_score_band")],
      ]),
      business: pick([["industry", this.value("industry")]]),
    };
    for (const k of ["trading", "business"]) if (!request[k]) delete request[k];
    const button = this.$<HTMLButtonElement>("submit")!;
    this.busy = true;
    button.disabled = true;
    button.textContent = t.checking;
    try {
      const answer = await call("/partner/v1/prequalification", this.key, request);
      this.last = { request, answer };
      this.showAnswer(request, answer);
      this.dispatchEvent(new CustomEvent("rfs-prequalified", { detail: { request, answer }, bubbles: true, composed: true }));
    } catch (error) {
      if (error instanceof Refused && error.field && FIELD_IDS[error.field]) {
        this.setError(FIELD_IDS[error.field], t.badNumber);
        this.$(FIELD_IDS[error.field])?.focus();
      } else this.showRefusal(alert, error, "", () => void this.submit());
    } finally {
      this.busy = false;
      button.textContent = t.submit;
      if (!button.dataset.waiting) button.disabled = false;
    }
  }

  private showRefusal(alert: HTMLElement, error: unknown, lead: string, retry: () => void) {
    const t = this.t;
    const button = this.$<HTMLButtonElement>("submit");
    let text = t.offline;
    let canRetry = true;
    if (error instanceof Refused) {
      if (error.code === "origin_not_allowed") [text, canRetry] = [t.notAllowed, false];
      else if (error.status === 401 || error.status === 403) [text, canRetry] = [t.badKey, false];
      else if (error.status === 429) {
        const wait = Math.max(1, error.wait);
        text = say(t.busy, { n: wait });
        if (button) {
          button.disabled = true;
          button.dataset.waiting = "1";
          setTimeout(() => (button.disabled = false, delete button.dataset.waiting), wait * 1000);
        }
        canRetry = false;
      } else if (error.status < 500) text = t.loadFailed;
      // The service answered, so "could not be reached" would be wrong: a 503 says when to come back.
      else text = error.wait > 0 ? say(t.serverBusy, { n: error.wait }) : t.serverFailed;
    }
    alert.replaceChildren(h("p", {}, lead ? `${lead} ${text}` : text));
    if (canRetry) {
      const again = h("button", { type: "button", part: "button retry" }, t.retry);
      again.addEventListener("click", retry);
      alert.append(again);
    }
    if (!canRetry && button && (error as Refused).status !== 429) button.disabled = true;
  }

  private money(value: number, currency: string) {
    return new Intl.NumberFormat(this.locale, { style: "currency", currency, maximumFractionDigits: Number.isInteger(value) ? 0 : 2 }).format(value);
  }

  private showAnswer(request: Answer, answer: Answer) {
    const t = this.t;
    const box = this.$("answer")!;
    const n = answer.matched_options as number;
    const heading = answer.eligible ? (n === 1 ? t.eligibleOne : say(t.eligible, { n })) : answer.decision === "out_of_scope" ? t.outOfScope : t.none;
    const title = h("h2", { tabindex: "-1", class: answer.eligible ? "yes" : "", "data-decision": answer.decision, "data-options": String(n) }, heading);
    const parts: Node[] = [title];
    if (answer.product_families.length) {
      parts.push(
        h("ul", {}, ...answer.product_families.map((f: Answer) => h("li", { "data-family": f.product_family, "data-options": String(f.options) }, `${f.label}: ${f.options}`))),
      );
    }
    const range = answer.indicative_amount;
    if (range) {
      const text = `${this.money(range.min, range.currency)} – ${this.money(range.max, range.currency)}`;
      parts.push(
        h("p", { "data-min": String(range.min), "data-max": String(range.max), "data-currency": range.currency, "data-basis": range.basis }, say(t.range, { v: text }), " ", h("span", { class: "small" }, `(${t.rangeBasis})`)),
      );
    }
    const f = answer.figures;
    const bandNote = (basis: string | null, label: string, id: string) =>
      basis === "band_midpoint" || basis === "band_lower_bound"
        ? h("p", { class: "small", "data-basis-of": id, "data-basis": basis }, say(t.basisBand, { s: label, v: this.$<HTMLSelectElement>(id)?.selectedOptions[0]?.textContent ?? "" }))
        : null;
    const notes = [
      bandNote(f.amount_basis, t.amount, "amount_band"),
      bandNote(f.monthly_revenue_basis, t.revenue, "monthly_revenue_band"),
      bandNote(f.tib_months_basis, t.tib, "time_in_business_band"),
    ].filter((x): x is HTMLParagraphElement => x !== null);
    parts.push(...notes);
    const english = this.locale.toLowerCase().startsWith("en");
    const reasons = [...new Set((answer.reasons as Answer[]).map((r) => (english ? r.detail : t[(`r_${r.code}` in t ? `r_${r.code}` : "r_unknown") as MessageKey])))];
    if (reasons.length) parts.push(h("h3", {}, t.reasons), h("ul", {}, ...reasons.map((r) => h("li", {}, r))));
    if (answer.unlocks?.length) {
      const c = answer.currency;
      const line = (u: Answer) => {
        const fill: Fill = { n: u.options_added };
        if (u.field === "funding.amount") return say(t.unlockAmount, { ...fill, v: this.money(u.needed, c) });
        if (u.field === "trading.monthly_revenue") return say(t.unlockRevenue, { ...fill, v: this.money(u.needed, c) });
        if (u.field === "trading.tib_months") return say(t.unlockTib, { ...fill, v: String(u.needed) });
        // A requirement a product sets: statements by their months, a guarantee by name, the rest as the fuller application.
        const months = /^statements\.(\d+)_months$/.exec(u.field);
        if (months) return say(t.unlockStatements, { ...fill, v: months[1] });
        if (u.field === "significant_persons[].guarantee") return say(t.unlockGuarantee, fill);
        if (u.needed === true) return say(t.unlockDetails, fill);
        const band = [...(this.$<HTMLSelectElement>("credit_score_band")?.options ?? [])].find((o) => o.value === u.needed);
        return say(t.unlockCredit, { ...fill, v: band?.textContent ?? String(u.needed) });
      };
      parts.push(h("h3", {}, t.unlocks), h("ul", {}, ...answer.unlocks.map((u: Answer) => h("li", { "data-unlock": u.field, "data-needed": String(u.needed), "data-added": String(u.options_added) }, line(u)))));
    }
    if (answer.eligible) parts.push(this.callToAction(request));
    box.replaceChildren(...parts);
    title.focus();
  }

  /** A link carrying the answers when the partner gave a usable `action` (`continueUrl`), else a button that raises `rfs-continue`. */
  private callToAction(request: Answer) {
    const url = continueUrl(this.getAttribute("action"), document.baseURI);
    if (url) {
      const flat = (o: Answer, prefix = ""): [string, string][] =>
        Object.entries(o).flatMap(([k, v]) => (typeof v === "object" && v ? flat(v, `${prefix}${k}.`) : [[`${prefix}${k}`, String(v)] as [string, string]]));
      for (const [k, v] of flat(request)) url.searchParams.set(k, v);
      return h("div", { class: "actions" }, h("a", { class: "cta", part: "button continue", href: url.toString() }, this.t.continue));
    }
    const button = h("button", { type: "button", part: "button continue" }, this.t.continue);
    button.addEventListener("click", () => this.dispatchEvent(new CustomEvent("rfs-continue", { detail: this.last, bubbles: true, composed: true })));
    return h("div", { class: "actions" }, button);
  }
}

if (!customElements.get("rfs-prequalify")) customElements.define("rfs-prequalify", RfsPrequalify);
