import type { Rolldown } from 'vite';

type ChunkingContext = Rolldown.ChunkingContext;

/**
 * The app's modules (under src/) that `root` reaches through static imports, minus `except`.
 * Libraries and the contract are left out: they are reached through index files that import
 * everything, and join a group only through what its modules really use (below).
 */
function staticClosure(ctx: ChunkingContext, root: string, except: ReadonlySet<string> = new Set()) {
  const src = root.slice(0, root.lastIndexOf('/src/') + 5);
  const seen = new Set<string>();
  const todo = [root];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    if (seen.has(id) || except.has(id) || !id.startsWith(src)) continue;
    seen.add(id);
    todo.push(...(ctx.getModuleInfo(id)?.importedIds ?? []));
  }
  return seen;
}

/**
 * Two files instead of some forty small ones (each a round trip on a phone, DESIGN §8):
 * - `startup`: everything main.tsx imports statically, which is exactly what the sign-in page
 *   needs (React, the Mantine parts of the form, i18next, TanStack Query, the shell's texts);
 * - `panel`: what app/App.tsx adds for every other page (the router, the shell's frame, the
 *   screens' texts).
 * A screen's own code stays in its lazy chunk. A group that matched modules by package name
 * instead (the former `vendor`) dragged every Mantine component of every screen into the sign-in page.
 */
export function startupGroups({ entry, panel }: { entry: string; panel: string }) {
  let sets: { startup: Set<string>; panel: Set<string> } | undefined;
  const setsOf = (ctx: ChunkingContext) => {
    if (!sets) {
      const startup = staticClosure(ctx, entry);
      sets = { startup, panel: staticClosure(ctx, panel, startup) };
      // main.tsx stays in its own small entry file: it awaits the panel's chunk at the top level,
      // and that chunk imports from `startup`, which must therefore have finished evaluating.
      startup.delete(entry);
    }
    return sets;
  };
  // The app's own modules pick the group; the libraries follow the modules that use them
  // (`includeDependenciesRecursively`), after tree-shaking, and the start-up group claims first.
  return [
    { debugName: 'startup', priority: 2, name: (id: string, ctx: ChunkingContext) => (setsOf(ctx).startup.has(id) ? 'startup' : null) },
    { debugName: 'panel', priority: 1, name: (id: string, ctx: ChunkingContext) => (setsOf(ctx).panel.has(id) ? 'panel' : null) },
  ];
}
