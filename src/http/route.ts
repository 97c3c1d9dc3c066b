// A route: its parameters (TypeBox specs), the schema of its data, its error statuses and its handler. The app's
// router (router.ts) serves it; the OpenAPI document is generated from the same definition (openapi.ts reads it
// through an Elysia instance that only the generator uses). Define one with defineRoute: the handler's query and
// path values are then typed from the parameter schemas.
import type { TSchema } from "@sinclair/typebox";
import type { ParamSpecs, ParamsOf } from "./params";
import type { Reply, RequestContext } from "./respond";
import type { Deps } from "./deps";
import type { ProblemSuffix } from "../domain/errors";

interface RouteInput<Q = Record<string, unknown>, P = Record<string, unknown>> {
  ctx: RequestContext;
  query: Q;
  params: P;
  deps: Deps;
}

export interface RouteDef<P extends ParamSpecs = ParamSpecs, Q extends ParamSpecs = ParamSpecs> {
  path: string; // path under /v1, e.g. "/guides/:topic"
  operationId: string;
  summary: string;
  description?: string;
  list?: boolean; // counts against the place-and-resource-list limits
  pathParams?: P;
  query?: Q;
  data: TSchema | null; // null: the response is not enveloped (openapi.json)
  errors: number[];
  /** The domain problem types the handler can throw (parameter and front-door types are added); without it the
   * OpenAPI document lists every type of each error status. */
  problems?: ProblemSuffix[];
  handler(input: RouteInput<ParamsOf<Q>, ParamsOf<P>>): Reply | Promise<Reply> | Response;
}

/** A route whose handler sees its query and path values typed from their schemas (a required one always there). */
export const defineRoute = <const P extends ParamSpecs = {}, const Q extends ParamSpecs = {}>(
  def: RouteDef<P, Q>,
): RouteDef => def as unknown as RouteDef;
