// Every /v1 route, in the order of the spec's part 4 (openapi.json is mounted by the app itself).
import type { RouteDef } from "../route";
import { resolveRoute } from "./resolve";
import { resourcesRoute } from "./resources";
import { placesRoute } from "./places";
import { topicsRoute } from "./topics";
import { guidesRoute } from "./guides";
import { searchRoute } from "./search";
import { screeningRoute } from "./screening";
import { countyDataRoute } from "./county-data";

// part 4 order
export const ROUTES: RouteDef[] = [
  resolveRoute,
  resourcesRoute,
  placesRoute,
  topicsRoute,
  guidesRoute,
  screeningRoute,
  searchRoute,
  countyDataRoute,
];
