// X-Request-Id: echo a well-formed one, otherwise generate.
const PATTERN = /^[A-Za-z0-9._-]{8,64}$/;

export function requestIdOf(headers: Headers): string {
  const given = headers.get("x-request-id");
  if (given !== null && PATTERN.test(given)) return given;
  return crypto.randomUUID().replaceAll("-", "");
}
