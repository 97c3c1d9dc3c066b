// Provider-neutral geocoder reply: what AddressLookup needs from any address geocoder client.

export interface GeocodeMatch {
  /** Provider's normalised address label, e.g. "350 S 5TH ST, MINNEAPOLIS, MN, 55415". */
  label: string;
  /** WGS84 longitude, -180..180. */
  lon: number;
  /** WGS84 latitude, -90..90. */
  lat: number;
  /** True when the point stands for a street or area rather than the requested house number. */
  approximate: boolean;
}

export interface GeocodeReply {
  /** Zero, one or several candidates, in provider order. */
  matches: GeocodeMatch[];
}

export interface GeocoderClient {
  search(address: string): Promise<GeocodeReply>;
}
