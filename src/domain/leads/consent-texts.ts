/**
 * The consent texts a business agrees to, one table in code. Each version is kept forever
 * with the sha256 of each of its locale texts (UTF-8, exactly as written here): a lead's
 * `consent.receipt` names the version, the locale and the hash, and
 * `GET /partner/v1/consent-texts/{version}` serves the exact text agreed to. A published text is never
 * edited: a new wording is a new version. test/unit/leads/consent-texts.test.ts recomputes every hash,
 * so an edited text fails the suite instead of silently breaking the receipts that name it.
 *
 * The commission disclosure shown beside the text has its own versions in the same shape (a text per
 * locale, each with its hash), so the receipt keeps which disclosure, in which locale, was shown; an
 * offer's own disclosure, with the introducer's nature and amount, is worded from the commission terms
 * (`src/domain/commission/disclosure.ts`).
 */
import { MARKETS } from "../reference/markets";

interface ConsentLocaleText {
  /** BCP 47, one of the markets' locales. */
  locale: string;
  /** Paragraphs separated by a blank line; what the hash covers. */
  text: string;
  /** Lower-case hex sha256 of `text` in UTF-8. */
  sha256: string;
}

interface ConsentTextVersion {
  version: string;
  published_at: string;
  texts: readonly ConsentLocaleText[];
}

const EN =
  "I confirm that I may act for this business and that the details given in this application are true.\n\n" +
  "I agree that the introducer who sent this application, and the funding providers it is sent to, may use these details, and the documents provided, to assess the business for funding and to contact me about it.\n\n" +
  "No credit search is made on me or the business unless I choose it separately below. A soft credit search, if I choose it, is not visible to other lenders and does not affect any credit score.\n\n" +
  "I can withdraw this consent at any time before the application is submitted, from the same link.";

const ES =
  "Confirmo que puedo actuar en nombre de esta empresa y que los datos de esta solicitud son ciertos.\n\n" +
  "Acepto que el intermediario que envió esta solicitud, y los proveedores de financiación a los que se envíe, usen estos datos y los documentos aportados para evaluar a la empresa y contactar conmigo al respecto.\n\n" +
  "No se hace ninguna consulta de crédito sobre mí ni sobre la empresa salvo que la elija aparte más abajo. Una consulta de crédito suave, si la elijo, no es visible para otros prestamistas y no afecta a ninguna puntuación.\n\n" +
  "Puedo retirar este consentimiento en cualquier momento antes de que se presente la solicitud, desde el mismo enlace.";

const NL =
  "Ik bevestig dat ik namens dit bedrijf mag optreden en dat de gegevens in deze aanvraag juist zijn.\n\n" +
  "Ik ga ermee akkoord dat de tussenpersoon die deze aanvraag stuurde, en de financiers naar wie ze gaat, deze gegevens en de aangeleverde documenten gebruiken om het bedrijf te beoordelen en mij daarover te benaderen.\n\n" +
  "Er wordt geen kredietcheck gedaan op mij of het bedrijf, tenzij ik daar hieronder apart voor kies. Een zachte kredietcheck, als ik die kies, is niet zichtbaar voor andere kredietverstrekkers en heeft geen invloed op een kredietscore.\n\n" +
  "Ik kan deze toestemming intrekken zolang de aanvraag niet is ingediend, via dezelfde link.";

const DA =
  "Jeg bekræfter, at jeg må handle på virksomhedens vegne, og at oplysningerne i denne ansøgning er korrekte.\n\n" +
  "Jeg accepterer, at den formidler, der sendte ansøgningen, og de finansieringsudbydere, den sendes til, bruger oplysningerne og dokumenterne til at vurdere virksomheden og kontakte mig om den.\n\n" +
  "Der foretages ingen kreditvurdering af mig eller virksomheden, medmindre jeg vælger det særskilt nedenfor. En blød kreditvurdering, hvis jeg vælger den, er ikke synlig for andre långivere og påvirker ingen kreditscore.\n\n" +
  "Jeg kan trække dette samtykke tilbage når som helst, før ansøgningen indsendes, via samme link.";

const SV =
  "Jag bekräftar att jag får företräda detta företag och att uppgifterna i ansökan är korrekta.\n\n" +
  "Jag godkänner att förmedlaren som skickade ansökan, och de finansiärer den skickas till, använder uppgifterna och dokumenten för att bedöma företaget och kontakta mig om det.\n\n" +
  "Ingen kreditupplysning görs på mig eller företaget om jag inte väljer det separat nedan. En mjuk kreditupplysning, om jag väljer den, syns inte för andra långivare och påverkar inget kreditbetyg.\n\n" +
  "Jag kan återkalla detta samtycke när som helst innan ansökan skickas in, via samma länk.";

