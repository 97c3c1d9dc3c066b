// Coordinates as people paste or type them on the point forms: "47.6062, -122.3321" in the latitude field (the
// longitude field left empty, or the other way round), a minus sign from a phone keyboard or a word processor
// ("−122.33", U+2212; also the en dash and the full-width hyphen), a degree sign and a hemisphere letter
// ("47.6062° N, 122.3321° W"). The API itself stays strict: this is for the pages' forms only.
import { DomainError } from "../domain/errors";

const MINUS = /[\u2212\u2012\u2013\u2014\ufe63\uff0d]/g;

/** One coordinate: a decimal number, with an optional degree sign and hemisphere letter (S and W negative). */
function oneNumber(raw: string, axis: "lat" | "lon"): number | null {
  const m = /^\s*([+-]?)\s*(\d+(?:\.\d*)?|\.\d+)\s*°?\s*([NSEWnsew]?)\s*$/.exec(raw.replace(MINUS, "-"));
  if (!m) return null;
  const hemi = m[3]!.toUpperCase();
  if (hemi && (axis === "lat" ? !"NS".includes(hemi) : !"EW".includes(hemi))) return null;
  if (hemi && m[1] === "-") return null; // "-47 S" says south twice: ambiguous, refused
  const v = Number(m[2]);
  return hemi === "S" || hemi === "W" || m[1] === "-" ? -v : v;
}

/** Both coordinates written in one field: "lat, lon", "lat lon" or "lat; lon". */
function splitPair(raw: string): [string, string] | null {
  const s = raw.replace(MINUS, "-").trim();
  const parts = s.includes(",") ? s.split(",") : s.includes(";") ? s.split(";") : s.split(/\s+(?=[+-]?\d|\.)/);
  return parts.length === 2 ? [parts[0]!, parts[1]!] : null;
}

const words =
  "Give a latitude and a longitude in decimal degrees, e.g. 47.6062 and -122.3321 (or paste “47.6062, -122.3321”).";

/** The point of a form's `lat` and `lon` fields, or bad-point in words for people. */
export function pointOfForm(latField: string, lonField: string): { lat: number; lon: number } {
  let la = latField.trim(),
    lo = lonField.trim();
  if (la && !lo) [la, lo] = splitPair(la) ?? [la, lo];
  else if (lo && !la) [la, lo] = splitPair(lo) ?? [la, lo];
  if (!la || !lo) throw new DomainError("bad-point", words);
  const lat = oneNumber(la, "lat"),
    lon = oneNumber(lo, "lon");
  if (lat === null || lon === null) throw new DomainError("bad-point", words);
  if (Math.abs(lat) > 90) throw new DomainError("bad-point", `The latitude must lie between -90 and 90; got ${lat}.`);
  if (Math.abs(lon) > 180)
    throw new DomainError("bad-point", `The longitude must lie between -180 and 180; got ${lon}.`);
  return { lat, lon };
}
