import { z } from "zod";
import type { RegisterQuery, RegistryAvailable } from "../../domain/registers/types";
import { available, fromFailure, monthsSince, parseBody, text, directorByNameOnly } from "../answer";
import type { SourceContext } from "../context";
import { requestJson } from "../http";
import { unavailable, type RegisterOutcome } from "../outcome";
import type { RegisterSource } from "../source";
import { sirenOf } from "../../domain/registers/identity";

/**
 * FR: the French government's company search, recherche-entreprises.api.gouv.fr
 * (GET /search?q={SIREN}; no key; 7 calls a second). It answers 200 with an
 * empty `results` for an unknown number. Its `finances` block (turnover `ca`
 * and net result per fiscal year, from filed accounts) fills `filed_financials`.
 */

const SOURCE = "recherche_entreprises";

const str = z.string().nullish();

const siege = z.object({
  siret: str,
  numero_voie: str,
  indice_repetition: str,
  type_voie: str,
  libelle_voie: str,
  complement_adresse: str,
  code_postal: str,
  libelle_commune: str,
  libelle_commune_etranger: str,
  region: str,
  code_pays_etranger: str,
  adresse: str,
});

const dirigeant = z.object({
  type_dirigeant: str,
  nom: str,
  prenoms: str,
  denomination: str,
  siren: str,
  qualite: str,
});

const unite = z.object({
  siren: z.string(),
  nom_complet: str,
  nom_raison_sociale: str,
  date_creation: str,
  date_fermeture: str,
  etat_administratif: str,
  nature_juridique: str,
  activite_principale: str,
  section_activite_principale: str,
  categorie_entreprise: str,
  tranche_effectif_salarie: str,
  nombre_etablissements: z.number().nullish(),
  nombre_etablissements_ouverts: z.number().nullish(),
  siege: siege.nullish(),
  dirigeants: z.array(dirigeant).nullish(),
  finances: z.record(z.string(), z.object({ ca: z.number().nullish(), resultat_net: z.number().nullish() })).nullish(),
  complements: z.record(z.string(), z.unknown()).nullish(),
});

const searchResponse = z.object({ results: z.array(unite), total_results: z.number().nullish() });


const STATUS: Readonly<Record<string, string>> = { A: "active", C: "ceased" };

function latestFinancials(finances: z.infer<typeof unite>["finances"]): { year: string; financials: RegistryAvailable["filed_financials"] } | null {
  const years = Object.keys(finances ?? {}).filter((y) => /^\d{4}$/.test(y)).sort();
  const year = years[years.length - 1];
  if (!year || !finances) return null;
  const figures = finances[year];
  return {
    year,
    financials: {
      // The register gives the fiscal year, not its dates.
      period_start: null,
      period_end: null,
      turnover: figures.ca ?? null,
      gross_profit: null,
      operating_profit: null,
      profit_loss: figures.resultat_net ?? null,
      equity: null,
      net_assets: null,
      net_current_assets: null,
      cash: null,
      current_liabilities: null,
      average_employees: null,
      accounts_type: null,
      basis: "filed_accounts",
    },
  };
}

const personName = (d: z.infer<typeof dirigeant>) =>
  d.type_dirigeant === "personne morale" ? text(d.denomination) : text([text(d.prenoms), text(d.nom)].filter(Boolean).join(" "));

async function lookup(query: RegisterQuery, ctx: SourceContext): Promise<RegisterOutcome> {
  const siren = sirenOf(query.company_number);
  if (!siren) return unavailable("not_found");
  const result = await requestJson(ctx, {
    source: SOURCE,
    operation: "search",
    url: `${ctx.config.franceSearch.baseUrl}/search?q=${siren}&page=1&per_page=5`,
    headers: { Accept: "application/json" },
  });
  const parsed = parseBody(result, searchResponse, ctx, { source: SOURCE, operation: "search" });
  if (!parsed.ok) return fromFailure(parsed.failure);
  const company = parsed.value.results.find((r) => r.siren === siren);
  if (!company) return unavailable("not_found");

  const s = company.siege;
  const people = company.dirigeants ?? [];
  const latest = latestFinancials(company.finances);
  const identifiers: Record<string, string> = { siren };
  if (text(s?.siret)) identifiers.siret = text(s?.siret)!;

  return available(
    {
      registered_name: text(company.nom_raison_sociale) ?? text(company.nom_complet),
      incorporated_on: text(company.date_creation),
      company_age_months: monthsSince(text(company.date_creation), ctx.now()),
      company_status: STATUS[company.etat_administratif ?? ""] ?? text(company.etat_administratif),
      company_type: text(company.nature_juridique),
      activity_codes: text(company.activite_principale)
        ? [{ scheme: "NAF rév. 2", code: text(company.activite_principale)!, description: null, classification: text(company.section_activite_principale) }]
        : null,
      registered_office: s
        ? {
            line1: text([s.numero_voie, s.indice_repetition, s.type_voie, s.libelle_voie].map((p) => text(p)).filter(Boolean).join(" ")),
            line2: text(s.complement_adresse),
            locality: text(s.libelle_commune) ?? text(s.libelle_commune_etranger),
            region: text(s.region),
            postal_code: text(s.code_postal),
            country: text(s.code_pays_etranger) ? null : "FR",
          }
        : null,
      directors: people
        .filter((d) => d.type_dirigeant === "personne physique" && personName(d) !== null)
        .map((d) => directorByNameOnly(personName(d)!, text(d.qualite))),
      officers: people.filter((d) => personName(d) !== null).map((d) => ({ name: personName(d)!, role: text(d.qualite), appointed_on: null, resigned_on: null })),
      filed_financials: latest?.financials ?? null,
      identifiers,
      sections: {
        establishments: { status: "available", data: { total: company.nombre_etablissements ?? null, open: company.nombre_etablissements_ouverts ?? null } },
        size: { status: "available", data: { categorie_entreprise: text(company.categorie_entreprise), tranche_effectif_salarie: text(company.tranche_effectif_salarie) } },
        finances: { status: latest ? "available" : "not_filed", data: latest ? { fiscal_year: latest.year } : null },
        closure: { status: "available", data: { date_fermeture: text(company.date_fermeture) } },
      },
    },
    ctx,
  );
}

export const rechercheEntreprises: RegisterSource = { source: SOURCE, lookup };
