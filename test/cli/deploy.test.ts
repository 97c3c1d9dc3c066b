// The compose file of "Past one machine" (deploy/compose.yaml), linted (no container engine runs on this machine,
// so nothing is started here): two replicas whose environment is a valid config that shares the limits (Redis),
// the keys and link results (PostgreSQL) and the parcels (PostGIS), believes X-Forwarded-For only from the proxy's
// fixed address, and serves on every core; nginx in front sends to both and passes the client's address on.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { loadConfig, wildcardWithoutBaseUrl } from "../../src/config/config";
import { workerCount, workersRefused } from "../../src/cli/workers";
import { inAny } from "../../src/http/client-address";
import { ROOT } from "../helpers/app";

const compose = parse(readFileSync(join(ROOT, "deploy/compose.yaml"), "utf8"), { merge: true });
const nginx = readFileSync(join(ROOT, "deploy/nginx.conf"), "utf8");
const replicas = Object.entries<any>(compose.services).filter(([n]) => n.startsWith("directory-"));
// the Containerfile's own environment, then the compose file's (with the password put in, as compose does)
const imageEnv = {
  DIRECTORY_HOST: "0.0.0.0",
  DIRECTORY_PORT: "8080",
  DIRECTORY_DATA_FILE: "/srv/directory.sqlite",
  DIRECTORY_STATE_FILE: "/var/lib/directory/state.sqlite",
};
const envOf = (svc: any) =>
  Object.fromEntries(
    Object.entries<string>(svc.environment).map(([k, v]) => [
      k,
      String(v).replace(/\$\{POSTGRES_PASSWORD:[^}]*\}/, "pw"),
    ]),
  );

describe("deploy/compose.yaml (lint)", () => {
  test("two replicas of the one image, every core each, behind the proxy", () => {
    expect(replicas.map(([n]) => n)).toEqual(["directory-1", "directory-2"]);
    for (const [, svc] of replicas) {
      expect(svc.build.dockerfile).toBe("Containerfile");
      expect(svc.command).toEqual(["serve", "--workers", "auto"]);
    }
    expect(compose.services.proxy.ports).toEqual(["80:8080"]);
    for (const [, svc] of replicas) expect(svc.ports).toBeUndefined(); // reached through the proxy only
  });

  test("each replica's environment is a valid config sharing limits, state and parcels; no password written down", () => {
    const proxyIp = compose.services.proxy.networks.front.ipv4_address;
    for (const [, svc] of replicas) {
      const cfg = loadConfig(null, { ...imageEnv, ...envOf(svc) }); // an unknown key would throw
      expect(cfg.limits_store).toBe("redis://redis:6379");
      expect(cfg.state_store).toStartWith("postgres://directory:pw@postgres:5432/");
      expect(cfg.parcels.source).toStartWith("postgres://directory:pw@postgres:5432/");
      expect(wildcardWithoutBaseUrl(cfg)).toBeNull();
      expect(inAny(proxyIp, cfg.trusted_proxies)).toBe(true);
      expect(workersRefused({ ...cfg, workers: 0 }, workerCount({ ...cfg, workers: 0 }) + 1)).toBeNull();
      expect(Object.values(svc.environment).join(" ")).not.toMatch(/:\/\/directory:[^$]/); // the password comes from .env
    }
    expect(compose.services.postgres.image).toMatch(/^docker\.io\/postgis\/postgis:\d+-\d/);
    expect(compose.services.redis.image).toMatch(/^docker\.io\/library\/redis:\d/);
  });

  test("nginx sends to both replicas, passes the client's address on, and allows more than a request's timeout", () => {
    for (const [n] of replicas) expect(nginx).toContain(`server ${n}:8080`);
    expect(nginx).toContain("proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;");
    const read = Number(/proxy_read_timeout (\d+)s;/.exec(nginx)![1]) * 1000;
    expect(read).toBeGreaterThan(loadConfig(null, {}).timeouts.request_ms);
  });
});
