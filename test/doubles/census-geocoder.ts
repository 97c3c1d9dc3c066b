// Loopback double of the Census geocoder "locations/onelineaddress" endpoint (127.0.0.1, random port).
// Reply shape follows the documented one: {"result":{"input":{"address":{"address":…},"benchmark":{…}},"addressMatches":[…]}}.
// Behaviour is chosen by the (lowercased) address text:
//   "boom" → HTTP 500 · "slow" → waits SLOW_MS then answers · "garbage" → 200 non-JSON · "wrongshape" → 200 JSON without result
//   "badcoords" → a match with latitude 123 · "huge" → 200 body over 1 MiB · "nowhere" → no match
//   "street only" → one match with empty fromAddress/toAddress · "main st springfield" → two matches (IL, MA)
//   "dupes" → the same match twice · "350 s 5th st" → Minneapolis City Hall · anything else → no match
// Wrong path → 404; missing benchmark/format → 400 {"errors":[…],"status":"400"} like the real service.

export const SLOW_MS = 1500;

export interface CensusDouble {
  url: string;
  /** Requests received on the documented path. */
  calls: () => number;
  /** Address texts received, in order. */
  addresses: () => string[];
  stop(): void;
}

const BENCHMARK = {
  isDefault: true,
  benchmarkDescription: "Public Address Ranges - Current Benchmark",
  id: "4",
  benchmarkName: "Public_AR_Current",
};

interface MatchSpec {
  matchedAddress: string;
  x: number;
  y: number;
  tigerLineId: string;
  side: "L" | "R";
  from: string;
  to: string;
  preDirection?: string;
  streetName: string;
  suffixType: string;
  city: string;
  state: string;
  zip: string;
}

function match(s: MatchSpec) {
  return {
    matchedAddress: s.matchedAddress,
    coordinates: { x: s.x, y: s.y },
    tigerLine: { tigerLineId: s.tigerLineId, side: s.side },
    addressComponents: {
      fromAddress: s.from,
      toAddress: s.to,
      preQualifier: "",
      preDirection: s.preDirection ?? "",
      preType: "",
      streetName: s.streetName,
      suffixType: s.suffixType,
      suffixDirection: "",
      suffixQualifier: "",
      city: s.city,
      state: s.state,
      zip: s.zip,
    },
  };
}

export const CITY_HALL = match({
  matchedAddress: "350 S 5TH ST, MINNEAPOLIS, MN, 55415",
  x: -93.26477,
  y: 44.97708,
  tigerLineId: "2524443",
  side: "R",
  from: "300",
  to: "398",
  preDirection: "S",
  streetName: "5TH",
  suffixType: "ST",
  city: "MINNEAPOLIS",
  state: "MN",
  zip: "55415",
});
const STREET_ONLY = match({
  matchedAddress: "S 5TH ST, MINNEAPOLIS, MN, 55415",
  x: -93.2651,
  y: 44.9768,
  tigerLineId: "2524443",
  side: "L",
  from: "",
  to: "",
  preDirection: "S",
  streetName: "5TH",
  suffixType: "ST",
  city: "MINNEAPOLIS",
  state: "MN",
  zip: "55415",
});
const SPRINGFIELD_IL = match({
  matchedAddress: "100 MAIN ST, SPRINGFIELD, IL, 62701",
  x: -89.6501,
  y: 39.7817,
  tigerLineId: "111",
  side: "L",
  from: "100",
  to: "198",
  streetName: "MAIN",
  suffixType: "ST",
  city: "SPRINGFIELD",
  state: "IL",
  zip: "62701",
});
const SPRINGFIELD_MA = match({
  matchedAddress: "100 MAIN ST, SPRINGFIELD, MA, 01103",
  x: -72.5898,
  y: 42.1015,
  tigerLineId: "222",
  side: "R",
  from: "100",
  to: "150",
  streetName: "MAIN",
  suffixType: "ST",
  city: "SPRINGFIELD",
  state: "MA",
  zip: "01103",
});

function reply(address: string, matches: unknown[]) {
  return Response.json({ result: { input: { address: { address }, benchmark: BENCHMARK }, addressMatches: matches } });
}

export async function startCensusDouble(): Promise<CensusDouble> {
  let calls = 0;
  const seen: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (url.pathname !== "/geocoder/locations/onelineaddress") return new Response("Not Found", { status: 404 });
      calls++;
      const address = url.searchParams.get("address") ?? "";
      seen.push(address);
      if (!url.searchParams.get("benchmark") || url.searchParams.get("format") !== "json" || address === "") {
        return Response.json(
          { errors: ["Address cannot be empty and cannot exceed 100 characters"], status: "400" },
          { status: 400 },
        );
      }
      const a = address.toLowerCase();
      if (a.includes("boom")) return new Response("Internal Server Error", { status: 500 });
      if (a.includes("slow")) {
        await Bun.sleep(SLOW_MS);
        return reply(address, [CITY_HALL]);
      }
      if (a.includes("garbage"))
        return new Response("<html><body>Service Unavailable</body></html>", {
          status: 200,
          headers: { "content-type": "text/html" },
        });
      if (a.includes("wrongshape")) return Response.json({ status: "ok", matches: [] });
      if (a.includes("badcoords")) return reply(address, [{ ...CITY_HALL, coordinates: { x: -93.26, y: 123 } }]);
      if (a.includes("huge")) return reply(address, [{ ...CITY_HALL, padding: "x".repeat(1_100_000) }]);
      if (a.includes("nowhere")) return reply(address, []);
      if (a.includes("street only")) return reply(address, [STREET_ONLY]);
      if (a.includes("main st springfield")) return reply(address, [SPRINGFIELD_IL, SPRINGFIELD_MA]);
      if (a.includes("dupes")) return reply(address, [CITY_HALL, structuredClone(CITY_HALL)]);
      if (a.includes("350 s 5th st")) return reply(address, [CITY_HALL]);
      return reply(address, []);
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    calls: () => calls,
    addresses: () => [...seen],
    stop: () => {
      void server.stop(true);
    },
  };
}
