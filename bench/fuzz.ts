// bench/fuzz.ts: random, malformed, boundary and injection-like requests over every endpoint and page of a real
// `serve` process on loopback (nothing leaves the machine: the outside services point at a closed loopback port).
// Bounded in count and time. Prints the count of 5xx answers, of /v1 errors that are not problem documents, of
// /v1 answers invalid against the served OpenAPI document (Ajv, JSON Schema 2020-12), and the server's RSS at the
// start, every tenth of the run and at the end.
//   bun bench/fuzz.ts [data file] [--requests 100000] [--seconds 600] [--concurrency 16] [--seed 1]
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { unlimitedEnv } from "./load";

const root = join(import.meta.dir, "..");
const args = process.argv.slice(2);
const opt = (name: string, dflt: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args.splice(i, 2)[1]! : dflt;
};
const total = Number(opt("--requests", "100000"));
const seconds = Number(opt("--seconds", "600"));
const concurrency = Number(opt("--concurrency", "16"));
const firstSeed = Number(opt("--seed", "1"));
let seed = firstSeed;
const data = args[0] ?? join(root, "directory.sqlite");
if (!existsSync(data)) {
  console.error(`missing data file: ${data}`);
  process.exit(2);
}

const rnd = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(a: readonly T[]): T => a[Math.floor(rnd() * a.length)]!;
const int = (n: number) => Math.floor(rnd() * n);

// ---- values: plausible, boundary, malformed and injection-like
const JUNK = [
  "",
  " ",
  "0",
  "-0",
  "NaN",
  "Infinity",
  "1e309",
  "-91",
  "181",
  "90.0000001",
  "' OR 1=1 --",
  '"; DROP TABLE jurisdictions; --',
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "%00",
  "%ff%fe",
  "\u0000",
  "𝕺𝖜𝖓𝖊𝖗",
  "оwner",
  "county:",
  "county:99999",
  "place:",
  "state:27",
  "x".repeat(300),
  "ä".repeat(100),
  "{{7*7}}",
  "${jndi:ldap://127.0.0.1/a}",
];
const word = () => pick(["king", "hennepin", "main st", "minneapolis", "cook", "parcel", "zoning", "tax", "a", "zz"]);
const randomText = () =>
  rnd() < 0.3 ? pick(JUNK) : Array.from({ length: 1 + int(4) }, word).join(" ") + (rnd() < 0.3 ? ` ${int(1e6)}` : "");
// a point: junk (15 %), anywhere on the globe and past its edges (35 %), or a plausible point in the lower 48
// states' box (50 %: new chains of governments, screening readings and resources, which fill the answer caches)
const lat = () =>
  rnd() < 0.15 ? pick(JUNK) : rnd() < 0.6 ? (24.5 + rnd() * 25).toFixed(5) : (rnd() * 200 - 100).toFixed(int(9));
const lon = () =>
  rnd() < 0.15 ? pick(JUNK) : rnd() < 0.6 ? (-124.7 + rnd() * 57.7).toFixed(5) : (rnd() * 380 - 190).toFixed(int(9));
const id = () =>
  rnd() < 0.25
    ? pick(JUNK)
    : pick(["state:", "county:", "place:", "cousub:"]) + String(int(10 ** (2 + int(9)))).padStart(int(11), "0");
const topic = () => (rnd() < 0.2 ? pick(JUNK) : pick(["zoning", "assessor", "tax_collector", "floodplain", "nope"]));
const q = (o: Record<string, string>) =>
  Object.entries(o)
    .filter(() => rnd() < 0.85)
    .map(([k, v]) => `${rnd() < 0.05 ? pick(JUNK) : k}=${encodeURIComponent(v)}`)
    .join("&");

function target(): string {
  switch (int(14)) {
    case 0:
      return "/v1/topics";
    case 1:
      return `/v1/guides/${encodeURIComponent(topic())}`;
    case 2:
      return `/v1/jurisdictions/resolve?${q({ lat: lat(), lon: lon() })}`;
    case 3:
      return `/v1/jurisdictions/resolve?${q({ place: randomText(), state: pick(["MN", "WA", "XX", ""]) })}`;
    case 4:
      return `/v1/jurisdictions/resolve?${q({ jurisdiction_id: id() })}`;
    case 5:
      return `/v1/jurisdictions/resolve?${q({ address: randomText() })}`;
    case 6:
      return `/v1/places/${encodeURIComponent(id())}?${q({ limit: String(int(200) - 20) })}`;
    case 7:
      return `/v1/resources?${q({ jurisdiction_id: id(), topic: topic(), limit: String(int(200) - 20), cursor: randomText() })}`;
    case 8:
      return `/v1/search?${q({ q: randomText(), state: pick(["MN", "wa", "ZZ", ""]), limit: String(int(100)) })}`;
    case 9:
      return `/v1/screening?${q({ lat: lat(), lon: lon() })}`;
    case 10:
      return `/v1/county-data?${q({ q: randomText(), jurisdiction_id: id(), op: pick(["top", "count", "sum", "avg"]), field: pick(["acres", "owner", "value"]), since: pick(["2015-13-01", "2015-01-01", "x"]) })}`;
    case 11:
      return (
        pick(["/", "/topics", "/find", "/search", "/screening", "/about"]) +
        `?${q({ q: randomText(), lat: lat(), lon: lon() })}`
      );
    case 12:
      return `/places/${encodeURIComponent(id())}`;
    default:
      return pick([
        "/v1",
        "/v1/",
        "/v1/nope",
        "//x",
        "/%2e%2e/v1",
        "/v1/openapi.json",
        "/robots.txt",
        "/x".repeat(1 + int(40)),
      ]);
  }
}

