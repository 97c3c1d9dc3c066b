// The full app with the staged parcel store (loaded once per test process) as its ParcelSource.
import { fullApp } from "./directory-app";
import { call } from "./app";
import { stagedParcelsFile } from "./parcels-file";
import { parcelSourceFor } from "../../src/parcels/open";

export async function parcelsApp() {
  const { app, deps } = await fullApp();
  const file = await stagedParcelsFile();
  deps.parcels = parcelSourceFor(deps.config, () => {}, file.path);
  const ask = async (query: string) => call(app, `/v1/county-data?${query}`);
  const q = async (question: string, extra = "") => ask(`q=${encodeURIComponent(question)}${extra}`);
  return { app, deps, file, ask, q };
}

export const ROW_KEYS = [
  "rank",
  "apn",
  "situs_address",
  "acres",
  "value",
  "value_label",
  "last_sale_date",
  "last_sale_price",
  "year_built",
  "parcel_gis_url",
  "lat",
  "lon",
].sort();
