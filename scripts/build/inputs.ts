// Declared inputs (data/sources.yaml): locate each file, verify its sha256, read it, remember what was used.
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { parse } from "yaml";

export interface SourceDecl {
  source_id: string;
  name: string;
  publisher: string | null;
  url: string;
  vintage: string | null;
  retrieved_at: string | null;
  license: string | null;
  license_class: string;
  official: boolean;
  file?: string;
  package?: string;
  path?: string;
  download?: string;
  sha256: string;
}

export const sha256Hex = (b: Uint8Array | string) => new Bun.CryptoHasher("sha256").update(b).digest("hex");

export class Inputs {
  readonly decls = new Map<string, SourceDecl>();
  readonly used = new Set<string>();
  constructor(
    readonly projectRoot: string,
    readonly sourcesDir: string | null,
    private log: (s: string) => void,
  ) {
    const doc = parse(require("node:fs").readFileSync(join(projectRoot, "data/sources.yaml"), "utf8"));
    for (const d of doc.sources as SourceDecl[]) this.decls.set(d.source_id, d);
  }

  pathOf(id: string): string | null {
    const d = this.decl(id);
    if (d.package) return join(this.projectRoot, "node_modules", d.package, d.path!);
    if (!this.sourcesDir || !d.file) return null;
    return join(this.sourcesDir, d.file);
  }

  decl(id: string): SourceDecl {
    const d = this.decls.get(id);
    if (!d) throw new Error(`input ${id} is not declared in data/sources.yaml`);
    return d;
  }

  has(id: string): boolean {
    const p = this.pathOf(id);
    return !!p && existsSync(p);
  }

  /** Bytes of the input after sha256 verification (gunzipped when the name ends in .gz). */
  async bytes(id: string): Promise<Uint8Array> {
    const p = this.pathOf(id);
    if (!p || !existsSync(p)) throw new Error(`input ${id} not found (${p ?? "no sources folder"})`);
    const raw = await Bun.file(p).bytes();
    const got = sha256Hex(raw);
    const want = this.decl(id).sha256;
    if (got !== want) throw new Error(`sha256 mismatch for ${id} (${p}): file ${got}, sources.yaml ${want}`);
    this.used.add(id);
    return p.endsWith(".gz") ? Bun.gunzipSync(raw) : raw;
  }
  async text(id: string): Promise<string> {
    return new TextDecoder().decode(await this.bytes(id));
  }
  async json(id: string): Promise<any> {
    return JSON.parse(await this.text(id));
  }

  /** --download: fetch every declared input that has a download URL and is missing locally; pinned by sha256. */
  async download(): Promise<void> {
    for (const d of this.decls.values()) {
      if (!d.download || this.has(d.source_id)) continue;
      const p = this.pathOf(d.source_id);
      if (!p) throw new Error(`--download needs a --sources folder to write ${d.file}`);
      let res: Response;
      try {
        res = await fetch(d.download, { signal: AbortSignal.timeout(60_000) });
      } catch (e) {
        throw new Error(`--download: cannot reach ${d.download} (no network?): ${(e as Error).message}`);
      }
      if (!res.ok) throw new Error(`--download: ${d.download} answered HTTP ${res.status}`);
      const b = new Uint8Array(await res.arrayBuffer());
      if (sha256Hex(b) !== d.sha256) throw new Error(`--download: ${d.download} sha256 differs from sources.yaml`);
      mkdirSync(dirname(p), { recursive: true });
      writeFileSync(p, b);
      this.log(`downloaded ${d.source_id} -> ${p}`);
    }
  }
}
