/** Reading a posted form: one text value, or every value of a repeated field (checkboxes). */
export const textOf = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === "string" ? value : "";
};

export const textsOf = (form: FormData, name: string) => form.getAll(name).filter((v): v is string => typeof v === "string");

/** A textarea of one item per line (commas and spaces separate too), blanks dropped. */
export const linesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((line) => line.trim())
    .filter(Boolean);
