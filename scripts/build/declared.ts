// Inputs declared in data/sources.yaml read by the directory-record builders (gsa.ts, openaddresses.ts): the file's
// bytes after the sha256 check (scripts/build/inputs.ts) and its source row for the records' source trail.
import { Inputs, type SourceDecl } from "./inputs";
import { sourceRow, type SourceRow } from "./records-common";

export interface DeclaredCtx {
  sourcesDir: string | null;
  projectRoot: string;
  log: (line: string) => void;
}

/** The declared input's text (sha256 checked) and its source row, or null when the file is not present. */
export async function readDeclared(
  ctx: DeclaredCtx,
  id: string,
): Promise<{ text: string; source: SourceRow; sha256: string } | null> {
  const inputs = new Inputs(ctx.projectRoot, ctx.sourcesDir, ctx.log);
  if (!inputs.has(id)) return null;
  const text = await inputs.text(id);
  const d = inputs.decl(id);
  return { text, source: declaredSource(d), sha256: d.sha256 };
}

/** The source row of a declared input (its data/sources.yaml entry). */
export function declaredSource(d: SourceDecl): SourceRow {
  return sourceRow({
    source_id: d.source_id,
    name: d.name,
    url: d.url,
    publisher: d.publisher ?? null,
    official: d.official ? 1 : 0,
    retrieved_at: d.retrieved_at ?? null,
    license_class: d.license_class,
    license: d.license ?? null,
    vintage: d.vintage ?? null,
    sha256: d.sha256,
  });
}
