// `bun run build`: compile the CLI (serve, keys, build-data) into ONE executable, dist/directory.
import { $ } from "bun";
import { mkdirSync } from "node:fs";

mkdirSync("dist", { recursive: true });
const out = process.argv[2] ?? "dist/directory";
// --bytecode: the executable carries precompiled bytecode (start ~0.3 s faster: no parsing of the bundle)
await $`${process.execPath} build --compile --bytecode --format=esm --minify-syntax --minify-whitespace src/cli/main.ts --outfile ${out}`;
console.log(`built ${out}`);
