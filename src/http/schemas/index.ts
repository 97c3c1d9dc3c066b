import type { TSchema } from "@sinclair/typebox";
import { Choice, Point, Problem, Source } from "./common";
import { named as directory } from "./directory";
import { Guide, Rule, StateRules, TopicInfo, TopicList } from "./guides";
import { Fact, Screening } from "./screening";
import { CountyData, CountyRow } from "./county-data";

/** Every part-2 schema by its spec name, for the OpenAPI components. */
export const componentSchemas: Record<string, TSchema> = {
  Point,
  Source,
  Choice,
  Problem,
  ...directory,
  TopicInfo,
  TopicList,
  Rule,
  StateRules,
  Guide,
  Screening,
  Fact,
  CountyData,
  CountyRow,
};
