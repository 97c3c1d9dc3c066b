// The command line as an operator runs it (`directory <command> …`, here through Bun on src/cli/main.ts): its
// standard output, or an error with its standard error when it exits non-zero.
import { join } from "node:path";
import { ROOT } from "./app";

export function runCli(args: string[]): string {
  const p = Bun.spawnSync([process.execPath, join(ROOT, "src/cli/main.ts"), ...args], {
    stdout: "pipe",
    stderr: "pipe",
  });
  if (p.exitCode !== 0) throw new Error(`directory ${args[0]} exited ${p.exitCode}: ${p.stderr.toString()}`);
  return p.stdout.toString();
}
