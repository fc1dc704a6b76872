import { fileURLToPath } from 'node:url';

/**
 * Node's compile cache (decision 056) for every process a test run starts: vitest's forks, the
 * admin CLI and the servers, agents and registries the tests spawn. Each of them loads the same
 * few hundred modules (kysely alone is 258 files, and every .ts file is type-stripped); from the
 * cache a second start compiles none of them again, about half the CPU of `import app.ts`.
 * Set in the environment, so children inherit it; a folder of the checkout's own, never shared.
 */
export function useCompileCache() {
  process.env.NODE_COMPILE_CACHE ??= fileURLToPath(new URL('../.tmp/node-compile-cache', import.meta.url));
}
