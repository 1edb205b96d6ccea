/**
 * The client's signature of a deal's agreement: a typed full name and an
 * explicit consent, bound to the exact agreement file by its R2 etag.
 * `signature_verification` is `typed_name:<hex sha256 of "<name>\n<etag>">`,
 * so anyone holding the name and the file's etag can recompute it, and a
 * replaced agreement no longer matches. Pure apart from hashing.
 */
import { FORBIDDEN_TEXT_MESSAGE, hasForbiddenTextCharacter } from "../../lib/unicode";
import { sha256Hex } from "../../lib/crypto";
import type { FormProblem } from "./account-details";
import { MARKETS } from "../reference/markets";

export const SIGNATURE_SCHEME = "typed_name";
const NAME_MAX = 140;

export const normaliseSignerName = (name: string) => name.trim().replace(/\s+/g, " ");

export type SignatureCheck = { ok: true; name: string } | { ok: false; field: string; message: string; problem: FormProblem };

/**
 * The words a typed signature needs in a market. An agreement in every market we serve names its
 * signer by given name and family name (ES: nombre y apellidos; NL/BE: voornaam en achternaam; the
 * others alike), and a lender checks the typed name against that, so a single word ("Mary") is not
 * a full name there. A country outside the market table has no such rule.
 */
export function signerNameWordsOf(country: string | null | undefined): number {
  return MARKETS.some((m) => m.country === country) ? 2 : 1;
}

export function checkSignature(form: { full_name?: string; consent?: string }, country?: string | null): SignatureCheck {
  const name = normaliseSignerName(form.full_name ?? "");
  if (!name) return { ok: false, field: "full_name", message: "Full name is required to sign.", problem: "missing" };
  if (name.split(" ").length < signerNameWordsOf(country)) {
    return { ok: false, field: "full_name", message: "Type your full name, your first name and your last name, as the agreement names you.", problem: "invalid" };
  }
  if (hasForbiddenTextCharacter(form.full_name ?? "")) return { ok: false, field: "full_name", message: `Full name ${FORBIDDEN_TEXT_MESSAGE}`, problem: "invalid" };
  if (name.length > NAME_MAX) return { ok: false, field: "full_name", message: `Full name must be at most ${NAME_MAX} characters.`, problem: "invalid" };
  if (form.consent !== "yes") return { ok: false, field: "consent", message: "Tick the consent box to sign the agreement.", problem: "missing" };
  return { ok: true, name };
}

export async function signatureVerification(name: string, agreementEtag: string) {
  return `${SIGNATURE_SCHEME}:${await sha256Hex(`${normaliseSignerName(name)}\n${agreementEtag}`)}`;
}
