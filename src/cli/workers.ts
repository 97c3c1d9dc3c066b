// `serve --workers N`: N processes on one port. The primary (this module) checks that no other server holds the
// port, then starts N copies of the same command as workers; each worker is a whole `serve` (its own data file
// handle, caches and app) bound with SO_REUSEPORT, and the kernel spreads the connections among them. The limits
// must be counted in a store the workers share (limits_store file or redis://…): with `memory` each worker would
// admit the full quota, so that is refused. A worker that dies is started again (after 1 s, doubling while it keeps
// dying within 10 s of its start, at most 30 s); SIGTERM or SIGINT is passed to every worker, each finishes its
// requests within timeouts.shutdown_grace_ms, and the primary exits 0 when all have (a worker still running 5 s
// after its grace is killed). Only worker 0 runs the scheduled link checks.
import type { Config } from "../config/config";

/** The environment variable that makes a `serve` a worker: "<index>:<port>" (never a DIRECTORY_ key: config). */
const WORKER_ENV = "PLD_SERVE_WORKER";

interface WorkerRole {
  index: number;
  port: number;
}

export function workerRole(env: Record<string, string | undefined> = process.env): WorkerRole | null {
  const m = /^(\d+):(\d+)$/.exec(env[WORKER_ENV] ?? "");
  return m ? { index: Number(m[1]), port: Number(m[2]) } : null;
}

export const workerCount = (cfg: Config) => (cfg.workers === 0 ? navigator.hardwareConcurrency || 1 : cfg.workers);

/** Why this config cannot run N workers, or null. */
export function workersRefused(cfg: Config, n: number): string | null {
  if (n <= 1) return null;
  if (cfg.limits_store === "memory")
    return `workers ${n} with limits_store memory would let every worker admit the whole quota (${n}× the advertised limits); set limits_store to file (the workers of one machine) or a redis:// URL (replicas on many machines)`;
  if (cfg.front !== "bun") return `workers ${n} need front bun (the node front cannot share its port)`;
  return null;
}

/** The command line that runs this same program again (the compiled executable, or Bun on the script). */
function selfCommand(): string[] {
  const args = process.argv.slice(2);
  return Bun.main.startsWith("/$bunfs/") ? [process.execPath, ...args] : [process.execPath, Bun.main, ...args];
}

const BACKOFF_START_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;
const QUICK_DEATH_MS = 10_000;

/** The primary: start n workers on cfg.port, keep them running, stop them on a signal. Resolves the exit code. */
export async function runPrimary(cfg: Config, n: number, log: (line: string) => void): Promise<number> {
  // the port is free (a second, unrelated serve fails here exactly as a single one does), and a port of 0 becomes
  // one free port all workers share
  const probe = Bun.serve({ hostname: cfg.host, port: cfg.port, reusePort: false, fetch: () => new Response(null) });
  const port = probe.port;
  probe.stop(true);
  const cmd = selfCommand();
  let stopping = false;
  const procs: (Bun.Subprocess | null)[] = new Array(n).fill(null);
  const backoff: number[] = new Array(n).fill(BACKOFF_START_MS); // the next wait of each worker

  const start = (i: number) => {
    const started = Date.now();
    const p = Bun.spawn(cmd, {
      env: { ...process.env, [WORKER_ENV]: `${i}:${port}` },
      stdio: ["ignore", "inherit", "inherit"],
    });
    procs[i] = p;
    void p.exited.then((code) => {
      procs[i] = null;
      if (stopping) return;
      const quick = Date.now() - started < QUICK_DEATH_MS;
      const wait = quick ? backoff[i]! : BACKOFF_START_MS;
      backoff[i] = quick ? Math.min(BACKOFF_MAX_MS, wait * 2) : BACKOFF_START_MS;
      log(
        `serve: worker ${i} (pid ${p.pid}) ended (${p.signalCode ?? `exit ${code}`}); starting it again in ${wait / 1000} s`,
      );
      setTimeout(() => {
        if (!stopping) start(i);
      }, wait);
    });
  };
  for (let i = 0; i < n; i++) start(i);
  log(
    `serve: ${n} workers on port ${port} (pids ${procs.map((p) => p?.pid).join(", ")}), limits counted in ${cfg.limits_store === "file" ? `the file ${cfg.limits_file}` : "Redis"}`,
  );

  return new Promise((resolve) => {
    const stop = async (signal: "SIGTERM" | "SIGINT") => {
      if (stopping) {
        for (const p of procs) p?.kill("SIGKILL");
        return;
      }
      stopping = true;
      log(`${signal}: stopping ${procs.filter(Boolean).length} worker(s)`);
      for (const p of procs) p?.kill(signal);
      const killAt = setTimeout(() => {
        for (const p of procs) if (p) (log(`serve: worker pid ${p.pid} still running: killed`), p.kill("SIGKILL"));
      }, cfg.timeouts.shutdown_grace_ms + 5_000);
      await Promise.all(procs.map((p) => p?.exited));
      clearTimeout(killAt);
      resolve(0);
    };
    process.on("SIGTERM", () => void stop("SIGTERM"));
    process.on("SIGINT", () => void stop("SIGINT"));
  });
}
