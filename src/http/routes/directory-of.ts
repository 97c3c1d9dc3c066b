import type { Directory } from "../../directory/directory";
import type { Deps } from "../deps";

/** The loaded directory; a server without a data file cannot answer directory questions. */
export function directoryOf(deps: Deps): Directory {
  if (!deps.directory) throw new Error("no data file is loaded: directory endpoints need one");
  return deps.directory as Directory;
}
