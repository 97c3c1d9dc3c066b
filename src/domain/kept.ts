// A value kept and shared by many answers (a chain answer the directory keeps, the point match, the assembled
// screening facts, the topic list) is frozen where it is kept: its JSON never changes, so the respond layer
// serialises the envelope around it once (src/http/respond.ts). A frozen value cannot be changed by mistake later.
/** Freeze a kept value (its own members; what they hold is kept by whoever made it). */
export const keep = <T extends object>(value: T): T => Object.freeze(value);
/** Freeze each of several kept values (the members of a kept answer). */
export const keepAll = (...values: object[]): void => values.forEach(keep);

/** The members of an answer that are kept, in the order given: the most specific first (the envelope is filed
 *  under the first). */
export const keptOf = (...members: unknown[]): object[] =>
  members.filter((m): m is object => typeof m === "object" && m !== null && Object.isFrozen(m));
