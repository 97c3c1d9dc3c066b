// Minimal RFC 4180 CSV/TSV parser (quoted fields, CRLF or LF line ends). Returns objects keyed by the header.
/** Rows keyed by header name (typed loosely: every value is a string, missing cells are ""). */
export function parseCsv(text: string, sep = ","): Record<string, any>[] {
  const rows: string[][] = [];
  let row: string[] = [],
    field = "",
    i = 0,
    q = false;
  if (text.charCodeAt(0) === 0xfeff) i = 1;
  for (; i < text.length; i++) {
    const c = text[i];
    if (q) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else q = false;
      } else field += c;
    } else if (c === '"') q = true;
    else if (c === sep) {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      field = "";
      rows.push(row);
      row = [];
    } else field += c;
  }
  if (field !== "" || row.length) {
    row.push(field);
    rows.push(row);
  }
  const [head, ...body] = rows as [string[], ...string[][]];
  if (!head) return [];
  return body
    .filter((r) => r.length > 1 || r[0] !== "")
    .map((r) => Object.fromEntries(head.map((h, k) => [h, r[k] ?? ""])));
}
