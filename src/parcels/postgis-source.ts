// The parcel store in PostgreSQL/PostGIS as a ParcelSource (config parcels.source: postgres://…), loaded by
// load-parcels --into (postgis-store.ts). The same answers as the file (sqlite-source.ts + sql.ts): the same ranks,
// running sums, stats and date runs (copied from the same load) read by the same seeks on the indexes of
// postgis-store.ts, the same arithmetic on them (means, SQLite's date() of a mean Julian day, the median rule), the
// same orders (apn and dates in byte order). Point in parcel: the shapes whose box holds the point (GiST, &&),
// ST_Contains; shapes around and none holds it → record null; no shape near → the nearest parcel point (GiST).
// Every query runs under statement_timeout (the guard's timeout), with a connection timeout, in a read-only
// session: a slow or silent database fails the call (the guard answers 503), it never hangs a request. Each query
// is planned for its values (plan_cache_mode force_custom_plan): counties differ in size by four orders.
import { SQL } from "bun";
import { FIELD_INFO, type Bounds, type Field, type ParcelQuery } from "./fields";
import { middle } from "./date-runs";
import { hasBounds } from "./sql";
import { boxAround, nearestPoint } from "./near";
import { PG_SCHEMA } from "./postgis-store";
import type { Aggregate, CountyInfo, NearHit, ParcelRecord, ParcelSource } from "./source";
import { countyInfoOf, RECORD_SELECT } from "./stored-rows";

const P = `${PG_SCHEMA}.parcels`;
const COLS = RECORD_SELECT;

/** SQLite's julianday('YYYY-MM-DD'): days since noon UTC, 4714 BC (exact: the date at midnight is n + 0.5). */
const julianDay = (d: string) =>
  Date.UTC(Number(d.slice(0, 4)), Number(d.slice(5, 7)) - 1, Number(d.slice(8, 10))) / 86_400_000 + 2_440_587.5;
/** SQLite's date(jd) for a Julian day number: to whole milliseconds as SQLite rounds, then the day holding it. */
function julianDate(jd: number): string {
  const ms = Math.trunc(jd * 86_400_000 + 0.5);
  const day = Math.floor((ms + 43_200_000) / 86_400_000) - 2_440_588; // days since 1970-01-01
  return new Date(day * 86_400_000).toISOString().slice(0, 10);
}

/** SQLite's avg() (func.c): an INTEGER column's exact sum over the count; a REAL column's Kahan-Babuska-Neumaier
 *  sum (sumStep, avgFinalize) over the count, step for step, so the mean is the same double. */
function sqliteAvg(vals: ArrayLike<number>, integer: boolean): number {
  let s = 0,
    e = 0;
  for (let i = 0; i < vals.length; i++) {
    const v = vals[i]!;
    if (integer) {
      s += v; // exact below 2^53
      continue;
    }
    const t = s + v;
    e += Math.abs(s) > Math.abs(v) ? s - t + v : v - t + s;
    s = t;
  }
  return (integer || !Number.isFinite(e) ? s : s + e) / vals.length;
}

/** Same rules as sql.ts: every bound is on the field itself; or since/until only, with a numeric field. */
const onField = (f: Field, b: Bounds) =>
  f === "sale_date" ? b.min === undefined && b.max === undefined : b.since === undefined && b.until === undefined;
const datesOnly = (f: Field, b: Bounds) =>
  f !== "sale_date" && b.min === undefined && b.max === undefined && (b.since !== undefined || b.until !== undefined);

interface Edge {
  r: number;
  c: number;
  x: number;
}
type Arg = string | number;

/** The WHERE of a plan (sql.ts whereOf) with numbered parameters; bounds on year_built (an integer column) are
 *  rounded inward (x >= 1905.5 is x >= 1906) so its integer index answers. */
function whereOf(countyId: string, field: Field, b: Bounds): { sql: string; args: Arg[] } {
  const c = FIELD_INFO[field].column;
  const args: Arg[] = [countyId];
  const parts = [`county_id = $1`, `${c} IS NOT NULL`];
  const num = (v: number, up: boolean): string => {
    if (field !== "year_built") {
      args.push(v);
      return `$${args.length}::float8`;
    }
    const i = Math.max(-2147483648, Math.min(2147483647, up ? Math.ceil(v) : Math.floor(v)));
    args.push(i);
    return `$${args.length}::integer`;
  };
  if (b.min !== undefined) parts.push(`${c} >= ${num(b.min, true)}`);
  if (b.max !== undefined) parts.push(`${c} <= ${num(b.max, false)}`);
  if (b.since !== undefined) {
    args.push(b.since);
    parts.push(`sale_date >= $${args.length}::text`);
  }
  if (b.until !== undefined) {
    args.push(b.until);
    parts.push(`sale_date <= $${args.length}::text`);
  }
  return { sql: parts.join(" AND "), args };
}

