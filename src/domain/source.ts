// A source as every answer lists it (the envelope's `sources`): a data-file row, an authored guide, a screening
// service, a town boundary file. The API schema of it is http/schemas/common.ts Source.
import type { LICENSE_CLASSES, VERIFIED_STATUSES } from "./vocabulary";

export interface SourceOut {
  name: string;
  url: string;
  publisher: string | null;
  official: boolean;
  retrieved_at: string | null;
  license_class: (typeof LICENSE_CLASSES)[number];
  verified_status?: (typeof VERIFIED_STATUSES)[number];
  verified_at?: string | null;
}
