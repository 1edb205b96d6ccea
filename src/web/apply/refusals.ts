/**
 * A refused step in the page's language. The kit words every refusal in English for the portal and the
 * hub (web/kit/messages.ts) and names what went wrong by kind (`required`, `bad_email`, `too_long`…);
 * here each kind has its sentence per language, said beside the field (the error summary puts the
 * field's label before it), so nothing is matched by its English words. A few fields say more than
 * their kind (`kind field`, the field's last part). A kind or rule a language has no sentence for keeps
 * the kit's English: a rare refusal (a document rule, a service's own sentence) rather than a wrong one.
 */
import type { MessageKind } from "../kit/messages";
import type { PageRefusal } from "../kit/refusal";
import { fill, type ApplyLocale } from "./messages";

interface RefusalWords {
  kinds: Partial<Record<MessageKind, string>>;
  /** `kind field` → the sentence, for a field that says more than its kind. */
  fields: Record<string, string>;
  /** A locked field a crafted post changed: `{name}` is the introducer. */
  locked: string;
  /** Above the form when several problems name no input. */
  several: string;
}

const es: RefusalWords = {
  kinds: {
    required: "Este dato es obligatorio.",
    required_for_submit: "Este dato es necesario antes de enviar la solicitud.",
    not_a_number: "Escriba un número, por ejemplo 50 000.",
    not_text: "Escríbalo como texto.",
    not_a_choice: "Elija una opción de la lista.",
    too_small: "Debe ser al menos {limit}.",
    too_big: "Debe ser como máximo {limit}.",
    too_long: "Escriba como máximo {limit} caracteres.",
    bad_email: "Escriba una dirección de correo como nombre@ejemplo.com.",
    bad_date: "Escriba la fecha como año-mes-día, por ejemplo 1975-03-12.",
    bad_format: "Revíselo: no tiene la forma esperada.",
    not_a_whole_number: "Escriba un número entero.",
    not_plain_text: "Escríbalo como texto normal: quite cualquier carácter invisible o de dirección del texto (como un espacio de ancho cero o una marca de derecha a izquierda), que a menudo se pega sin querer.",
    invalid: "Revise este dato.",
  },
  fields: {
    "invalid ownership_percent": "La participación de todas las personas suma más del 100 %.",
    "invalid significant_persons": "La participación de todas las personas suma más del 100 %.",
    "required full_name": "Escriba el nombre completo de la persona.",
    "bad_date date_of_birth": "Escriba la fecha de nacimiento como año-mes-día, por ejemplo 1975-03-12.",
    "bad_format date_of_birth": "Escriba la fecha de nacimiento como año-mes-día, por ejemplo 1975-03-12.",
    "invalid date_of_birth": "Escriba la fecha de nacimiento como año-mes-día, por ejemplo 1975-03-12.",
    "bad_format phone": "Escriba el teléfono con el prefijo del país, por ejemplo +34 910 000 000.",
    "not_a_number tib_months": "Escriba el número de meses, por ejemplo 36.",
    "not_a_number ownership_percent": "Escriba un porcentaje, por ejemplo 50.",
  },
  locked: "Lo completó {name} y no se puede cambiar aquí; pídale que lo corrija si no es correcto.",
  several: "Hay {n} datos que revisar: vea los mensajes junto a cada uno.",
};

