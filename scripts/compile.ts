// `bun run build`: compile the CLI (serve, keys, build-data) into ONE executable, dist/directory.
import { $ } from "bun";
import { mkdirSync } from "node:fs";

mkdirSync("dist", { recursive: true });
const out = process.argv[2] ?? "dist/directory";
await $`${process.execPath} build --compile --minify-syntax --minify-whitespace src/cli/main.ts --outfile ${out}`;
console.log(`built ${out}`);
