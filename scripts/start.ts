// `npx bun run start`: build directory.sqlite if it is missing (from ../shared/data when present, else from the
// atlas npm package alone), then serve it. Extra arguments go to `serve` (e.g. --port 9000 --config FILE).
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { $ } from "bun";

const root = resolve(import.meta.dir, "..");
const data = process.env.DIRECTORY_DATA_FILE ?? join(root, "directory.sqlite");
if (!existsSync(data)) {
  console.log(`no data file at ${data}: building it first`);
  await $`${process.execPath} ${join(root, "scripts/build-data.ts")} --out ${data} --no-coverage`.cwd(root);
}
// the parcel store: the staged inputs of ../shared/data/parcels when present, else an empty store (no parcel data)
const parcels = process.env.DIRECTORY_PARCELS__FILE ?? join(root, "parcels.sqlite");
if (!existsSync(parcels)) {
  console.log(`no parcel store at ${parcels}: loading the staged parcel inputs`);
  const { loadStaged } = await import("../src/parcels/staged");
  await loadStaged({ projectRoot: root, sharedData: join(root, "../shared/data"), store: parcels });
}
const serve = Bun.spawn(
  [process.execPath, join(root, "src/cli/main.ts"), "serve", "--data", data, ...process.argv.slice(2)],
  { cwd: root, stdio: ["inherit", "inherit", "inherit"] },
);
process.exit(await serve.exited);
