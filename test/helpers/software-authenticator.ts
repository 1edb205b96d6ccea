/**
 * A software passkey for workerd tests: an ES256 key pair in crypto.subtle that
 * answers WebAuthn registration and authentication options the way a platform
 * authenticator does ("none" attestation, resident key, user verified), so the
 * server's real verification (@simplewebauthn/server) runs end to end without a
 * browser. Only the CBOR the two answers need is encoded here.
 */

const encoder = new TextEncoder();

export const toBase64Url = (bytes: Uint8Array) => {
  let s = "";
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

export const fromBase64Url = (text: string) => {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4)), (ch) => ch.charCodeAt(0));
};

const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};

type Cbor = number | string | Uint8Array | Map<Cbor, Cbor>;

function head(major: number, length: number) {
  if (length < 24) return new Uint8Array([(major << 5) | length]);
  if (length < 256) return new Uint8Array([(major << 5) | 24, length]);
  return new Uint8Array([(major << 5) | 25, length >> 8, length & 0xff]);
}

function cbor(value: Cbor): Uint8Array {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = encoder.encode(value);
    return concat(head(3, bytes.length), bytes);
  }
  if (value instanceof Uint8Array) return concat(head(2, value.length), value);
  return concat(head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)]));
}

const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", data));

/** WebCrypto signs ECDSA as r||s; WebAuthn wants ASN.1 DER. */
function derSignature(raw: Uint8Array) {
  const integer = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let trimmed = bytes.slice(i);
    if (trimmed[0] & 0x80) trimmed = concat(new Uint8Array([0]), trimmed);
    return concat(new Uint8Array([0x02, trimmed.length]), trimmed);
  };
  const body = concat(integer(raw.slice(0, 32)), integer(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

const counterBytes = (n: number) => new Uint8Array([(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]);

export interface SoftwarePasskey {
  credentialId: string;
  /** The signature counter the next assertion carries (incremented on each). */
  counter: number;
  register(options: { challenge: string; rp: { id?: string } }, origin: string): Promise<object>;
  /** `userVerified: false` answers as an authenticator that checked presence only (UP without UV). */
  authenticate(options: { challenge: string; rpId?: string }, origin: string, overrides?: { counter?: number; userVerified?: boolean }): Promise<object>;
}

export async function softwarePasskey(): Promise<SoftwarePasskey> {
  const keys = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const jwk = (await crypto.subtle.exportKey("jwk", keys.publicKey)) as JsonWebKey;
  const rawId = crypto.getRandomValues(new Uint8Array(32));
  const credentialId = toBase64Url(rawId);
  const userHandle = { value: "" };
  const clientData = (type: string, challenge: string, origin: string) => encoder.encode(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  const passkey: SoftwarePasskey = {
    credentialId,
    counter: 1,
    async register(options, origin) {
      const rpIdHash = await sha256(encoder.encode(options.rp.id ?? new URL(origin).hostname));
      const cose = new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, fromBase64Url(jwk.x!)],
        [-3, fromBase64Url(jwk.y!)],
      ]);
      const attested = concat(new Uint8Array(16), new Uint8Array([0, rawId.length]), rawId, cbor(cose));
      // UP | UV | AT
      const authData = concat(rpIdHash, new Uint8Array([0x45]), counterBytes(0), attested);
      const attestationObject = cbor(new Map<Cbor, Cbor>([["fmt", "none"], ["attStmt", new Map()], ["authData", authData]]));
      userHandle.value = (options as { user?: { id?: string } }).user?.id ?? "";
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: { clientDataJSON: toBase64Url(clientData("webauthn.create", options.challenge, origin)), attestationObject: toBase64Url(attestationObject), transports: ["internal"] },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
    async authenticate(options, origin, overrides = {}) {
      const counter = overrides.counter ?? passkey.counter++;
      const rpIdHash = await sha256(encoder.encode(options.rpId ?? new URL(origin).hostname));
      const authenticatorData = concat(rpIdHash, new Uint8Array([overrides.userVerified === false ? 0x01 : 0x05]), counterBytes(counter));
      const clientDataJSON = clientData("webauthn.get", options.challenge, origin);
      const signed = concat(authenticatorData, await sha256(clientDataJSON));
      const signature = derSignature(new Uint8Array(await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, keys.privateKey, signed)));
      return {
        id: credentialId,
        rawId: credentialId,
        type: "public-key",
        response: {
          clientDataJSON: toBase64Url(clientDataJSON),
          authenticatorData: toBase64Url(authenticatorData),
          signature: toBase64Url(signature),
          userHandle: userHandle.value,
        },
        clientExtensionResults: {},
        authenticatorAttachment: "platform",
      };
    },
  };
  return passkey;
}
