// Paging (spec part 4): opaque cursors, signed with HMAC-SHA256 and bound to the endpoint and the other
// parameters (all but `limit` and `cursor`, so a caller may change the page size between pages).
import { createHmac, timingSafeEqual } from "node:crypto";
import { DomainError } from "../domain/errors";

export const CURSOR_MAX = 200;

export class Cursors {
  constructor(private readonly secret: string) {}

  private mac(endpoint: string, bound: Record<string, string | undefined>, payload: string): string {
    const canon = Object.keys(bound)
      .filter((k) => bound[k] !== undefined)
      .sort()
      .map((k) => `${k}=${bound[k]}`)
      .join("&");
    return createHmac("sha256", this.secret)
      .update(`${endpoint}\n${canon}\n${payload}`)
      .digest()
      .subarray(0, 16)
      .toString("base64url");
  }

  issue(endpoint: string, bound: Record<string, string | undefined>, offset: number): string {
    const payload = offset.toString(36);
    return `${payload}.${this.mac(endpoint, bound, payload)}`;
  }

  /** Offset of a cursor issued for this endpoint and these parameters; anything else → bad-cursor. */
  read(endpoint: string, bound: Record<string, string | undefined>, cursor: string | undefined): number {
    if (cursor === undefined) return 0;
    const bad = () =>
      new DomainError(
        "bad-cursor",
        "The cursor was not issued by this endpoint for the same other parameters; start again without a cursor.",
      );
    if (cursor.length === 0 || cursor.length > CURSOR_MAX) throw bad();
    const m = /^([0-9a-z]{1,8})\.([A-Za-z0-9_-]{22})$/.exec(cursor);
    if (!m) throw bad();
    const want = Buffer.from(this.mac(endpoint, bound, m[1]!));
    const got = Buffer.from(m[2]!);
    if (want.length !== got.length || !timingSafeEqual(want, got)) throw bad();
    return parseInt(m[1]!, 36);
  }
}
