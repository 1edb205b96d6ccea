import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { generateEndpointSecret, signatureHeaders } from "../../../src/domain/webhooks/signature";
import { openSecret, sealSecret } from "../../../src/lib/secret-box";

const body = '{"id":"evt_1","event":"deal.created","data":{"reference":"RF-1","payload_mode":"reference"}}';

describe("signature scheme", () => {
  it("signs the raw body three ways, checked here with node:crypto", async () => {
    const secret = generateEndpointSecret();
    const headers = await signatureHeaders({ secrets: [secret], eventId: "evt_1", body, timestamp: 1795325423 });
    const hex = (key: string | Buffer, text: string) => createHmac("sha256", key).update(text).digest("hex");
    expect(headers["X-Service-Signature"]).toBe(`sha256=${hex(secret, body)}`);
    expect(headers["X-Service-Timestamp"]).toBe("1795325423");
    expect(headers["X-Service-Signature-256"]).toBe(`t=1795325423,v1=${hex(secret, `1795325423.${body}`)}`);
    const standardKey = Buffer.from(secret.slice("whsec_".length), "base64");
    expect(headers["webhook-signature"]).toBe(`v1,${createHmac("sha256", standardKey).update(`evt_1.1795325423.${body}`).digest("base64")}`);
    expect(headers["webhook-id"]).toBe("evt_1");
    expect(headers["webhook-timestamp"]).toBe("1795325423");
  });

  it("carries one v1 per active secret, current first, and sha256= with the current secret only", async () => {
    const [current, previous] = [generateEndpointSecret(), generateEndpointSecret()];
    const both = await signatureHeaders({ secrets: [current, previous], eventId: "evt_1", body, timestamp: 1 });
    const onlyCurrent = await signatureHeaders({ secrets: [current], eventId: "evt_1", body, timestamp: 1 });
    expect(both["X-Service-Signature"]).toBe(onlyCurrent["X-Service-Signature"]);
    expect(both["X-Service-Signature-256"].startsWith(onlyCurrent["X-Service-Signature-256"] + ",v1=")).toBe(true);
    expect(both["webhook-signature"].split(" ")).toHaveLength(2);
  });

  it("generates whsec_ secrets of 32 random bytes", () => {
    const a = generateEndpointSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(generateEndpointSecret());
  });
});

describe("secret box", () => {
  it("seals and opens with the same root secret and purpose only", async () => {
    const sealed = await sealSecret("root-1", "webhook-endpoint-secret", "whsec_abc");
    expect(sealed).not.toContain("whsec_abc");
    expect(await openSecret("root-1", "webhook-endpoint-secret", sealed)).toBe("whsec_abc");
    await expect(openSecret("root-2", "webhook-endpoint-secret", sealed)).rejects.toThrow();
    await expect(openSecret("root-1", "other-purpose", sealed)).rejects.toThrow();
    expect(await sealSecret("root-1", "webhook-endpoint-secret", "whsec_abc")).not.toBe(sealed);
  });
});
