/**
 * A driver whose module loads with its first call: for the backends only some installations
 * configure (an EPP registry), so a panel on the local drivers never loads their code, and one
 * that configures them loads it when the first call (or the first poll) comes, not at start
 * (docs/decisions/060-lazy-areas-and-bounded-memory.md; lazy-modules.test.ts keeps it so).
 *
 * `known` holds the members that must answer at once (a registry's `policy`); every other member
 * is taken to be an async method of the loaded driver. `close` before any call closes nothing:
 * nothing was opened.
 */
export function lazyDriver<T extends object>(known: Partial<T>, load: () => Promise<T>): T {
  let loaded: Promise<T> | undefined;
  const driver = () => {
    loaded ??= load();
    return loaded;
  };
  type Method = (...args: unknown[]) => Promise<unknown>;
  return new Proxy(known as T, {
    get(target, name) {
      if (name in target) return (target as Record<PropertyKey, unknown>)[name];
      // Not a promise: `await driver` must give the driver, not call a `then` of the loaded one.
      if (name === 'then' || typeof name === 'symbol') return undefined;
      if (name === 'close') return async () => (loaded ? ((await loaded) as { close?: Method }).close?.() : undefined);
      return async (...args: unknown[]) => ((await driver()) as Record<string, Method>)[name](...args);
    },
  });
}
