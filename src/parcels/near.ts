// THE rule of a parcel near a point where no shape holds it and none is held around it (both parcel sources): the
// parcel point nearest to the point within maxMeters (great-circle metres), ties by parcel number; and the box of
// degrees within which the candidates are asked for.
import type { ParcelRecord } from "./source";

const M_PER_DEG = 111_320;

/** The box around a point that holds every place within `maxMeters`: [west, south, east, north]. */
export function boxAround(lon: number, lat: number, maxMeters: number): [number, number, number, number] {
  const dLat = maxMeters / M_PER_DEG,
    dLon = maxMeters / (M_PER_DEG * Math.max(0.01, Math.cos((lat * Math.PI) / 180)));
  return [lon - dLon, lat - dLat, lon + dLon, lat + dLat];
}

export function nearestPoint(
  cands: ParcelRecord[],
  lon: number,
  lat: number,
  maxMeters: number,
): { record: ParcelRecord; distanceM: number; inside: false } | null {
  let best: { record: ParcelRecord; distanceM: number; inside: false } | null = null;
  for (const record of cands) {
    if (record.lat === null || record.lon === null) continue;
    const d = distanceM(lon, lat, record.lon, record.lat);
    if (d <= maxMeters && (!best || d < best.distanceM || (d === best.distanceM && record.apn < best.record.apn)))
      best = { record, distanceM: d, inside: false };
  }
  return best;
}

export function distanceM(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const r = 6371008.8,
    rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * r * Math.asin(Math.min(1, Math.sqrt(a)));
}