const nl: RefusalWords = {
  kinds: {
    required: "Dit is verplicht.",
    required_for_submit: "Dit is nodig voordat u de aanvraag kunt versturen.",
    not_a_number: "Vul een getal in, bijvoorbeeld 50 000.",
    not_text: "Vul dit in als tekst.",
    not_a_choice: "Kies een optie uit de lijst.",
    too_small: "Dit moet minstens {limit} zijn.",
    too_big: "Dit mag hoogstens {limit} zijn.",
    too_long: "Gebruik hoogstens {limit} tekens.",
    bad_email: "Vul een e-mailadres in zoals naam@voorbeeld.nl.",
    bad_date: "Vul de datum in als jaar-maand-dag, bijvoorbeeld 1975-03-12.",
    bad_format: "Controleer dit: het heeft niet de verwachte vorm.",
    not_a_whole_number: "Vul een heel getal in.",
    not_plain_text: "Schrijf dit als gewone tekst: verwijder onzichtbare tekens of tekens voor de schrijfrichting (zoals een spatie zonder breedte of een rechts-naar-links-markering), die vaak per ongeluk worden meegeplakt.",
    invalid: "Controleer dit gegeven.",
  },
  fields: {
    "invalid ownership_percent": "Het aandeel van alle personen samen is meer dan 100%.",
    "invalid significant_persons": "Het aandeel van alle personen samen is meer dan 100%.",
    "required full_name": "Vul de volledige naam van de persoon in.",
    "bad_date date_of_birth": "Vul de geboortedatum in als jaar-maand-dag, bijvoorbeeld 1975-03-12.",
    "bad_format date_of_birth": "Vul de geboortedatum in als jaar-maand-dag, bijvoorbeeld 1975-03-12.",
    "invalid date_of_birth": "Vul de geboortedatum in als jaar-maand-dag, bijvoorbeeld 1975-03-12.",
    "bad_format phone": "Vul het telefoonnummer in met landcode, bijvoorbeeld +31 20 000 0000.",
    "not_a_number tib_months": "Vul het aantal maanden in, bijvoorbeeld 36.",
    "not_a_number ownership_percent": "Vul een percentage in, bijvoorbeeld 50.",
  },
  locked: "{name} heeft dit ingevuld en het kan hier niet worden gewijzigd; vraag het hun als het niet klopt.",
  several: "{n} gegevens moeten worden gecontroleerd: zie de meldingen ernaast.",
};

const da: RefusalWords = {
  kinds: {
    required: "Dette skal udfyldes.",
    required_for_submit: "Dette skal udfyldes, før du kan sende ansøgningen.",
    not_a_number: "Skriv et tal, for eksempel 50 000.",
    not_text: "Skriv det som tekst.",
    not_a_choice: "Vælg en mulighed på listen.",
    too_small: "Det skal være mindst {limit}.",
    too_big: "Det må højst være {limit}.",
    too_long: "Brug højst {limit} tegn.",
    bad_email: "Skriv en e-mailadresse som navn@eksempel.dk.",
    bad_date: "Skriv datoen som år-måned-dag, for eksempel 1975-03-12.",
    bad_format: "Tjek det: det har ikke den forventede form.",
    not_a_whole_number: "Skriv et helt tal.",
    not_plain_text: "Skriv det som almindelig tekst: fjern usynlige tegn og tegn for skriveretning (som et mellemrum uden bredde eller et højre-til-venstre-mærke), der ofte kommer med ved en fejl, når man indsætter tekst.",
    invalid: "Tjek denne oplysning.",
  },
  fields: {
    "invalid ownership_percent": "Alle personers ejerandele giver tilsammen mere end 100 %.",
    "invalid significant_persons": "Alle personers ejerandele giver tilsammen mere end 100 %.",
    "required full_name": "Skriv personens fulde navn.",
    "bad_date date_of_birth": "Skriv fødselsdatoen som år-måned-dag, for eksempel 1975-03-12.",
    "bad_format date_of_birth": "Skriv fødselsdatoen som år-måned-dag, for eksempel 1975-03-12.",
    "invalid date_of_birth": "Skriv fødselsdatoen som år-måned-dag, for eksempel 1975-03-12.",
    "bad_format phone": "Skriv telefonnummeret med landekode, for eksempel +45 30 00 00 00.",
    "not_a_number tib_months": "Skriv antallet af måneder, for eksempel 36.",
    "not_a_number ownership_percent": "Skriv en procentdel, for eksempel 50.",
  },
  locked: "{name} har udfyldt dette, og det kan ikke ændres her; spørg dem, hvis det er forkert.",
  several: "{n} oplysninger skal tjekkes: se beskederne ved dem.",
};

