// X-Request-Id: echo a well-formed one, otherwise generate: a random per-process prefix and a counter (unique
// within the process, unguessable across restarts, and no random bytes drawn per request).
const PATTERN = /^[A-Za-z0-9._-]{8,64}$/;
const prefix = crypto.randomUUID().replaceAll("-", "").slice(0, 16);
let counter = 0;

export function requestIdOf(given: string | null): string {
  if (given !== null && PATTERN.test(given)) return given;
  return `${prefix}${(++counter).toString(36).padStart(6, "0")}`;
}
