import { randomToken } from "../../lib/crypto";

/** Same alphabet as lead references: no 0/O, 1/I/L. */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** `DL-7K3M9Q2A` (31^8 ≈ 8.5e11); stored upper-case, the primary key makes it unique. */
export const newDealReference = () => `DL-${randomToken(8, ALPHABET)}`;

/** Refs are case-insensitive: every lookup compares the upper-cased value. */
export const normaliseDealReference = (ref: string) => ref.trim().toUpperCase();
