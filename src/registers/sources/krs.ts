import { z } from "zod";
import type { RegisterQuery, RegistryAvailable } from "../../domain/registers/types";
import { available, fromFailure, monthsSince, parseBody, text, directorByNameOnly } from "../answer";
import type { SourceContext } from "../context";
import { requestJson } from "../http";
import { unavailable, type RegisterOutcome } from "../outcome";
import type { RegisterSource } from "../source";
import { krsNumberOf } from "../../domain/registers/identity";

/**
 * PL: the National Court Register's open API (api-krs.ms.gov.pl,
 * GET /api/krs/OdpisAktualny/{krs}?rejestr=P&format=json; no key): the
 * current extract of an entrepreneur. Section 1 holds the name, legal form,
 * NIP/REGON, seat and share capital; section 2 the management board and
 * proxies; section 3 the PKD activities and the annual financial statements
 * filed; section 6 liquidation, bankruptcy and restructuring. 404, or 204
 * with no body, means the number has no current entry in the entrepreneurs'
 * register. Natural persons' names arrive masked ("W*********") and are
 * never reported as names. Personal identifiers (PESEL)
 * are masked by the register and never read.
 */

const SOURCE = "krs";

const str = z.string().nullish();
const person = z.object({
  // The live key of a double surname's second part is nazwiskoIICzlon.
  nazwisko: z.object({ nazwiskoICzlon: str, nazwiskoIICzlon: str }).nullish(),
  imiona: z.object({ imie: str, imieDrugie: str }).nullish(),
  funkcjaWOrganie: str,
  czyZawieszona: z.boolean().nullish(),
});
const activity = z.object({ opis: str, kodDzial: str, kodKlasa: str, kodPodklasa: str });

const extract = z.object({
  odpis: z.object({
    rodzaj: str,
    naglowekA: z.object({ numerKRS: z.string(), dataRejestracjiWKRS: str, stanZDnia: str, dataWykreslenia: str }).passthrough(),
    dane: z.object({
      dzial1: z.object({
        danePodmiotu: z.object({
          formaPrawna: str,
          nazwa: z.string(),
          identyfikatory: z.object({ nip: str, regon: str }).nullish(),
        }),
        siedzibaIAdres: z
          .object({
            siedziba: z.object({ kraj: str, wojewodztwo: str, miejscowosc: str }).nullish(),
            adres: z.object({ ulica: str, nrDomu: str, nrLokalu: str, miejscowosc: str, kodPocztowy: str, poczta: str, kraj: str }).nullish(),
          })
          .nullish(),
        kapital: z.object({ wysokoscKapitaluZakladowego: z.object({ wartosc: z.string(), waluta: z.string() }).nullish() }).nullish(),
        wspolnicySpzoo: z.array(z.unknown()).nullish(),
      }),
      dzial2: z
        .object({
          reprezentacja: z.object({ nazwaOrganu: str, sklad: z.array(person).nullish() }).nullish(),
          prokurenci: z.array(person.extend({ rodzajProkury: str })).nullish(),
        })
        .nullish(),
      dzial3: z
        .object({
          przedmiotDzialalnosci: z
            .object({ przedmiotPrzewazajacejDzialalnosci: z.array(activity).nullish(), przedmiotPozostalejDzialalnosci: z.array(activity).nullish() })
            .nullish(),
          wzmiankiOZlozonychDokumentach: z
            .object({ wzmiankaOZlozeniuRocznegoSprawozdaniaFinansowego: z.array(z.object({ dataZlozenia: str, zaOkresOdDo: str })).nullish() })
            .nullish(),
        })
        .nullish(),
      dzial6: z.record(z.string(), z.unknown()).nullish(),
    }),
  }),
});


/** "15.02.2021" → "2021-02-15". */
export function isoFromPolish(date: string | null | undefined): string | null {
  const match = date ? /(\d{2})\.(\d{2})\.(\d{4})/.exec(date) : null;
  return match ? `${match[3]}-${match[2]}-${match[1]}` : null;
}