const sv: RefusalWords = {
  kinds: {
    required: "Det här måste fyllas i.",
    required_for_submit: "Det här behövs innan du kan skicka ansökan.",
    not_a_number: "Skriv ett tal, till exempel 50 000.",
    not_text: "Skriv det som text.",
    not_a_choice: "Välj ett alternativ i listan.",
    too_small: "Det måste vara minst {limit}.",
    too_big: "Det får vara högst {limit}.",
    too_long: "Använd högst {limit} tecken.",
    bad_email: "Skriv en e-postadress som namn@exempel.se.",
    bad_date: "Skriv datumet som år-månad-dag, till exempel 1975-03-12.",
    bad_format: "Kontrollera det: det har inte den väntade formen.",
    not_a_whole_number: "Skriv ett heltal.",
    not_plain_text: "Skriv det som vanlig text: ta bort osynliga tecken och tecken för skriftriktning (som ett mellanslag utan bredd eller ett höger-till-vänster-märke), som ofta följer med av misstag när man klistrar in.",
    invalid: "Kontrollera den här uppgiften.",
  },
  fields: {
    "invalid ownership_percent": "Alla personers ägarandelar blir tillsammans mer än 100 %.",
    "invalid significant_persons": "Alla personers ägarandelar blir tillsammans mer än 100 %.",
    "required full_name": "Skriv personens fullständiga namn.",
    "bad_date date_of_birth": "Skriv födelsedatumet som år-månad-dag, till exempel 1975-03-12.",
    "bad_format date_of_birth": "Skriv födelsedatumet som år-månad-dag, till exempel 1975-03-12.",
    "invalid date_of_birth": "Skriv födelsedatumet som år-månad-dag, till exempel 1975-03-12.",
    "bad_format phone": "Skriv telefonnumret med landsnummer, till exempel +46 8 000 000 00.",
    "not_a_number tib_months": "Skriv antalet månader, till exempel 36.",
    "not_a_number ownership_percent": "Skriv en procentandel, till exempel 50.",
  },
  locked: "{name} har fyllt i detta och det kan inte ändras här; fråga dem om det är fel.",
  several: "{n} uppgifter behöver kontrolleras: se meddelandena vid dem.",
};

const pl: RefusalWords = {
  kinds: {
    required: "To pole jest wymagane.",
    required_for_submit: "To jest potrzebne przed wysłaniem wniosku.",
    not_a_number: "Wpisz liczbę, na przykład 50 000.",
    not_text: "Wpisz to jako tekst.",
    not_a_choice: "Wybierz pozycję z listy.",
    too_small: "Musi wynosić co najmniej {limit}.",
    too_big: "Może wynosić najwyżej {limit}.",
    too_long: "Użyj najwyżej {limit} znaków.",
    bad_email: "Wpisz adres e-mail, na przykład imie@przyklad.pl.",
    bad_date: "Wpisz datę jako rok-miesiąc-dzień, na przykład 1975-03-12.",
    bad_format: "Sprawdź to: nie ma oczekiwanej postaci.",
    not_a_whole_number: "Wpisz liczbę całkowitą.",
    not_plain_text: "Wpisz to jako zwykły tekst: usuń niewidoczne znaki i znaki kierunku tekstu (na przykład spację o zerowej szerokości lub znacznik pisania od prawej do lewej), często wklejane przypadkiem.",
    invalid: "Sprawdź tę informację.",
  },
  fields: {
    "invalid ownership_percent": "Udziały wszystkich osób razem przekraczają 100%.",
    "invalid significant_persons": "Udziały wszystkich osób razem przekraczają 100%.",
    "required full_name": "Wpisz imię i nazwisko osoby.",
    "bad_date date_of_birth": "Wpisz datę urodzenia jako rok-miesiąc-dzień, na przykład 1975-03-12.",
    "bad_format date_of_birth": "Wpisz datę urodzenia jako rok-miesiąc-dzień, na przykład 1975-03-12.",
    "invalid date_of_birth": "Wpisz datę urodzenia jako rok-miesiąc-dzień, na przykład 1975-03-12.",
    "bad_format phone": "Wpisz numer telefonu z numerem kierunkowym kraju, na przykład +48 22 000 00 00.",
    "not_a_number tib_months": "Wpisz liczbę miesięcy, na przykład 36.",
    "not_a_number ownership_percent": "Wpisz procent, na przykład 50.",
  },
  locked: "To pole wypełnił pośrednik ({name}) i nie można go tu zmienić; jeśli jest błędne, poproś go o poprawkę.",
  several: "Do sprawdzenia: {n}. Zobacz komunikaty przy polach.",
};