const PL =
  "Potwierdzam, że mogę działać w imieniu tej firmy i że dane w tym wniosku są prawdziwe.\n\n" +
  "Zgadzam się, aby pośrednik, który wysłał ten wniosek, oraz dostawcy finansowania, do których trafi, wykorzystali te dane i przekazane dokumenty do oceny firmy i kontaktu ze mną w tej sprawie.\n\n" +
  "Żadne sprawdzenie kredytowe mnie ani firmy nie jest wykonywane, chyba że wybiorę je osobno poniżej. Miękkie sprawdzenie kredytowe, jeśli je wybiorę, nie jest widoczne dla innych kredytodawców i nie wpływa na ocenę kredytową.\n\n" +
  "Mogę wycofać tę zgodę w każdej chwili przed złożeniem wniosku, przez ten sam link.";

const FR =
  "Je confirme pouvoir agir pour cette entreprise et que les informations de cette demande sont exactes.\n\n" +
  "J'accepte que l'intermédiaire qui a envoyé cette demande, et les financeurs à qui elle est transmise, utilisent ces informations et les documents fournis pour évaluer l'entreprise et me contacter à ce sujet.\n\n" +
  "Aucune consultation de crédit n'est faite sur moi ou l'entreprise sauf si je la choisis séparément ci-dessous. Une consultation de crédit légère, si je la choisis, n'est pas visible des autres prêteurs et n'affecte aucun score.\n\n" +
  "Je peux retirer ce consentement à tout moment avant le dépôt de la demande, par le même lien.";

const BY_LANGUAGE: Record<string, string> = { en: EN, es: ES, nl: NL, da: DA, sv: SV, pl: PL, fr: FR };

/** Filled in from the hashes below; kept separate so the hash of each text is read beside its locale. */
const HASHES_2026_11: Record<string, string> = {
  "en-GB": "60b0dc298cde48eb30b10157260b49307dda97508c8c55f13aff175f00faa147",
  "en-US": "60b0dc298cde48eb30b10157260b49307dda97508c8c55f13aff175f00faa147",
  "en-CA": "60b0dc298cde48eb30b10157260b49307dda97508c8c55f13aff175f00faa147",
  "en-AU": "60b0dc298cde48eb30b10157260b49307dda97508c8c55f13aff175f00faa147",
  "en-IE": "60b0dc298cde48eb30b10157260b49307dda97508c8c55f13aff175f00faa147",
  "es-ES": "178d238ee9ddf4e1024f02bea1983463f8053ba702b037d90f8a6fa7450107c3",
  "nl-NL": "087fd8ed19b6bd3ce88f957d66abd61fb525af5409086daf4b9b91d6fdfcb9c1",
  "nl-BE": "087fd8ed19b6bd3ce88f957d66abd61fb525af5409086daf4b9b91d6fdfcb9c1",
  "da-DK": "2d30299565ef2a6b38fcc71b3f352196ee3c9858b14df4f61a5d83db5191333d",
  "sv-SE": "393b27893dfaeb9eec4d8ecd4834fbff5e64c123922c6a8c9566ed3bd50db1ba",
  "pl-PL": "78e6f466f7fddd1d2f1a2705549cc259c9b80e46364ab21c33cacc5946166a07",
  "fr-FR": "44dc9731e6470a449aa3e8630040216db26b802e34970f82c5b53da63d022bdf",
};

/** The market locales, each once: every version has a text for each. */
const marketLocales = () => MARKETS.map((m) => m.locale).filter((locale, i, all) => all.indexOf(locale) === i);

const localeTexts = (hashes: Record<string, string>): ConsentLocaleText[] => marketLocales().map((locale) => ({ locale, text: BY_LANGUAGE[locale.split("-")[0]!]!, sha256: hashes[locale]! }));

/** Every published version, oldest first; never edit or remove one. */
export const CONSENT_TEXTS: readonly ConsentTextVersion[] = [{ version: "2026-11", published_at: "2026-11-29T00:00:00Z", texts: localeTexts(HASHES_2026_11) }];

export const CONSENT_TEXT_VERSIONS = CONSENT_TEXTS.map((v) => v.version);
/** The version the application link and the portal show today. */
export const CURRENT_CONSENT_TEXT = CONSENT_TEXTS.at(-1)!;

export const consentTextVersion = (version: string) => CONSENT_TEXTS.find((v) => v.version === version) ?? null;

/** The version's text in a locale (a consent text's or a disclosure's); a locale it lacks falls back to en-GB (every version has it). */
export function consentTextIn(version: ConsentTextVersion, locale: string): ConsentLocaleText {
  const language = locale.split("-")[0];
  // A locale without its own text (fr-BE) takes its language's (fr-FR): the receipt names the one shown.
  return version.texts.find((t) => t.locale === locale) ?? version.texts.find((t) => t.locale.split("-")[0] === language) ?? version.texts.find((t) => t.locale === "en-GB")!;
}

