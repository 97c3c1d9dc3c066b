// The limit counters of replicas on many machines (limits_store: redis://…): one Lua script per request counts a
// whole plan atomically in Redis (a script runs alone), on Redis's own clock (TIME), so replicas whose clocks
// differ still share one window. Each bucket is a hash (below) that expires a day and two hours after its last
// request. Bun's built-in Redis client; no offline queue: a command sent while Redis is away fails at
// once (connecting again is tried on the next request), and the caller falls back (see limiter.ts).
import { RING, SLOT_MS, type BucketAsk, type Counted, type SharedStore } from "./shared";

// Per bucket hash: "<w><slot>" counts, and per window its newest slot "<w>h" and the running total of the slots in
// the window "<w>n" (w = m for the minute, d for the day): a request reads 4 fields; only when the window moves on
// are the slots that left it read, taken off the total and deleted. The slot counts themselves are read only for
// a refusal or a look without taking (their waits need them).
const SCRIPT = `
local t = tonumber(ARGV[1])
if t == 0 then local tm = redis.call('TIME'); t = tonumber(tm[1]) * 1000 + math.floor(tonumber(tm[2]) / 1000) end
local take = ARGV[2] == '1'
local SL = { ${SLOT_MS[0]}, ${SLOT_MS[1]} }
local RING = { ${RING[0]}, ${RING[1]} }
local NAME = { 'm', 'd' }
local cur = { math.floor(t / SL[1]), math.floor(t / SL[2]) }
local ok = true
local used, at = {}, {}
for i = 1, #KEYS do
  local k = KEYS[i]
  local hv = redis.call('HMGET', k, 'mh', 'mn', 'dh', 'dn')
  used[i], at[i] = {}, {}
  for w = 1, 2 do
    local head = tonumber(hv[2 * w - 1]) or -1
    local total = tonumber(hv[2 * w]) or 0
    local c = cur[w]
    if c > head then
      -- the slots that leave the window: those of head-k .. head older than c-k
      local f = {}
      if head >= 0 then
        for s = head - RING[w] + 1, math.min(head, c - RING[w]) do f[#f + 1] = NAME[w] .. s end
      end
      if #f > 0 then
        local v = redis.call('HMGET', k, unpack(f))
        for j = 1, #v do total = total - (tonumber(v[j]) or 0) end
        redis.call('HDEL', k, unpack(f))
      end
      redis.call('HSET', k, NAME[w] .. 'h', c, NAME[w] .. 'n', total)
    else
      c = head -- never back: a request from an earlier clock counts in the newest slot
    end
    used[i][w], at[i][w] = total, c
    if total >= tonumber(ARGV[2 * i + w]) then ok = false end
  end
end
if ok and take then
  local out = { tostring(t), 1 }
  for i = 1, #KEYS do
    for w = 1, 2 do
      redis.call('HINCRBY', KEYS[i], NAME[w] .. at[i][w], 1)
      out[#out + 1] = redis.call('HINCRBY', KEYS[i], NAME[w] .. 'n', 1)
    end
    redis.call('PEXPIRE', KEYS[i], 93600000)
  end
  return out
end
local out = { tostring(t), 0 }
for i = 1, #KEYS do
  for w = 1, 2 do
    local f = {}
    for s = at[i][w] - RING[w] + 1, at[i][w] do f[#f + 1] = NAME[w] .. s end
    local v = redis.call('HMGET', KEYS[i], unpack(f))
    for j = 1, #v do out[#out + 1] = tonumber(v[j]) or 0 end
  end
end
return out`;

export class RedisLimitStore implements SharedStore {
  readonly name = "redis";
  private readonly client: Bun.RedisClient;
  private sha: string | null = null;

  constructor(
    url: string,
    connectTimeoutMs: number,
    private readonly prefix = "directory:limits:",
  ) {
    this.client = new Bun.RedisClient(url, {
      autoReconnect: true,
      enableOfflineQueue: false,
      connectionTimeout: Math.max(100, connectTimeoutMs),
    });
  }

  async count(asks: BucketAsk[], take: boolean, t: number): Promise<Counted> {
    const keys = asks.map((a) => this.prefix + a.id);
    const args = [
      String(Math.floor(t)),
      take ? "1" : "0",
      ...asks.flatMap((a) => [String(a.quota[0]), String(a.quota[1])]),
    ];
    let out: unknown;
    if (!this.client.connected) await this.client.connect(); // first use, or Redis came back
    try {
      this.sha ??= String(await this.client.send("SCRIPT", ["LOAD", SCRIPT]));
      out = await this.client.send("EVALSHA", [this.sha, String(keys.length), ...keys, ...args]);
    } catch (e) {
      // a restarted Redis has forgotten the script: load it again once
      if (!/NOSCRIPT/.test(String((e as Error)?.message))) throw e;
      this.sha = String(await this.client.send("SCRIPT", ["LOAD", SCRIPT]));
      out = await this.client.send("EVALSHA", [this.sha, String(keys.length), ...keys, ...args]);
    }
    if (!Array.isArray(out) || out.length < 2) throw new Error("redis limits: unexpected script reply");
    const t0 = Number(out[0]);
    if (Number(out[1]) === 1) {
      if (out.length !== 2 + asks.length * 2) throw new Error("redis limits: unexpected script reply");
      const used = asks.map((_, i) => [Number(out[2 + 2 * i]), Number(out[3 + 2 * i])] as [number, number]);
      return { t: t0, admitted: true, used };
    }
    if (out.length !== 2 + asks.length * (RING[0] + RING[1])) throw new Error("redis limits: unexpected script reply");
    const slots = asks.map((_, i) => {
      const at = 2 + i * (RING[0] + RING[1]);
      return [out.slice(at, at + RING[0]).map(Number), out.slice(at + RING[0], at + RING[0] + RING[1]).map(Number)] as [
        number[],
        number[],
      ];
    });
    return { t: t0, admitted: false, slots };
  }

  close(): void {
    this.client.close();
  }
}
