/**
 * A driver whose module loads with its first call: for the backends only some installations
 * configure (an EPP registry), so a panel on the local drivers never loads their code, and one
 * that configures them loads it when the first call (or the first poll) comes, not at start
 * (docs/decisions/060-lazy-areas-and-bounded-memory.md; lazy-modules.test.ts keeps it so).
 *
 * `known` holds the members that must answer at once (a registry's `policy`); `methods` names every
 * async method, each a real member of the answer that calls the loaded driver's (so `in`, spies
 * and a missing method behave as on the driver itself). `close` before any call closes nothing:
 * nothing was opened.
 */
export function lazyDriver<T extends object, K extends keyof T>(
  known: Pick<T, K>,
  methods: Record<Exclude<keyof T, K>, true>,
  load: () => Promise<T>,
): T {
  let loaded: Promise<T> | undefined;
  const driver = () => {
    loaded ??= load();
    return loaded;
  };
  type Method = (...args: unknown[]) => Promise<unknown>;
  const lazy: Record<string, unknown> = { ...known };
  for (const name of Object.keys(methods)) {
    lazy[name] =
      name === 'close'
        ? async () => (loaded ? ((await loaded) as { close?: Method }).close?.() : undefined)
        : async (...args: unknown[]) => ((await driver()) as Record<string, Method>)[name](...args);
  }
  return lazy as T;
}
