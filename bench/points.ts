// Random points inside covered states for the HTTP benches (resolve by point): seeded, so every run and every bench
// with the same seed asks for the same points; kept only where the boundary index resolves them.
import { Database } from "bun:sqlite";
import { BoundaryIndex } from "../src/directory/boundaries";
import { mulberry32 } from "../test/helpers/random";

export function resolvablePoints(data: string, n: number, seed: number): [number, number][] {
  const rnd = mulberry32(seed);
  const db = new Database(data, { readonly: true });
  const index = BoundaryIndex.fromDatabase(db);
  const states = db
    .query<{ min_x: number; min_y: number; max_x: number; max_y: number }, []>(
      "SELECT min_x, min_y, max_x, max_y FROM jurisdictions WHERE type='state' AND min_x IS NOT NULL",
    )
    .all()
    .filter((b) => b.max_x - b.min_x < 60); // skip boxes that wrap the antimeridian (AK, the Aleutians)
  const out: [number, number][] = [];
  while (out.length < n) {
    const b = states[Math.floor(rnd() * states.length)]!;
    const p: [number, number] = [b.min_x + rnd() * (b.max_x - b.min_x), b.min_y + rnd() * (b.max_y - b.min_y)];
    if (index.lookup(p[0], p[1])) out.push(p);
  }
  db.close();
  return out;
}

/** A wrk Lua script asking for the paths in a seeded random order. */
export const wrkPathsScript = (paths: string[]) =>
  `local paths = {\n${paths.map((p) => `"${p}"`).join(",\n")}\n}\nlocal n = #paths\nmath.randomseed(7)\nrequest = function() return wrk.format("GET", paths[math.random(n)]) end\n`;
