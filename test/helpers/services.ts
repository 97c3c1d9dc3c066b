// Real Redis and PostgreSQL (with PostGIS) servers for tests, never mocks: Debian's redis-server and postgresql
// (installed by scripts/setup.sh), each started here on 127.0.0.1 on a free port in a temporary directory and
// stopped afterwards. PostgreSQL refuses to run as root: as root the server runs as the `postgres` user.
import { chownSync, mkdtempSync, readdirSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface Running {
  url: string;
  port: number;
  dir: string;
  stop(): Promise<void>;
}

/** A port nobody listens on now (the OS picks it). */
export function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if (await ok()) return;
    await Bun.sleep(50);
  }
  throw new Error(`${what} did not start within ${ms} ms`);
}

export async function startRedis(): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), "dir-redis-"));
  const port = freePort();
  const proc = Bun.spawn(
    ["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir],
    { stdout: "ignore", stderr: "ignore" },
  );
  const url = `redis://127.0.0.1:${port}`;
  await waitFor("redis-server", async () => {
    const c = new Bun.RedisClient(url, { autoReconnect: false, connectionTimeout: 500 });
    try {
      return (await c.send("PING", [])) === "PONG";
    } catch {
      return false;
    } finally {
      c.close();
    }
  });
  return {
    url,
    port,
    dir,
    async stop() {
      proc.kill("SIGTERM");
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function pgBin(name: string): string {
  for (const v of readdirSync("/usr/lib/postgresql").sort().reverse()) {
    const p = `/usr/lib/postgresql/${v}/bin/${name}`;
    if (existsSync(p)) return p;
  }
  throw new Error(`PostgreSQL's ${name} not found under /usr/lib/postgresql (run scripts/setup.sh)`);
}

const asRoot = process.getuid?.() === 0;
/** As root, run as `postgres` in the same process (setpriv execs: the signals the test sends reach the server). */
const asPostgres = (argv: string[]) =>
  asRoot ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--", ...argv] : argv;

/** A PostgreSQL server with the PostGIS extension available; `url` reaches database `postgres` as user `dir`
 *  (trust authentication, loopback only). `database(name)` makes another database and returns its URL. */
export async function startPostgres(): Promise<Running & { database(name: string): Promise<string> }> {
  const dir = mkdtempSync(join(tmpdir(), "dir-pg-"));
  if (asRoot) {
    const pw = (await Bun.$`id -u postgres`.text()).trim();
    chownSync(dir, Number(pw), -1);
  }
  const data = join(dir, "data");
  const init = Bun.spawnSync(
    asPostgres([pgBin("initdb"), "-D", data, "-A", "trust", "-U", "dir", "--no-sync", "-E", "UTF8"]),
    { stdout: "ignore", stderr: "pipe" },
  );
  if (init.exitCode !== 0) throw new Error(`initdb failed: ${init.stderr.toString().slice(0, 500)}`);
  const port = freePort();
  const proc = Bun.spawn(
    asPostgres([
      pgBin("postgres"),
      "-D",
      data,
      "-h",
      "127.0.0.1",
      "-p",
      String(port),
      "-k",
      dir,
      "-c",
      "fsync=off",
      "-c",
      "synchronous_commit=off",
      "-c",
      "full_page_writes=off",
    ]),
    { stdout: "ignore", stderr: "ignore" },
  );
  const url = `postgres://dir@127.0.0.1:${port}/postgres`;
  await waitFor("postgres", async () => {
    const sql = new Bun.SQL(url, { max: 1, connectionTimeout: 1 });
    try {
      await sql`SELECT 1`;
      return true;
    } catch {
      return false;
    } finally {
      await sql.close().catch(() => {});
    }
  });
  return {
    url,
    port,
    dir,
    async database(name: string) {
      const sql = new Bun.SQL(url, { max: 1 });
      try {
        await sql.unsafe(`CREATE DATABASE "${name.replace(/"/g, "")}"`);
      } finally {
        await sql.close();
      }
      return `postgres://dir@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      proc.kill("SIGINT"); // fast shutdown: ends the sessions still open
      await proc.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
