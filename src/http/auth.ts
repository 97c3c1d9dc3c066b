// Authorization: anonymous, or "Bearer <key>". A malformed header, an unknown or a revoked key → invalid-key.
// A key the store knows is answered at once; a shared store (PostgreSQL) may answer a key it has not seen yet
// later (a Promise), or refuse with 503 when it cannot be asked (src/state/postgres.ts).
import { DomainError } from "../domain/errors";
import type { HeaderReader } from "./incoming";
import { KEY_PATTERN } from "../state/keys";
import type { Tier } from "../state/store";
import type { FoundKey, KeyLookup } from "../state/store";

export type Auth = { kind: "anonymous" } | { kind: "key"; tier: Tier; keyId: string };

const unknownKey = () => new DomainError("invalid-key", "The key is unknown or has been revoked.");
const asAuth = (found: FoundKey | null): Auth => {
  if (!found) throw unknownKey();
  return { kind: "key", ...found };
};

export function authenticate(headers: HeaderReader, keys: KeyLookup): Auth | Promise<Auth> {
  const h = headers.get("authorization");
  if (h === null) return { kind: "anonymous" };
  const m = /^Bearer ([^\s]+)$/.exec(h.trim());
  if (!m || !KEY_PATTERN.test(m[1]!))
    throw new DomainError(
      "invalid-key",
      "The Authorization header must be 'Bearer <key>' with a key issued by this service.",
    );
  const found = keys.lookup(m[1]!);
  return found instanceof Promise ? found.then(asAuth) : asAuth(found);
}