interface PostgisOptions {
  /** statement_timeout and lock_timeout (ms); the connection timeout is this rounded up to whole seconds */
  timeoutMs: number;
  /** connections in the pool */
  max: number;
}

export class PostgisParcelSource implements ParcelSource {
  readonly sql: SQL;

  constructor(url: string, o: PostgisOptions) {
    this.sql = new SQL(url, {
      max: Math.max(1, o.max),
      idleTimeout: 60,
      connectionTimeout: Math.max(1, Math.ceil(o.timeoutMs / 1000)),
      connection: {
        statement_timeout: String(o.timeoutMs),
        lock_timeout: String(o.timeoutMs),
        default_transaction_read_only: "on",
        // a plan for the values asked (a county's size and a bound's reach decide the index); a generic plan
        // chose the date index and a sort for a page of a field within dates: 30 ms instead of 3 on 100,000 rows
        plan_cache_mode: "force_custom_plan",
        application_name: "directory parcels",
      },
    });
  }

  holdsNone(): boolean {
    return false; // a configured database that fails is a 503, never "no parcel data"
  }

  close(): Promise<void> {
    return this.sql.close();
  }

  private async all<T>(text: string, args: Arg[] = []): Promise<T[]> {
    return [...((await this.sql.unsafe(text, args)) as T[])];
  }
  private async one<T>(text: string, args: Arg[] = []): Promise<T | null> {
    return ((await this.sql.unsafe(text, args)) as T[])[0] ?? null;
  }

  async counties(): Promise<CountyInfo[]> {
    return (await this.all<Record<string, any>>(`SELECT * FROM ${PG_SCHEMA}.counties ORDER BY county_id`)).map(
      countyInfoOf,
    );
  }

  async county(countyId: string): Promise<CountyInfo | null> {
    const r = await this.one<Record<string, any>>(`SELECT * FROM ${PG_SCHEMA}.counties WHERE county_id = $1`, [
      countyId,
    ]);
    return r && countyInfoOf(r);
  }

  async rows(plan: ParcelQuery): Promise<ParcelRecord[]> {
    const w = whereOf(plan.countyId, plan.field, plan.bounds);
    const c = FIELD_INFO[plan.field].column;
    const dir = plan.op === "top" ? "DESC" : "ASC";
    const n = w.args.length;
    return this.all<ParcelRecord>(
      `SELECT ${COLS} FROM ${P} WHERE ${w.sql} ORDER BY ${c} ${dir}, apn ${dir} LIMIT $${n + 1} OFFSET $${n + 2}`,
      [...w.args, plan.limit, plan.offset],
    );
  }

  async aggregate(plan: ParcelQuery): Promise<Aggregate> {
    const { countyId: id, field: f, bounds: b } = plan;
    if (!hasBounds(b)) return this.unbounded(id, f, plan.op);
    const n = await this.countOf(id, f, b);
    if (plan.op === "count") return { n, value: n };
    if (plan.op === "avg") return { n, value: n ? await this.avgOf(id, f, b) : null };
    return { n, value: await this.medianOf(id, f, b, n) };
  }

  private async unbounded(countyId: string, field: Field, op: ParcelQuery["op"]): Promise<Aggregate> {
    const s = await this.one<{ n: number; total: number | null; median: string | null }>(
      `SELECT n, total, median FROM ${PG_SCHEMA}.county_stats WHERE county_id = $1 AND field = $2`,
      [countyId, field],
    );
    if (!s || s.n === 0) return { n: 0, value: op === "count" ? 0 : null };
    if (op === "count") return { n: s.n, value: s.n };
    const date = FIELD_INFO[field].kind === "date";
    if (op === "avg") return { n: s.n, value: date ? julianDate(s.total! / s.n) : s.total! / s.n };
    return { n: s.n, value: date ? s.median : Number(s.median) };
  }

