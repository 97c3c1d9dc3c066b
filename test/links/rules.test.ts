// The transition rule (results.ts) and the SSRF address rule (ssrf.ts) as pure functions.
import { describe, expect, test } from "bun:test";
import type { ProbeResult } from "../../src/links/probe";
import { nextState, type LinkRow } from "../../src/links/results";
import { refusedAddress, refusedName, vetHost } from "../../src/links/ssrf";

const ok: ProbeResult = {
  kind: "ok",
  status: 200,
  finalUrl: "https://a.gov/x",
  method: "HEAD",
  redirects: 0,
  reason: null,
  detail: "HTTP 200",
};
const bad: ProbeResult = {
  kind: "failed",
  status: null,
  finalUrl: "https://a.gov/",
  method: "HEAD",
  redirects: 0,
  reason: "timeout",
  detail: "no answer",
};
const skip: ProbeResult = {
  kind: "skipped",
  status: null,
  finalUrl: "https://a.gov/",
  method: "HEAD",
  redirects: 0,
  reason: "robots",
  detail: "disallowed",
};
const at = (d: number) => new Date(Date.UTC(2026, 0, 1 + d, 6));
const rule = { failures: 3, days: 7 };
const run = (steps: [number, ProbeResult][], start: LinkRow | null = null) =>
  steps.reduce<LinkRow | null>((row, [d, r]) => nextState(row, "https://a.gov/", r, at(d), rule), start)!;

describe("transition rule", () => {
  test("a never-seen link that fails stays not_yet_verified until N failures over M days, then possibly_broken", () => {
    expect(
      run([
        [0, bad],
        [1, bad],
        [2, bad],
      ]).verified_status,
    ).toBe("not_yet_verified");
    expect(
      run([
        [0, bad],
        [1, bad],
        [7, bad],
      ]),
    ).toMatchObject({
      verified_status: "possibly_broken",
      consecutive_failures: 3,
      first_failure_at: at(0).toISOString(),
    });
  });
  test("many failures within M days are not enough; M days with fewer than N failures are not enough", () => {
    expect(
      run([
        [0, ok],
        [1, bad],
        [1, bad],
        [1, bad],
        [2, bad],
      ]).verified_status,
    ).toBe("verified");
    expect(
      run([
        [0, ok],
        [1, bad],
        [30, bad],
      ]).verified_status,
    ).toBe("verified");
  });
  test("one success resets: verified with today's date, failures 0, first failure forgotten", () => {
    const r = run([
      [0, ok],
      [1, bad],
      [2, bad],
      [9, bad],
      [10, ok],
    ]);
    expect(r).toMatchObject({
      verified_status: "verified",
      verified_at: "2026-01-11",
      consecutive_failures: 0,
      first_failure_at: null,
      http_status: 200,
    });
  });
  test("possibly_broken keeps the last verified date; a skip changes nothing but checked_at", () => {
    const broken = run([
      [0, ok],
      [1, bad],
      [5, bad],
      [8, bad],
    ]);
    expect(broken).toMatchObject({ verified_status: "possibly_broken", verified_at: "2026-01-01" });
    const skipped = nextState(broken, "https://a.gov/", skip, at(9), rule);
    expect(skipped).toMatchObject({
      verified_status: "possibly_broken",
      verified_at: "2026-01-01",
      consecutive_failures: 3,
      outcome: "skipped",
      reason: "robots",
      checked_at: at(9).toISOString(),
    });
  });
});

describe("SSRF address rule", () => {
  test("only global unicast passes; every special range is refused, also in IPv4-mapped form", () => {
    for (const a of ["93.184.216.34", "2606:4700:4700::1111", "::ffff:93.184.216.34"])
      expect(refusedAddress(a)).toBeNull();
    for (const a of [
      "127.0.0.1",
      "10.0.0.1",
      "172.16.5.4",
      "192.168.0.1",
      "169.254.1.1",
      "100.64.0.1",
      "224.0.0.1",
      "0.0.0.0",
      "255.255.255.255",
      "::",
      "::1",
      "fe80::1",
      "fc00::1",
      "ff02::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "::ffff:169.254.169.254",
      "::127.0.0.1", // IPv4-compatible forms (::/96, deprecated): refused like the mapped ones
      "::10.0.0.1",
      "::169.254.169.254",
      "::8.8.8.8",
      "2002:a00:1::",
      "64:ff9b::a00:1",
      "192.0.2.1",
    ])
      expect(refusedAddress(a)).not.toBeNull();
  });
  test("cloud metadata addresses and names are refused", () => {
    for (const a of ["169.254.169.254", "fd00:ec2::254", "168.63.129.16", "100.100.100.200"])
      expect(refusedAddress(a)).toContain("metadata");
    for (const n of ["metadata.google.internal", "metadata", "instance-data", "METADATA.GOOGLE.INTERNAL."])
      expect(refusedName(n)).toContain("metadata");
  });
  test("loopback only with the test-only option; private never", async () => {
    expect(refusedAddress("127.0.0.1", true)).toBeNull();
    expect(refusedAddress("10.0.0.1", true)).not.toBeNull();
    expect(refusedName("localhost", false)).not.toBeNull();
    const resolver = async () => [
      { address: "93.184.216.34", family: 4 as const },
      { address: "10.1.1.1", family: 4 as const },
    ];
    await expect(vetHost("mixed.example", resolver)).rejects.toThrow(/10\.1\.1\.1/); // any refused address refuses the host
  });
});

describe("IPv4-compatible IPv6 (issue 19, item 12)", () => {
  test("[::127.0.0.1] is refused even where the test-only loopback option is on, and says what it embeds", () => {
    expect(refusedAddress("::127.0.0.1", true)).toBe(
      "::127.0.0.1 is an IPv4-compatible IPv6 address (deprecated; it embeds 127.0.0.1)",
    );
    expect(refusedAddress("::7f00:1")).toContain("embeds 127.0.0.1");
    expect(refusedAddress("::1", true)).toBeNull(); // loopback proper, test option on
  });
});
describe("IPv4-compatible IPv6 in a URL", () => {
  test("http://[::127.0.0.1]/ (the URL parser makes it [::7f00:1]) is refused by the guard", async () => {
    const host = new URL("http://[::127.0.0.1]/").hostname;
    expect(host).toBe("[::7f00:1]");
    await expect(vetHost(host, async () => [], true)).rejects.toThrow("IPv4-compatible");
  });
});
