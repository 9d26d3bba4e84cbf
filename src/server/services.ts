/** The services the GraphQL backends need: the runtime services plus the token signing keys. */
import { checkSharedKeys } from './auth/keyCheck.ts';
import { type KeyRing, loadKeyRing } from './auth/keys.ts';
import type { Clock } from './jobs/clock.ts';
import { getServices, type Services } from './runtime.ts';

/** Runtime services plus both backends' signing keys. */
export interface ApiServices extends Services {
  keys: KeyRing;
  /** The clock that alarm evaluation reads (the worker's injectable one); the wall clock when unset. */
  clock?: Clock;
}

const KEY = Symbol.for('tenant-app.api-services');
type Holder = { [KEY]?: Promise<ApiServices> };

/** The process-wide API services; keys are loaded (or generated into DATA_DIR) and checked on first use. */
export function getApiServices(): Promise<ApiServices> {
  const holder = globalThis as Holder;
  holder[KEY] ??= (async () => {
    const services = await getServices();
    const keys = await loadKeyRing(services.config);
    // Several processes on PostgreSQL must share keys; refused here when they cannot (auth/keyCheck.ts).
    await checkSharedKeys(services.database, services.config, keys);
    return { ...services, keys };
  })();
  return holder[KEY];
}
