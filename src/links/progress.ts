// Progress while a check runs: a cli-progress bar on a terminal, plain lines (every `everyMs`) otherwise, and
// nothing when silent. The summary line is printed by the caller.
import { SingleBar, Presets } from "cli-progress";

export interface Progress {
  start(total: number): void;
  tick(counts: { ok: number; failed: number; skipped: number }): void;
  stop(): void;
}

export const silentProgress: Progress = { start() {}, tick() {}, stop() {} };

export function consoleProgress(
  stream: NodeJS.WriteStream = process.stderr,
  everyMs = 5000,
  now: () => number = Date.now,
): Progress {
  let total = 0,
    done = 0,
    started = 0,
    lastLine = 0;
  if (stream.isTTY) {
    const bar = new SingleBar(
      {
        stream,
        hideCursor: true,
        etaBuffer: 50,
        format:
          "checking links [{bar}] {value}/{total} | ok {ok} failed {failed} skipped {skipped} | {rate}/s | ETA {eta_formatted}",
      },
      Presets.shades_classic,
    );
    return {
      start(n) {
        total = n;
        started = now();
        bar.start(n, 0, { ok: 0, failed: 0, skipped: 0, rate: "0.0" });
      },
      tick(c) {
        done++;
        bar.update(done, { ...c, rate: (done / Math.max(0.001, (now() - started) / 1000)).toFixed(1) });
      },
      stop() {
        bar.stop();
      },
    };
  }
  return {
    start(n) {
      total = n;
      started = lastLine = now();
      stream.write(`checking ${n} links\n`);
    },
    tick(c) {
      done++;
      const t = now();
      if (t - lastLine < everyMs && done < total) return;
      lastLine = t;
      stream.write(
        `checked ${done}/${total} (ok ${c.ok}, failed ${c.failed}, skipped ${c.skipped}; ${(done / Math.max(0.001, (t - started) / 1000)).toFixed(1)} links/s)\n`,
      );
    },
    stop() {},
  };
}
