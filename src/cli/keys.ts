// `directory keys create --tier standard|partner [--label TEXT] | revoke KEY_ID | list`: API keys in the state store
// (the state file, or PostgreSQL shared by every replica: config state_store).
import type { Config } from "../config/config";
import type { Tier } from "../state/store";
import { openStateStore } from "../state/open";
import type { StateStore } from "../state/store";
import { commandNamed, str, usageOf, type Parsed } from "./commands";

export async function runKeys(cfg: Config, p: Parsed): Promise<number> {
  const [sub, id, ...more] = p.positionals;
  const usage = (why: string) => {
    console.error(`error: keys: ${why}\n${usageOf(commandNamed("keys")!)}`);
    return 2;
  };
  const withStore = async (f: (store: StateStore) => Promise<number>) => {
    const store = openStateStore(cfg);
    try {
      return await f(store);
    } finally {
      await store.close();
    }
  };
  if (sub === "create") {
    const tier = str(p.values.tier) as Tier | undefined;
    if (!tier) return usage("create needs --tier standard|partner");
    if (id !== undefined) return usage(`unexpected argument "${id}"`);
    return withStore(async (store) => {
      const { key, key_id } = await store.keys.create(tier, str(p.values.label) ?? "");
      console.log(`key_id ${key_id} (${tier})\n${key}\nThe key is shown once; only its hash is stored.`);
      return 0;
    });
  }
  if (sub === "revoke") {
    if (!id) return usage("revoke needs KEY_ID");
    if (more.length) return usage(`unexpected argument "${more[0]}"`);
    return withStore(async (store) => {
      if (!(await store.keys.revoke(id))) {
        console.error(`no live key with key_id ${id}`);
        return 1;
      }
      console.log(`revoked ${id}`);
      return 0;
    });
  }
  if (sub === "list") {
    if (id !== undefined) return usage(`unexpected argument "${id}"`);
    return withStore(async (store) => {
      for (const k of await store.keys.list())
        console.log(
          `${k.key_id}\t${k.tier}\t${k.revoked_at ? `revoked ${k.revoked_at}` : "live"}\t${k.created_at}\t${k.label}`,
        );
      return 0;
    });
  }
  return usage(`unknown keys command "${sub}" (create, revoke or list)`);
}