  /** The first (lo) or last (hi) parcel within the bounds in (field, apn) order: its rank, running sum, value. */
  private async edge(countyId: string, f: Field, b: Bounds, side: "lo" | "hi"): Promise<Edge | null> {
    const w = whereOf(
      countyId,
      f,
      side === "lo"
        ? f === "sale_date"
          ? { since: b.since }
          : { min: b.min }
        : f === "sale_date"
          ? { until: b.until }
          : { max: b.max },
    );
    const dir = side === "lo" ? "ASC" : "DESC";
    const e = await this.one<{ r: number; c: number; x: number | string }>(
      `SELECT r_${f} AS r, c_${f} AS c, ${f} AS x FROM ${P} WHERE ${w.sql} ORDER BY ${f} ${dir}, apn ${dir} LIMIT 1`,
      w.args,
    );
    return e && { r: e.r, c: e.c, x: typeof e.x === "string" ? julianDay(e.x) : e.x };
  }
  private async span(countyId: string, f: Field, b: Bounds) {
    const [lo, hi] = await Promise.all([this.edge(countyId, f, b, "lo"), this.edge(countyId, f, b, "hi")]);
    if (!lo || !hi || lo.r > hi.r) return null;
    return { lo, hi, n: hi.r - lo.r + 1 };
  }

  /** since/until with a numeric field: the first/last parcel in (sale_date, apn) order, by its date rank. */
  private async dateEdge(countyId: string, f: Field, b: Bounds, side: "lo" | "hi"): Promise<Edge | null> {
    const dir = side === "lo" ? "ASC" : "DESC";
    const bound = side === "lo" ? b.since : b.until;
    const cond = bound === undefined ? "" : ` AND sale_date ${side === "lo" ? ">=" : "<="} $2::text`;
    return this.one<Edge>(
      `SELECT d_${f} AS r, e_${f} AS c, ${f} AS x FROM ${P} WHERE county_id = $1 AND sale_date IS NOT NULL AND ${f} IS NOT NULL${cond}
       ORDER BY sale_date ${dir}, apn ${dir} LIMIT 1`,
      bound === undefined ? [countyId] : [countyId, bound],
    );
  }
  private async dateSpan(countyId: string, f: Field, b: Bounds) {
    const [lo, hi] = await Promise.all([this.dateEdge(countyId, f, b, "lo"), this.dateEdge(countyId, f, b, "hi")]);
    if (!lo || !hi || lo.r > hi.r) return null;
    return { lo, hi, n: hi.r - lo.r + 1 };
  }

  private async countOf(countyId: string, field: Field, b: Bounds): Promise<number> {
    if (onField(field, b)) return (await this.span(countyId, field, b))?.n ?? 0;
    if (datesOnly(field, b)) return (await this.dateSpan(countyId, field, b))?.n ?? 0;
    const w = whereOf(countyId, field, b); // bounds on the field and on the dates: the range read
    const r = await this.one<{ n: string }>(
      `SELECT count(*) AS n FROM ${P} WHERE ${w.sql} AND sale_date IS NOT NULL`,
      w.args,
    );
    return Number(r!.n);
  }

  private async avgOf(countyId: string, field: Field, b: Bounds): Promise<number | string | null> {
    if (onField(field, b)) {
      const s = await this.span(countyId, field, b);
      if (!s) return null;
      const mean = (s.hi.c - s.lo.c + s.lo.x) / s.n;
      return field === "sale_date" ? julianDate(mean) : mean;
    }
    if (datesOnly(field, b)) {
      const s = await this.dateSpan(countyId, field, b);
      return s ? (s.hi.c - s.lo.c + s.lo.x) / s.n : null;
    }
    // bounds on the field and on the dates: the range read, summed as SQLite's avg() sums (sqliteAvg), in the order
    // SQLite reads it (its (sale_date, apn) index)
    const w = whereOf(countyId, field, b);
    const c = FIELD_INFO[field].column;
    const r = await this.one<{ v: number[] | null }>(
      `SELECT array_agg(${c} ORDER BY sale_date, apn) AS v FROM ${P} WHERE ${w.sql} AND sale_date IS NOT NULL`,
      w.args,
    );
    return r?.v?.length ? sqliteAvg(r.v, FIELD_INFO[field].kind === "integer") : null;
  }

