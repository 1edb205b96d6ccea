/**
 * A lender's decline, as codes from the `decline-reasons` list. The lender writes
 * `reasons: [{code, detail?, shareable?}]`; the deprecated free-text `reason` is still taken and
 * becomes `other` with that text as its detail. A detail is the lender's and the operator's unless
 * the lender marks it shareable: the partner reads the code's label, never a provider's words.
 */
import { DECLINE_REASONS, DECLINE_REASON_VALUES, type DeclineReasonCode } from "../reference/values";
import { Refusal } from "../../lib/refusal";

export interface DeclineReason {
  code: DeclineReasonCode;
  detail: string | null;
  shareable: boolean;
}

export interface DeclineInput {
  reasons?: readonly { code: string; detail?: string; shareable?: boolean }[];
  reason?: string;
}

const LABELS = new Map<string, string>(DECLINE_REASONS.map((r) => [r.value, r.label]));
const declineReasonLabel = (code: string) => LABELS.get(code) ?? LABELS.get("other")!;
const isDeclineReason = (code: string): code is DeclineReasonCode => LABELS.has(code);

/**
 * The coded reasons of a decline. An unknown code is refused naming its place (`reasons.0.code`);
 * a report with neither `reasons` nor `reason` declines without one (the integrations that never
 * sent a reason keep working), so the list may be empty.
 */
export function declineReasonsOf(input: DeclineInput): DeclineReason[] {
  if (input.reasons !== undefined) {
    return input.reasons.map((r, i) => {
      if (!isDeclineReason(r.code)) {
        throw new Refusal("unknown_code", `reasons.${i}.code "${r.code}" is not a decline reason; one of: ${DECLINE_REASON_VALUES.join(", ")} (GET /partner/v1/enums/decline-reasons).`, {
          field: `reasons.${i}.code`,
        });
      }
      return { code: r.code, detail: r.detail ?? null, shareable: r.shareable ?? false };
    });
  }
  return input.reason !== undefined ? [{ code: "other", detail: input.reason, shareable: false }] : [];
}

/** What the partner may read of a decline: the code and its label, and a detail only when the lender marked it shareable. */
export const partnerReasonView = (r: DeclineReason) => ({ code: r.code, label: declineReasonLabel(r.code), detail: r.shareable ? r.detail : null });

/** What the lender (and the operator) reads back: everything it wrote, with the label. */
export const lenderReasonView = (r: DeclineReason) => ({ code: r.code, label: declineReasonLabel(r.code), detail: r.detail, shareable: r.shareable });
