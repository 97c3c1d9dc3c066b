// Authorization: anonymous, or "Bearer <key>". A malformed header, an unknown or a revoked key → invalid-key.
import { DomainError } from "../domain/errors";
import type { HeaderReader } from "./incoming";
import { KEY_PATTERN, type KeyStore, type Tier } from "../state/keys";

export type Auth = { kind: "anonymous" } | { kind: "key"; tier: Tier; keyId: string };

export function authenticate(headers: HeaderReader, keys: KeyStore): Auth {
  const h = headers.get("authorization");
  if (h === null) return { kind: "anonymous" };
  const m = /^Bearer ([^\s]+)$/.exec(h.trim());
  if (!m || !KEY_PATTERN.test(m[1]!))
    throw new DomainError(
      "invalid-key",
      "The Authorization header must be 'Bearer <key>' with a key issued by this service.",
    );
  const found = keys.lookup(m[1]!);
  if (!found) throw new DomainError("invalid-key", "The key is unknown or has been revoked.");
  return { kind: "key", ...found };
}
