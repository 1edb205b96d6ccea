import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "../app-env";
import { Refusal } from "../lib/refusal";

/** JSON bodies above this size are refused with 413 before they are parsed. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;
/** Multipart uploads (documents, agreements). */
export const UPLOAD_BODY_LIMIT_BYTES = 20 * 1024 * 1024;
export const TOKEN_BODY_LIMIT_BYTES = 8 * 1024;

export const limitBody = (maxSize: number) =>
  bodyLimit({
    maxSize,
    onError: () => {
      throw new Refusal("payload_too_large", `The request body exceeds ${maxSize} bytes.`);
    },
  });

const jsonLimit = limitBody(JSON_BODY_LIMIT_BYTES);
const uploadLimit = limitBody(UPLOAD_BODY_LIMIT_BYTES);

/** Uploads (multipart, or a raw PDF such as a lender's agreement) get the file limit, everything else the JSON limit. */
export const limitRequestBody = createMiddleware<AppEnv>(async (c, next) => {
  const type = (c.req.header("Content-Type") ?? "").toLowerCase();
  const upload = type.startsWith("multipart/form-data") || type.startsWith("application/pdf");
  return (upload ? uploadLimit : jsonLimit)(c, next);
});
