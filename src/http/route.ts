// A route: its parameters (TypeBox specs), the schema of its data, its error statuses and its handler. The app's
// router (router.ts) serves it; the OpenAPI document is generated from the same definition (app.ts hands the
// routes to an Elysia instance that only the generator reads, openapi.ts).
import type { TSchema } from "@sinclair/typebox";
import type { ParamSpecs } from "./params";
import type { Reply, RequestContext } from "./respond";
import type { Deps } from "./deps";
import type { ProblemSuffix } from "../domain/errors";

export interface RouteInput {
  ctx: RequestContext;
  query: Record<string, any>;
  params: Record<string, any>;
  deps: Deps;
}

export interface RouteDef {
  path: string; // Elysia path under /v1, e.g. "/guides/:topic"
  operationId: string;
  summary: string;
  description?: string;
  list?: boolean; // counts against the place-and-resource-list limits
  pathParams?: ParamSpecs;
  query?: ParamSpecs;
  data: TSchema | null; // null: the response is not enveloped (openapi.json)
  errors: number[];
  /** The domain problem types the handler can throw (parameter and front-door types are added); without it the
   * OpenAPI document lists every type of each error status. */
  problems?: ProblemSuffix[];
  handler: (input: RouteInput) => Reply | Promise<Reply> | Response;
}
