/** How each file kind is named to a person, and the file name endings a file picker may offer for it. Pure. */
import type { FileKind } from "./file-type";

export const FILE_KIND_NAMES: Record<FileKind, { label: string; extensions: readonly string[] }> = {
  pdf: { label: "PDF", extensions: [".pdf"] },
  png: { label: "PNG image", extensions: [".png"] },
  jpeg: { label: "JPEG image", extensions: [".jpg", ".jpeg"] },
  xlsx: { label: "Excel workbook (.xlsx)", extensions: [".xlsx"] },
  ofx: { label: "OFX bank export", extensions: [".ofx"] },
  csv: { label: "CSV", extensions: [".csv"] },
};