  /** The median (sql.ts medianOf): the middle value; the mean of the two middle numbers for an even count, the
   *  earlier of the two middle dates. */
  private async medianOf(countyId: string, field: Field, b: Bounds, n: number): Promise<number | string | null> {
    if (n === 0) return null;
    if (datesOnly(field, b)) {
      const v = await this.medianByDateRuns(countyId, field, b, n);
      if (v !== undefined) return v;
    }
    const c = FIELD_INFO[field].column;
    let got: { v: number | string }[];
    const s = onField(field, b) ? await this.span(countyId, field, b) : null;
    if (s) {
      const t = s.lo.r + Math.floor((n - 1) / 2);
      got = await this.all(
        `SELECT ${c} AS v FROM ${P} WHERE county_id = $1 AND r_${field} IN ($2::integer, $3::integer) ORDER BY r_${field}`,
        [countyId, t, t + 1],
      );
    } else {
      const w = whereOf(countyId, field, b);
      got = await this.all(
        `SELECT ${c} AS v FROM ${P} WHERE ${w.sql} ORDER BY ${c}, apn LIMIT 2 OFFSET $${w.args.length + 1}`,
        [...w.args, Math.floor((n - 1) / 2)],
      );
    }
    const lo = got[0]!.v;
    if (n % 2 === 1 || typeof lo === "string") return lo;
    return ((lo as number) + (got[1]!.v as number)) / 2;
  }

  /** date-runs.ts medianByDateRuns over the copied runs. */
  private async medianByDateRuns(countyId: string, field: Field, b: Bounds, n: number) {
    const args: Arg[] = [countyId, field];
    let cond = "";
    if (b.since !== undefined) {
      args.push(b.since);
      cond += ` AND sale_date >= $${args.length}::text`;
    }
    if (b.until !== undefined) {
      args.push(b.until);
      cond += ` AND sale_date <= $${args.length}::text`;
    }
    const runs = await this.all<{ n: number; vals: Uint8Array }>(
      `SELECT n, vals FROM ${PG_SCHEMA}.date_runs WHERE county_id = $1 AND field = $2${cond}`,
      args,
    );
    let total = 0;
    for (const r of runs) total += r.n;
    if (total !== n) return undefined;
    return middle(
      runs.map(({ vals: v }) =>
        v.byteOffset % 8
          ? new Float64Array(v.slice().buffer)
          : new Float64Array(v.buffer, v.byteOffset, v.byteLength / 8),
      ),
    );
  }

  async parcel(countyId: string, apn: string): Promise<ParcelRecord | null> {
    return this.one<ParcelRecord>(`SELECT ${COLS} FROM ${P} WHERE county_id = $1 AND apn = $2`, [countyId, apn]);
  }

  async near(lon: number, lat: number, maxMeters: number): Promise<NearHit | null> {
    // 1. the shapes whose box holds the point (GiST), in parcel-number order: the first that holds the point
    const holding = await this.all<ParcelRecord & { inside: boolean }>(
      `SELECT ${COLS}, ST_Contains(shape, g) AS inside FROM ${P}, ST_SetSRID(ST_MakePoint($1::float8, $2::float8), 4326) AS g
       WHERE shape && g ORDER BY apn LIMIT 200`,
      [lon, lat],
    );
    for (const { inside, ...record } of holding) if (inside) return { record, distanceM: 0, inside: true };
    // 2. shapes are held around the point and none holds it: between parcels, never a nearest-point guess
    if (holding.length) return { record: null, distanceM: null, inside: false };
    const box = boxAround(lon, lat, maxMeters);
    const shaped = await this.one(
      `SELECT 1 FROM ${P} WHERE shape && ST_MakeEnvelope($1::float8, $2::float8, $3::float8, $4::float8, 4326) LIMIT 1`,
      box,
    );
    if (shaped) return { record: null, distanceM: null, inside: false };
    // 3. no shape held here: the nearest parcel point within maxMeters (the points of parcels without a shape)
    const cands = await this.all<ParcelRecord>(
      `SELECT ${COLS} FROM ${P} WHERE pt && ST_MakeEnvelope($1::float8, $2::float8, $3::float8, $4::float8, 4326)
       ORDER BY pt <-> ST_SetSRID(ST_MakePoint($5::float8, $6::float8), 4326) LIMIT 5000`,
      [...box, lon, lat],
    );
    return nearestPoint(cands, lon, lat, maxMeters);
  }
}
