// The string formats our schemas use (uri, date, date-time, email), registered with TypeBox once. Elysia used to
// register them as a side effect of being imported at start; it now loads only for the OpenAPI document.
import { FormatRegistry } from "@sinclair/typebox";

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
const validDate = (s: string) => {
  const m = DATE.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!));
  return d.getUTCFullYear() === +m[1]! && d.getUTCMonth() === +m[2]! - 1 && d.getUTCDate() === +m[3]!;
};
const formats: Record<string, (v: string) => boolean> = {
  uri: (v) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(v) && URL.canParse(v),
  date: validDate,
  "date-time": (v) => DATE_TIME.test(v) && validDate(v.slice(0, 10)) && !Number.isNaN(Date.parse(v)),
  email: (v) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(v),
};
for (const [name, check] of Object.entries(formats)) if (!FormatRegistry.Has(name)) FormatRegistry.Set(name, check);
