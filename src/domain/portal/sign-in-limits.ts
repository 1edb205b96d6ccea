/**
 * Sign-in attempts (answers to a sign-in challenge) are counted per client
 * address and per account (the member the presented passkey belongs to), in
 * fixed windows kept by the key-authority Durable Object (KeyAuthority). An address gets more
 * room than an account: several people may sign in from one office.
 */
export const SIGN_IN_WINDOW_SECONDS = 10 * 60;
export const SIGN_IN_ATTEMPTS_PER_ADDRESS = 20;
export const SIGN_IN_ATTEMPTS_PER_ACCOUNT = 10;

/** Sign-in challenges an address may ask for (each is a stored row until answered or pruned). */
export const SIGN_IN_CHALLENGES_PER_ADDRESS = 60;

export const addressBucket = (address: string) => `portal-sign-in:ip:${address}`;
export const accountBucket = (memberId: string) => `portal-sign-in:member:${memberId}`;
export const challengeBucket = (address: string) => `portal-sign-in-challenge:ip:${address}`;
