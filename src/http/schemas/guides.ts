// Part 2: TopicInfo, TopicList, Rule, StateRules, Guide.
import { Type } from "@sinclair/typebox";
import { Fn, Nullable, Topic, Uri } from "./common";
import { FUNCTIONS } from "../../domain/vocabulary";

export const TopicInfo = Type.Object({
  topic: Topic,
  name: Type.String(),
  description: Type.String(),
  functions: Type.Array(Fn),
  page_url: Uri,
  guide_url: Nullable(Uri),
});

export const TopicList = Type.Object({
  topics: Type.Array(TopicInfo),
  functions: Type.Object(Object.fromEntries(FUNCTIONS.map((f) => [f, Type.Array(Topic)]))),
  aliases: Type.Record(Type.String(), Topic),
});

export const Rule = Type.Object({
  office: Nullable(Type.String()),
  level: Nullable(Type.Union(["state", "county", "town", "city"].map((v) => Type.Literal(v)))),
  where: Nullable(Type.String()),
  note: Type.Optional(Nullable(Type.String())),
});

export const StateRules = Type.Object({
  state: Type.String(),
  name: Type.String(),
  assessment: Rule,
  tax_collection: Rule,
  recording: Rule,
  zoning: Nullable(Rule),
  exemptions: Nullable(Rule),
  page_url: Type.Optional(Uri),
});

export const Guide = Type.Object({
  topic: Topic,
  state: Nullable(Type.String()),
  title: Type.String(),
  summary: Type.String(),
  sections: Type.Array(Type.Object({ heading: Nullable(Type.String()), text: Type.String() })),
  page_url: Uri,
  state_rules: Nullable(StateRules),
  state_summary: Nullable(Type.String()),
  also: Type.Array(Type.Object({ title: Type.String(), page_url: Uri })),
});
