import { randomToken } from "../../lib/crypto";

export const ACCESS_TOKEN_PREFIX = "rfs_at_";
export const ACCESS_TOKEN_LIFETIME_SECONDS = 3600;

export const newAccessToken = () => `${ACCESS_TOKEN_PREFIX}${randomToken(48)}`;

export const looksLikeAccessToken = (text: string) => /^rfs_at_[a-z0-9]{48}$/.test(text);
