// Every /v1 route, in the order of the spec's part 4 (openapi.json is mounted by the app itself).
import type { RouteDef } from "../route";
import { topicsRoute } from "./topics";
import { guidesRoute } from "./guides";

export const ROUTES: RouteDef[] = [topicsRoute, guidesRoute];
