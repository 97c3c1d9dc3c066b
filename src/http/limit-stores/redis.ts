// The limit counters of replicas on many machines (limits_store: redis://…): one Lua script per request counts a
// whole plan atomically in Redis (a script runs alone), on Redis's own clock (TIME), so replicas whose clocks
// differ still share one window. Each bucket is a hash of slot counts ("m<slot>" for the minute, "d<slot>" for the
// day) that expires a day and two hours after its last request; slots that left their window are deleted when a
// new slot is opened. Bun's built-in Redis client; no offline queue: a command sent while Redis is away fails at
// once (connecting again is tried on the next request), and the caller falls back (see limiter.ts).
import { RING, SLOT_MS, type BucketAsk, type Counted, type SharedStore } from "./shared";

const SCRIPT = `
local t = tonumber(ARGV[1])
if t == 0 then local tm = redis.call('TIME'); t = tonumber(tm[1]) * 1000 + math.floor(tonumber(tm[2]) / 1000) end
local take = ARGV[2] == '1'
local SL = { ${SLOT_MS[0]}, ${SLOT_MS[1]} }
local RING = { ${RING[0]}, ${RING[1]} }
local NAME = { 'm', 'd' }
local cur = { math.floor(t / SL[1]), math.floor(t / SL[2]) }
local ok = true
local counts = {}
for i = 1, #KEYS do
  local row = {}
  for w = 1, 2 do
    local f = {}
    for s = cur[w] - RING[w] + 1, cur[w] do f[#f + 1] = NAME[w] .. s end
    local v = redis.call('HMGET', KEYS[i], unpack(f))
    local used = 0
    for j = 1, #v do v[j] = tonumber(v[j]) or 0; used = used + v[j] end
    if used >= tonumber(ARGV[2 * i + w]) then ok = false end
    row[w] = v
  end
  counts[i] = row
end
if ok and take then
  for i = 1, #KEYS do
    for w = 1, 2 do
      local n = redis.call('HINCRBY', KEYS[i], NAME[w] .. cur[w], 1)
      counts[i][w][RING[w]] = n
      if n == 1 then
        for _, k in ipairs(redis.call('HKEYS', KEYS[i])) do
          if string.sub(k, 1, 1) == NAME[w] and tonumber(string.sub(k, 2)) <= cur[w] - RING[w] then redis.call('HDEL', KEYS[i], k) end
        end
      end
    end
    redis.call('PEXPIRE', KEYS[i], 93600000)
  end
end
local out = { tostring(t), (ok and take) and 1 or 0 }
for i = 1, #KEYS do for w = 1, 2 do for j = 1, RING[w] do out[#out + 1] = counts[i][w][j] end end end
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
    if (!Array.isArray(out) || out.length !== 2 + asks.length * (RING[0] + RING[1]))
      throw new Error("redis limits: unexpected script reply");
    const slots = asks.map((_, i) => {
      const at = 2 + i * (RING[0] + RING[1]);
      return [out.slice(at, at + RING[0]).map(Number), out.slice(at + RING[0], at + RING[0] + RING[1]).map(Number)] as [
        number[],
        number[],
      ];
    });
    return { t: Number(out[0]), admitted: Number(out[1]) === 1, slots };
  }

  close(): void {
    this.client.close();
  }
}
