// A server without parcel data (config parcels.file "", or no store file): every county answers no_data, saying
// that this server holds none; never a 503 (nothing failed, and trying again will not help).
import type { Aggregate, CountyInfo, NearHit, ParcelRecord, ParcelSource } from "./source";

export class NoParcelData implements ParcelSource {
  holdsNone(): boolean {
    return true;
  }
  async counties(): Promise<CountyInfo[]> {
    return [];
  }
  async county(): Promise<CountyInfo | null> {
    return null;
  }
  async rows(): Promise<ParcelRecord[]> {
    return [];
  }
  async aggregate(): Promise<Aggregate> {
    return { n: 0, value: null };
  }
  async parcel(): Promise<ParcelRecord | null> {
    return null;
  }
  async near(): Promise<NearHit | null> {
    return null;
  }
}