// ---- the server
const port = 20000 + int(20000);
// every outside service on a closed loopback port (unlimitedEnv): outside lookups fail at once, on loopback
const env = unlimitedEnv(port, {
  DIRECTORY_LIMITS__LOOKUP__PER_MINUTE: "1000000000",
  DIRECTORY_LIMITS__LOOKUP__PER_DAY: "1000000000",
  // allocator settings to try (e.g. MIMALLOC_PURGE_DELAY=0) are passed to the server
  ...Object.fromEntries(
    Object.entries(process.env).filter(([k]) => k.startsWith("MIMALLOC_") || k.startsWith("BUN_JSC_")),
  ),
});
const server = Bun.spawn(
  [
    process.execPath,
    ...(process.env.FUZZ_SMOL ? ["--smol"] : []),
    join(root, "src/cli/main.ts"),
    "serve",
    "--data",
    data,
    "--port",
    String(port),
  ],
  { cwd: root, env, stdout: "ignore", stderr: "ignore" },
);
const base = `http://127.0.0.1:${port}`;
const rss = () => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, "utf8"));
  return m ? Math.round(Number(m[1]) / 1024) : NaN;
};
for (let i = 0; i < 200; i++) {
  try {
    if ((await fetch(`${base}/v1/topics`)).ok) break;
  } catch {}
  await Bun.sleep(100);
}

// ---- the served OpenAPI document: one validator per (path template, status, content type)
const doc = (await (await fetch(`${base}/v1/openapi.json`)).json()) as any;
const ajv = new Ajv2020({ strict: false, allErrors: false, validateFormats: true });
addFormats(ajv);
ajv.addSchema(doc, "openapi");
const templates = Object.keys(doc.paths).map((p) => ({
  p,
  re: new RegExp(`^/v1${p.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));
const validators = new Map<string, ((x: unknown) => boolean) | null>();
const esc = (s: string) => s.replace(/~/g, "~0").replace(/\//g, "~1");
function validatorFor(path: string, status: number, ct: string) {
  const t = templates.find((x) => x.re.test(path));
  if (!t) return null;
  const key = `${t.p}|${status}|${ct}`;
  if (!validators.has(key)) {
    const resp = doc.paths[t.p]?.get?.responses?.[String(status)] ?? doc.paths[t.p]?.get?.responses?.default;
    const schema = resp?.content?.[ct]?.schema;
    validators.set(
      key,
      schema
        ? ajv.compile({
            $ref: `openapi#/paths/${esc(t.p)}/get/responses/${resp === doc.paths[t.p]?.get?.responses?.default ? "default" : status}/content/${esc(ct)}/schema`,
          })
        : null,
    );
  }
  return validators.get(key) ?? null;
}

// ---- the run
const counts = { sent: 0, s5xx: 0, nonProblem: 0, invalid: 0, undocumented: 0, failedToConnect: 0, validated: 0 };
const byStatus = new Map<number, number>();
const examples: string[] = [];
const note = (what: string, t: string, status: number) => {
  if (examples.length < 12) examples.push(`${what}: ${status} ${t.slice(0, 140)}`);
};
const rssLog: string[] = [`start ${rss()} MB`];
const every = Math.max(1, Math.floor(total / 10));
const deadline = performance.now() + seconds * 1000;
async function one() {
  const t = target();
  let res: Response;
  try {
    res = await fetch(base + t, { redirect: "manual" });
  } catch {
    counts.failedToConnect++;
    return;
  }
  const body = await res.text();
  byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
  const ct = (res.headers.get("content-type") ?? "").split(";")[0]!.trim();
  const path = t.split("?")[0]!;
  if (res.status >= 500 && res.status !== 503) {
    counts.s5xx++;
    note("5xx", t, res.status);
  }
  if (!path.startsWith("/v1")) return;
  if (res.status >= 400 && ct !== "application/problem+json") {
    counts.nonProblem++;
    note("non-problem error", t, res.status);
  }
  if (res.status === 304 || !body) return;
  const v = validatorFor(path, res.status, ct);
  if (!v) {
    if (templates.some((x) => x.re.test(path)) && res.status !== 404) {
      counts.undocumented++;
      note("status or type not in the document", t, res.status);
    }
    return;
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    counts.invalid++;
    note("not JSON", t, res.status);
    return;
  }
  counts.validated++;
  if (!v(json)) {
    counts.invalid++;
    note(`invalid (${ajv.errorsText((v as any).errors).slice(0, 120)})`, t, res.status);
  }
}
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (counts.sent < total && performance.now() < deadline) {
      counts.sent++;
      if (counts.sent % every === 0) rssLog.push(`${counts.sent} ${rss()} MB`);
      await one();
    }
  }),
);
rssLog.push(`end ${rss()} MB`);
const secs = (performance.now() - started) / 1000;
server.kill("SIGTERM");
await server.exited;
console.log(
  `fuzz: ${counts.sent} requests in ${secs.toFixed(0)} s (${(counts.sent / secs).toFixed(0)}/s), seed ${firstSeed}`,
);
console.log(`  5xx (not 503): ${counts.s5xx}`);
console.log(`  /v1 errors that are not problem documents: ${counts.nonProblem}`);
console.log(`  /v1 answers invalid against the served OpenAPI document: ${counts.invalid}`);
console.log(`  /v1 answers whose status or type the document does not list: ${counts.undocumented}`);
console.log(`  connection failures: ${counts.failedToConnect}`);
console.log(
  `  /v1 answers validated: ${counts.validated}; statuses: ${[...byStatus]
    .sort((a, b) => a[0] - b[0])
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}`,
);
console.log(`  server RSS: ${rssLog.join(", ")}`);
for (const e of examples) console.log(`  e.g. ${e}`);