/** "OD 01.01.2019 DO 31.12.2019" or "06.09.2011 R. - 31.12.2011 R." → both dates. */
function periodOf(text: string | null | undefined): { start: string | null; end: string | null } {
  const dates = [...(text ?? "").matchAll(/\d{2}\.\d{2}\.\d{4}/g)].map((m) => isoFromPolish(m[0]));
  return { start: dates[0] ?? null, end: dates[1] ?? null };
}

/**
 * The open API masks natural persons' names: the first letter, then one
 * asterisk per remaining letter ("W*********"). Such a name is not a fact.
 */
export const isMasked = (value: string | null | undefined) => !!value && /^\p{L}?\*+$/u.test(value.trim());

type Person = z.infer<typeof person>;
const nameParts = (p: Person) => [p.imiona?.imie, p.imiona?.imieDrugie, p.nazwisko?.nazwiskoICzlon, p.nazwisko?.nazwiskoIICzlon].map((x) => text(x)).filter((x): x is string => x !== null);

/** A person's name as the register shows it; `masked` when any part is masked (the name is then null, never asterisks). */
function personName(p: Person): { name: string | null; masked: boolean } {
  const parts = nameParts(p);
  if (parts.some(isMasked)) return { name: null, masked: true };
  return { name: text(parts.join(" ")), masked: false };
}

/** Section 6 headings for liquidation, bankruptcy, restructuring and recovery proceedings. */
const PROCEEDINGS = /upadl|likwid|restruktur|naprawcz/i;

function proceedingsOf(dzial6: Record<string, unknown> | null | undefined): string[] {
  return Object.entries(dzial6 ?? {})
    .filter(([key, value]) => PROCEEDINGS.test(key) && value !== null && !(Array.isArray(value) && value.length === 0) && !(typeof value === "object" && Object.keys(value as object).length === 0))
    .map(([key]) => key);
}

function statusOf(deregistered: string | null, proceedings: string[]): string {
  if (deregistered) return "dissolved";
  if (proceedings.some((p) => /upadl/i.test(p))) return "insolvency-proceedings";
  if (proceedings.some((p) => /likwid/i.test(p))) return "liquidation";
  if (proceedings.some((p) => /restruktur|naprawcz/i.test(p))) return "restructuring";
  return "active";
}

