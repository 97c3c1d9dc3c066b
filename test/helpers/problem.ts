// The one check of a problem answer (spec part 7), for answers from the app (call) and raw answers from a front:
// the status, application/problem+json, never stored, the type under the problems URL (or about:blank), the body's
// own status, and its request_id equal to the X-Request-Id header.
import { expect } from "bun:test";
import type { App } from "../../src/http/app";
import { call, PROBLEMS, type Call } from "./app";

export interface ProblemAnswer {
  status: number;
  header(name: string): string | null;
  json: any;
}

export function expectProblemAnswer(r: ProblemAnswer, status: number, suffix: string): void {
  const type = suffix === "about:blank" ? suffix : `${PROBLEMS}/${suffix}`;
  expect({ status: r.status, type: r.json?.type }).toEqual({ status, type });
  expect(r.header("content-type")).toContain("application/problem+json");
  expect(r.header("cache-control")).toBe("no-store");
  expect(r.json.status).toBe(status);
  const id = r.header("x-request-id");
  if (id !== null) {
    expect(id).toMatch(/^[A-Za-z0-9._-]{8,64}$/);
    expect(r.json.request_id).toBe(id);
  }
}

/** GET `path` on the app and check it is that problem; returns the answer. */
export async function expectProblem(app: App, path: string, status: number, suffix: string, opts: Call = {}) {
  const r = await call(app, path, opts);
  expectProblemAnswer({ status: r.status, header: (n) => r.headers.get(n), json: r.json }, status, suffix);
  return r;
}
