// The limits a server counts with (config limits_store): in this process's memory (the default), in a SQLite file
// the workers of one machine share (file: limits_file), or in Redis for replicas on many machines (redis://…).
import type { Config } from "../../config/config";
import { Limiter, type Limits } from "../limits";
import { FileLimitStore } from "./file";
import { SharedLimiter } from "./limiter";
import { RedisLimitStore } from "./redis";

export function limitsFor(cfg: Config, log?: (line: string) => void): Limits {
  const memory = new Limiter(cfg.limits, cfg.limit_memory);
  const s = cfg.limits_store;
  if (s === "memory") return memory;
  const timeout = cfg.limits_store_timeout_ms;
  const store = s === "file" ? new FileLimitStore(cfg.limits_file, timeout) : new RedisLimitStore(s, timeout);
  return new SharedLimiter(memory, store, timeout, log);
}