const fr: RefusalWords = {
  kinds: {
    required: "Ce champ est obligatoire.",
    required_for_submit: "Cette information est nécessaire avant l'envoi de la demande.",
    not_a_number: "Saisissez un nombre, par exemple 50 000.",
    not_text: "Saisissez-le sous forme de texte.",
    not_a_choice: "Choisissez une option dans la liste.",
    too_small: "La valeur doit être d'au moins {limit}.",
    too_big: "La valeur doit être d'au plus {limit}.",
    too_long: "Utilisez au plus {limit} caractères.",
    bad_email: "Saisissez une adresse e-mail comme nom@exemple.fr.",
    bad_date: "Saisissez la date sous la forme année-mois-jour, par exemple 1975-03-12.",
    bad_format: "Vérifiez-le : il n'a pas la forme attendue.",
    not_a_whole_number: "Saisissez un nombre entier.",
    not_plain_text: "Saisissez-le en texte simple : retirez tout caractère invisible ou de sens d'écriture (comme une espace sans largeur ou une marque droite-à-gauche), souvent collé par accident.",
    invalid: "Vérifiez cette information.",
  },
  fields: {
    "invalid ownership_percent": "Les parts de toutes les personnes dépassent 100 % au total.",
    "invalid significant_persons": "Les parts de toutes les personnes dépassent 100 % au total.",
    "required full_name": "Saisissez le nom complet de la personne.",
    "bad_date date_of_birth": "Saisissez la date de naissance sous la forme année-mois-jour, par exemple 1975-03-12.",
    "bad_format date_of_birth": "Saisissez la date de naissance sous la forme année-mois-jour, par exemple 1975-03-12.",
    "invalid date_of_birth": "Saisissez la date de naissance sous la forme année-mois-jour, par exemple 1975-03-12.",
    "bad_format phone": "Saisissez le téléphone avec l'indicatif du pays, par exemple +33 1 00 00 00 00.",
    "not_a_number tib_months": "Saisissez le nombre de mois, par exemple 36.",
    "not_a_number ownership_percent": "Saisissez un pourcentage, par exemple 50.",
  },
  locked: "{name} a rempli ce champ et il ne peut pas être modifié ici ; demandez-lui de le corriger s'il est faux.",
  several: "{n} informations sont à vérifier : voyez les messages à côté.",
};

/** English pages keep the kit's own words, which the portal and the hub say too. */
const BY_LANGUAGE: Record<string, RefusalWords> = { es, nl, da, sv, pl, fr };

/** `significant_persons.0.full_name` → `full_name`: the part the table's field sentences are keyed by. */
const lastPart = (field: string | null | undefined) => (field ?? "").split(".").filter((p) => !/^\d+$/.test(p)).at(-1) ?? "";

/**
 * The refusal with each problem worded in the page's language, by its kind and field; `locked` names the
 * fields the partner locked (a refusal beside one of them is the locked one). English pages: as it came.
 */
export function refusalInPageWords(refusal: PageRefusal, l: ApplyLocale, locked: { fields: readonly string[]; by: string }): PageRefusal {
  const words = BY_LANGUAGE[l.locale.split("-")[0]!];
  if (!words) return refusal;
  const wordOf = (p: PageRefusal["problems"][number]) => {
    if (!p.kind && p.field && locked.fields.includes(p.field) && refusal.code === "invalid_value") return fill(words.locked, { name: locked.by });
    if (!p.kind) return p.message;
    const sentence = words.fields[`${p.kind} ${lastPart(p.field)}`] ?? words.kinds[p.kind];
    return sentence ? fill(sentence, { limit: p.limit ?? "" }) : p.message;
  };
  const problems = refusal.problems.map((p) => ({ ...p, message: wordOf(p) }));
  const message = problems.length > 1 ? fill(words.several, { n: problems.length }) : (problems[0]?.message ?? refusal.message);
  return { ...refusal, problems, message };
}
