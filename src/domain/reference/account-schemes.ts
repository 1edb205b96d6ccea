/**
 * Which bank-account scheme a market's payout account follows (sort code, ABA, transit, BSB or IBAN).
 * Pure reference data: the hub checks the account against it (domain/hub/account-details.ts) and the
 * sandbox business picks it (domain/deals/sandbox-business.ts), so it sits below both.
 */

export type AccountScheme = "uk" | "us" | "ca" | "au" | "iban";

export function accountSchemeOf(country: string): AccountScheme {
  switch (country) {
    case "GB":
      return "uk";
    case "US":
      return "us";
    case "CA":
      return "ca";
    case "AU":
      return "au";
    default:
      return "iban";
  }
}
