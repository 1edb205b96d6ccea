/**
 * Files the size a person really sends (issue 38: a 3 MB phone photo, a 5 MB scanned PDF), made in
 * the test rather than committed: a valid JPEG or PDF header and end, padded between them, which the
 * service's sniffing (src/domain/documents/file-type.ts) takes for what it says it is.
 */
const MB = 1024 * 1024;

function padded(size: number, head: Uint8Array, tail: Uint8Array, fill: number) {
  const file = Buffer.alloc(size, fill);
  file.set(head, 0);
  file.set(tail, size - tail.length);
  return file;
}

/** A JPEG of `mb` MB: SOI and a JFIF APP0 segment, then padding, then EOI. */
export function photoJpeg(name: string, mb: number) {
  const head = Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]);
  return { name, mimeType: "image/jpeg", buffer: padded(mb * MB, head, Uint8Array.from([0xff, 0xd9]), 0x00) };
}

/** A PDF of `mb` MB: the header and one object, then padding (spaces), then the trailer. */
export function scannedPdf(name: string, mb: number) {
  const text = (s: string) => new TextEncoder().encode(s);
  return { name, mimeType: "application/pdf", buffer: padded(mb * MB, text("%PDF-1.7\n1 0 obj <<>> endobj\n"), text("trailer <<>>\n%%EOF\n"), 0x20) };
}
