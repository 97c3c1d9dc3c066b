import type { Config } from "../config/config";
import { openStateFile } from "../state/state-file";
import { KeyStore, type Tier } from "../state/keys";
import { flag } from "./main";

export function runKeys(cfg: Config, args: string[]): number {
  const store = new KeyStore(openStateFile(cfg.state_file));
  const sub = args[0];
  if (sub === "create") {
    const tier = flag(args, "tier") as Tier;
    const label = flag(args, "label") ?? "";
    const { key, key_id } = store.create(tier, label);
    console.log(`key_id ${key_id} (${tier})\n${key}\nThe key is shown once; only its hash is stored.`);
    return 0;
  }
  if (sub === "revoke") {
    const id = args[1];
    if (!id || !store.revoke(id)) {
      console.error(`no live key with key_id ${id ?? ""}`);
      return 1;
    }
    console.log(`revoked ${id}`);
    return 0;
  }
  if (sub === "list") {
    for (const k of store.list())
      console.log(
        `${k.key_id}\t${k.tier}\t${k.revoked_at ? `revoked ${k.revoked_at}` : "live"}\t${k.created_at}\t${k.label}`,
      );
    return 0;
  }
  console.error("usage: keys create --tier standard|partner --label TEXT | keys revoke KEY_ID | keys list");
  return 2;
}
