// `directory keys create --tier standard|partner [--label TEXT] | revoke KEY_ID | list`: API keys in the state file.
import type { Config } from "../config/config";
import { openStateFile } from "../state/state-file";
import { KeyStore, type Tier } from "../state/keys";
import { commandNamed, str, usageOf, type Parsed } from "./commands";

export function runKeys(cfg: Config, p: Parsed): number {
  const [sub, id, ...more] = p.positionals;
  const usage = (why: string) => {
    console.error(`error: keys: ${why}\n${usageOf(commandNamed("keys")!)}`);
    return 2;
  };
  if (sub === "create") {
    const tier = str(p.values.tier) as Tier | undefined;
    if (!tier) return usage("create needs --tier standard|partner");
    if (id !== undefined) return usage(`unexpected argument "${id}"`);
    const store = new KeyStore(openStateFile(cfg.state_file));
    const { key, key_id } = store.create(tier, str(p.values.label) ?? "");
    console.log(`key_id ${key_id} (${tier})\n${key}\nThe key is shown once; only its hash is stored.`);
    return 0;
  }
  if (sub === "revoke") {
    if (!id) return usage("revoke needs KEY_ID");
    if (more.length) return usage(`unexpected argument "${more[0]}"`);
    const store = new KeyStore(openStateFile(cfg.state_file));
    if (!store.revoke(id)) {
      console.error(`no live key with key_id ${id}`);
      return 1;
    }
    console.log(`revoked ${id}`);
    return 0;
  }
  if (sub === "list") {
    if (id !== undefined) return usage(`unexpected argument "${id}"`);
    const store = new KeyStore(openStateFile(cfg.state_file));
    for (const k of store.list())
      console.log(
        `${k.key_id}\t${k.tier}\t${k.revoked_at ? `revoked ${k.revoked_at}` : "live"}\t${k.created_at}\t${k.label}`,
      );
    return 0;
  }
  return usage(`unknown keys command "${sub}" (create, revoke or list)`);
}
