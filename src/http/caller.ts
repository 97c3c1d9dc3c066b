// Who is asking, as the limits count it: a key's tier, a service caller (an address in config service_callers) or
// an anonymous address (IPv6 by its /64). One rule for the API and the pages.
import type { Auth } from "./auth";
import { inAny, limitKey } from "./client-address";
import type { Caller } from "./limits";

export function callerOf(auth: Auth, address: string, serviceCallers: readonly string[]): Caller {
  if (auth.kind === "key") return { kind: "key", tier: auth.tier, keyId: auth.keyId };
  if (inAny(address, serviceCallers)) return { kind: "service", address: limitKey(address) };
  return { kind: "anonymous", address: limitKey(address) };
}