async function lookup(query: RegisterQuery, ctx: SourceContext): Promise<RegisterOutcome> {
  const krs = krsNumberOf(query.company_number);
  if (!krs) return unavailable("not_found");
  const result = await requestJson(ctx, {
    source: SOURCE,
    operation: "odpis_aktualny",
    url: `${ctx.config.krs.baseUrl}/api/krs/OdpisAktualny/${krs}?rejestr=P&format=json`,
    headers: { Accept: "application/json" },
  });
  // 204 with no body: the number has no current entry in the entrepreneurs' register.
  if (result.ok && result.status === 204) return unavailable("not_found");
  const parsed = parseBody(result, extract, ctx, { source: SOURCE, operation: "odpis_aktualny" });
  if (!parsed.ok) return fromFailure(parsed.failure);
  const { naglowekA: header, dane } = parsed.value.odpis;
  const subject = dane.dzial1.danePodmiotu;
  const seat = dane.dzial1.siedzibaIAdres;
  const board = dane.dzial2?.reprezentacja?.sklad ?? [];
  const proxies = dane.dzial2?.prokurenci ?? [];
  const activities = dane.dzial3?.przedmiotDzialalnosci;
  const statements = dane.dzial3?.wzmiankiOZlozonychDokumentach?.wzmiankaOZlozeniuRocznegoSprawozdaniaFinansowego ?? [];
  const proceedings = proceedingsOf(dane.dzial6);
  const registeredOn = isoFromPolish(header.dataRejestracjiWKRS);
  const capital = dane.dzial1.kapital?.wysokoscKapitaluZakladowego;
  const capitalAmount = capital ? Number(capital.wartosc.replace(/\s/g, "").replace(",", ".")) : NaN;

  const identifiers: Record<string, string> = { krs };
  if (text(subject.identyfikatory?.nip)) identifiers.nip = text(subject.identyfikatory?.nip)!;
  if (text(subject.identyfikatory?.regon)) identifiers.regon = text(subject.identyfikatory?.regon)!;

  const toActivity = (classification: string) => (a: z.infer<typeof activity>) => ({
    scheme: "PKD 2007",
    code: [a.kodDzial, a.kodKlasa, a.kodPodklasa].map((p) => text(p)).filter(Boolean).join("."),
    description: text(a.opis),
    classification,
  });

  const filings: RegistryAvailable["filings"] = statements.map((s) => {
    const period = periodOf(s.zaOkresOdDo);
    return { type: "annual_financial_statements", description: text(s.zaOkresOdDo), date: isoFromPolish(s.dataZlozenia), period_start: period.start, period_end: period.end };
  });

  return available(
    {
      registered_name: subject.nazwa,
      // The date of entry in the KRS (from 2001); an older company keeps its earlier registration in daneOWczesniejszejRejestracji.
      incorporated_on: registeredOn,
      company_age_months: monthsSince(registeredOn, ctx.now()),
      company_status: statusOf(text(header.dataWykreslenia), proceedings),
      company_type: text(subject.formaPrawna),
      activity_codes: [
        ...(activities?.przedmiotPrzewazajacejDzialalnosci ?? []).map(toActivity("primary")),
        ...(activities?.przedmiotPozostalejDzialalnosci ?? []).map(toActivity("secondary")),
      ],
      registered_office: seat?.adres
        ? {
            line1: text([seat.adres.ulica, seat.adres.nrDomu].map((p) => text(p)).filter(Boolean).join(" ") + (text(seat.adres.nrLokalu) ? `/${text(seat.adres.nrLokalu)}` : "")),
            line2: null,
            locality: text(seat.adres.miejscowosc),
            region: text(seat.siedziba?.wojewodztwo),
            postal_code: text(seat.adres.kodPocztowy),
            country: text(seat.adres.kraj),
          }
        : null,
      // A masked member keeps their place and role: name null, name_masked true.
      directors: board
        .map((p) => ({ ...personName(p), role: text(p.funkcjaWOrganie) }))
        .filter((p) => p.name !== null || p.masked)
        .map((p) => ({ ...directorByNameOnly(p.name, p.role), ...(p.masked ? { name_masked: true } : {}) })),
      officers: [
        ...board.map((p) => ({ ...personName(p), role: text(p.funkcjaWOrganie) })),
        ...proxies.map((p) => ({ ...personName(p), role: text(p.rodzajProkury) ?? "PROKURENT" })),
      ]
        .filter((o) => o.name !== null || o.masked)
        .map((o) => ({ name: o.name, role: o.role, appointed_on: null, resigned_on: null, ...(o.masked ? { name_masked: true } : {}) })),
      has_insolvency_history: proceedings.length > 0,
      filings,
      share_capital: capital && Number.isFinite(capitalAmount) ? { amount: capitalAmount, currency: capital.waluta } : null,
      identifiers,
      sections: {
        extract: { status: "available", data: { register: "P", as_of: isoFromPolish(header.stanZDnia) } },
        management_board: { status: "available", data: { organ: text(dane.dzial2?.reprezentacja?.nazwaOrganu), members: board.length, names_masked: board.filter((p) => personName(p).masked).length } },
        shareholders: { status: "available", data: { count: dane.dzial1.wspolnicySpzoo?.length ?? null } },
        proceedings: { status: "available", data: { sections: proceedings } },
      },
    },
    ctx,
  );
}

export const krsRegister: RegisterSource = { source: SOURCE, lookup };
