import { describe, expect, test } from "bun:test";
import { call, yamlApp, BASE } from "../helpers/app";
import { componentSchemas } from "../../src/http/schemas";

describe("Link header", () => {
  test("every 200 has rel=service-desc to the OpenAPI document", async () => {
    const { app } = yamlApp();
    for (const p of ["/v1/topics", "/v1/guides/assessor", "/v1/openapi.json"]) {
      const r = await call(app, p);
      expect(r.headers.get("link")).toContain(`<${BASE}/openapi.json>; rel="service-desc"`);
    }
  });
});

describe("GET /v1/openapi.json", () => {
  test("OpenAPI 3.1, version 1.4.0, the endpoints, the part-2 schemas its operations use, problem responses, security none or bearer", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/openapi.json");
    expect(r.status).toBe(200);
    const d = r.json;
    expect(d.openapi).toMatch(/^3\.1\./);
    expect(d.info.version).toBe("1.4.0");
    expect(d.servers[0].url).toBe(BASE);
    for (const p of ["/topics", "/guides/{topic}", "/openapi.json"]) expect(d.paths[p]?.get).toBeTruthy();
    // components no operation reaches yet (Screening, CountyData until their routes are mounted) are left out
    for (const name of Object.keys(d.components.schemas))
      expect(componentSchemas[name] ?? (name === "Problem" || name === "Topic")).toBeTruthy();
    for (const name of [
      "Jurisdiction",
      "Office",
      "Resource",
      "FunctionEntry",
      "ResolveResult",
      "ResourcePage",
      "PlacePage",
      "TopicList",
      "StateRules",
      "Guide",
      "SearchResult",
      "Problem",
      "Source",
    ])
      expect(d.components.schemas[name]).toBeTruthy();
    const guide = d.paths["/guides/{topic}"].get;
    expect(guide.parameters.map((p: any) => p.name)).toEqual(expect.arrayContaining(["topic", "state"]));
    expect(guide.responses["404"].content["application/problem+json"].schema.$ref).toBe("#/components/schemas/Problem");
    expect(guide.responses["200"].content["application/json"].schema.properties.data.$ref).toBe(
      "#/components/schemas/Guide",
    );
    expect(d.components.schemas.Guide.required).toContain("state_rules");
    expect(d.components.securitySchemes.bearer.scheme).toBe("bearer");
    expect(d.security).toEqual([{}, { bearer: [] }]);
    expect(d.paths["/openapi.json"].get.security).toEqual([]);
  });
  test("needs no key even when the header is absent, and is not enveloped", async () => {
    const { app } = yamlApp();
    const r = await call(app, "/v1/openapi.json");
    expect(r.json.data).toBeUndefined();
    expect(r.json.paths).toBeTruthy();
  });
});
