import { randomToken } from "../../lib/crypto";

/** No 0/O, 1/I/L: a reference is read aloud on the phone. */
const ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";

/** A short human reference, `RF-7K3M9Q` (31^6 ≈ 887 million); uniqueness is the database's unique index. */
export const newLeadReference = () => `RF-${randomToken(6, ALPHABET)}`;
