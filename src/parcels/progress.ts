// Progress of a parcel load (reading the input, copying into PostGIS): a cli-progress bar on standard error, plain
// lines every 2 s when it is not a terminal; none for small loads (2,000 rows or fewer) or when switched off.
import { SingleBar, Presets } from "cli-progress";

export function loadBar(total: number, what: string, unit: string, on = true): SingleBar | null {
  if (!on || total <= 2000) return null;
  const bar = new SingleBar(
    {
      stream: process.stderr,
      noTTYOutput: true,
      notTTYSchedule: 2000,
      format: `${what} {bar} {percentage}% | {value}/{total} ${unit}`,
    },
    Presets.shades_classic,
  );
  bar.start(total, 0);
  return bar;
}