/**
 * The introducer's commission disclosure (FCA CONC 4.5.3R): that the introducer may be paid by the
 * lender, how (its nature), and that the amount is given on request. Versioned like the consent texts,
 * with a text per locale of the consent texts and the sha256 of each, kept forever: the receipt records
 * the version, the locale and the hash of the one shown. `{name}` stands for the introducer's name (the
 * partner organisation's, as the page shows it); the hash covers the text with `{name}` in it, so it names
 * the wording every introducer shares. Every introducer shows this at consent, before any offer exists; the
 * nature and amount of an offer's commission come with the offer (`src/domain/commission/disclosure.ts`).
 */
const DISCLOSURE_BY_LANGUAGE: Record<string, string> = {
  en: "{name} may receive commission from the lender that provides the funding. Its nature: a percentage of the amount funded or a fixed fee, paid by the lender, not by you. You can ask {name} for the amount at any time, before you agree.",
  es: "{name} puede recibir una comisión del prestamista que aporte la financiación. Su naturaleza: un porcentaje del importe financiado o una cantidad fija, pagada por el prestamista, no por usted. Puede pedir a {name} el importe en cualquier momento, antes de aceptar.",
  nl: "{name} kan een commissie ontvangen van de kredietverstrekker die de financiering verstrekt. De aard ervan: een percentage van het gefinancierde bedrag of een vast bedrag, betaald door de kredietverstrekker, niet door u. U kunt {name} op elk moment, ook voordat u akkoord gaat, om het bedrag vragen.",
  da: "{name} kan modtage provision fra den långiver, der yder finansieringen. Dens art: en procentdel af det finansierede beløb eller et fast gebyr, betalt af långiveren, ikke af dig. Du kan til enhver tid, også før du accepterer, bede {name} om beløbet.",
  sv: "{name} kan få provision från den långivare som står för finansieringen. Dess art: en procentandel av det finansierade beloppet eller en fast avgift, som betalas av långivaren, inte av dig. Du kan när som helst, även innan du godkänner, fråga {name} om beloppet.",
  pl: "{name} może otrzymać prowizję od kredytodawcy, który zapewni finansowanie. Jej charakter: procent finansowanej kwoty lub stała opłata, płacona przez kredytodawcę, nie przez Ciebie. Wysokość prowizji możesz poznać w każdej chwili, także przed wyrażeniem zgody: wystarczy zapytać pośrednika ({name}).",
  fr: "{name} peut recevoir une commission du prêteur qui accorde le financement. Sa nature : un pourcentage du montant financé ou un montant fixe, payé par le prêteur, pas par vous. Vous pouvez demander le montant à {name} à tout moment, avant de donner votre accord.",
};

/** One hash per language: the market locales of a language share its text. */
const DISCLOSURE_HASHES_2026_11_D1: Record<string, string> = {
  en: "f4dd9f3e85ad902b393d760a6c959e33add52b66210b1503d28a59b1abde2b3c",
  es: "058e7e13b79a53af6bdaf0ac33bbff29618bb59ee4b2796179363865a9b0bda1",
  nl: "4d36d512c34316f3c249a8bb93a95c93f72a1b574eb34322144ad885f9766f4e",
  da: "6d93b24b0920114d2a47bd2b59ef01fc9b3f6ec792f3ec0ccb42e2f5d87e0a5b",
  sv: "b661fe1c2f99bcbcfe2b3a47595bce93f264615047c9261465bd737e56804180",
  pl: "5000acb5250bd6e25d0db1c8b3ae80db3ed0c1bd0d1cb3662d2239a1a4d6a3db",
  fr: "ec49ca82098f8b06659a451786272cc2f0db5f93d15ce6f22de5d1cb96d46ee2",
};

const disclosureTexts = (hashes: Record<string, string>): ConsentLocaleText[] =>
  marketLocales().map((locale) => {
    const language = locale.split("-")[0]!;
    return { locale, text: DISCLOSURE_BY_LANGUAGE[language]!, sha256: hashes[language]! };
  });

/** Every published disclosure version, oldest first; never edit or remove one. Its ids never collide with the consent texts' (`-d` and a number). */
export const COMMISSION_DISCLOSURES: readonly ConsentTextVersion[] = [{ version: "2026-11-d1", published_at: "2026-11-29T00:00:00Z", texts: disclosureTexts(DISCLOSURE_HASHES_2026_11_D1) }];

/** The disclosure the application link shows today. */
export const CURRENT_COMMISSION_DISCLOSURE = COMMISSION_DISCLOSURES.at(-1)!;

export const commissionDisclosureVersion = (version: string) => COMMISSION_DISCLOSURES.find((v) => v.version === version) ?? null;

/** A published version of either table, by its id (`GET /partner/v1/consent-texts/{version}` serves both: a receipt's `text_version` and its `disclosure_version`). */
export function publishedTextVersion(version: string) {
  const consent = consentTextVersion(version);
  if (consent) return { kind: "consent_text" as const, ...consent };
  const disclosure = commissionDisclosureVersion(version);
  return disclosure ? { kind: "commission_disclosure" as const, ...disclosure } : null;
}
