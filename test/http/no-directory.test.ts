// A server composed without a data file has no directory answers: every directory route says so (the pages too, as HTML) with the
// one rule of src/http/deps.ts directoryOf (404 not-found), never a 500.
import { describe, expect, test } from "bun:test";
import { call, PROBLEMS, yamlApp } from "../helpers/app";

describe("no data file loaded", () => {
  const { app } = yamlApp();
  for (const path of [
    "/v1/places/county:27053",
    "/v1/search?q=hennepin",
    "/v1/resources?jurisdiction_id=county:27053",
    "/v1/jurisdictions/resolve?lat=44.9778&lon=-93.2650",
  ])
    test(`${path} → 404 not-found problem`, async () => {
      const r = await call(app, path);
      expect({ status: r.status, type: r.json?.type }).toEqual({ status: 404, type: `${PROBLEMS}/not-found` });
      expect(r.headers.get("content-type")).toContain("application/problem+json");
    });
});
