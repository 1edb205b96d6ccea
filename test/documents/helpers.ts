import { call } from "../helpers/api";

export interface Part {
  name: string;
  value: string | Uint8Array;
  filename?: string;
  type?: string;
}

/** A multipart body as a client builds it; a part with a filename is a file part. */
export function form(parts: Part[]) {
  const body = new FormData();
  for (const part of parts) {
    if (part.filename !== undefined || part.value instanceof Uint8Array) {
      body.append(part.name, new Blob([part.value], { type: part.type ?? "application/octet-stream" }), part.filename ?? "upload.bin");
    } else body.append(part.name, part.value);
  }
  return body;
}

export const upload = (key: string, leadId: string, parts: Part[], host?: string) =>
  call("POST", `/partner/v1/leads/${leadId}/documents`, { key, rawBody: form(parts), host });

/** Uploads one file as `document_type` and expects 201. */
export async function uploadDocument(key: string, leadId: string, documentType: string, file: Uint8Array, filename = "file.bin", host?: string) {
  const res = await upload(key, leadId, [
    { name: "document_type", value: documentType },
    { name: "file", value: file, filename },
  ], host);
  if (res.status !== 201) throw new Error(`upload: ${res.status} ${res.text}`);
  return res.body;
}
