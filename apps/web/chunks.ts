import type { Plugin, Rolldown } from 'vite';

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
 * Two files instead of some forty small ones (each a round trip on a phone, docs/design.md#budgets):
 * - `startup`: everything start.tsx imports statically, which is exactly what the sign-in page
 *   needs (React, the Mantine parts of the form, TanStack Query, the shell's texts);
 * - `panel`: what app/App.tsx adds for every other page (the router, the areas' texts), with
 *   the signed-in frame, which every page but the sign-in one shows, and the dashboard. As route
 *   chunks they were some twenty files fetched only once the router ran, a round trip after the
 *   panel; then stub files re-exporting them from this chunk, two more requests. The router now
 *   imports them statically and hands them to its routes' `lazy` (app/router.tsx, decision 011).
 * Other screens' code stays in their lazy chunks. A group that matched modules by package name
 * instead (the former `vendor`) dragged every Mantine component of every screen into the sign-in page.
 */
export function startupGroups({ startup: entry, panel }: { startup: string; panel: string[] }) {
  let sets: { startup: Set<string>; panel: Set<string> } | undefined;
  const setsOf = (ctx: ChunkingContext) => {
    if (!sets) {
      const startup = staticClosure(ctx, entry);
      sets = { startup, panel: new Set(panel.flatMap((root) => [...staticClosure(ctx, root, startup)])) };
    }
    return sets;
  };
  // The app's own modules pick the group; the libraries follow the modules that use them
  // (`includeDependenciesRecursively`), after tree-shaking, and the start-up group claims first.
  return [
    // Vite's helper for import() stays a file of its own: main.tsx imports it statically, and
    // main.tsx must not wait for `startup` before it asks for the panel.
    { name: 'preload', test: /preload-helper/, priority: 3 },
    { debugName: 'startup', priority: 2, name: (id: string, ctx: ChunkingContext) => (setsOf(ctx).startup.has(id) ? 'startup' : null) },
    { debugName: 'panel', priority: 1, name: (id: string, ctx: ChunkingContext) => (setsOf(ctx).panel.has(id) ? 'panel' : null) },
  ];
}

/**
 * main.tsx only imports start.tsx dynamically (so the panel can be fetched at the same time); the
 * HTML still lists start.tsx's files and stylesheet, since every page needs them: /login/ pays no
 * extra round trip.
 */
export function listStartup(startup: string): Plugin {
  return {
    name: 'atalaya-list-startup',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, ctx) {
        const chunks = new Map(
          Object.values(ctx.bundle ?? {}).flatMap((file) => (file.type === 'chunk' ? [[file.fileName, file] as const] : [])),
        );
        const root = [...chunks.values()].find((chunk) => chunk.facadeModuleId === startup);
        if (!root) throw new Error(`no chunk for ${startup}`);
        const files = new Set<string>();
        const css = new Set<string>();
        const visit = (fileName: string) => {
          const chunk = chunks.get(fileName);
          if (!chunk || files.has(fileName)) return;
          files.add(fileName);
          for (const file of chunk.viteMetadata?.importedCss ?? []) css.add(file);
          for (const file of chunk.imports) visit(file);
        };
        visit(root.fileName);
        return [
          ...[...files]
            .filter((href) => !html.includes(href))
            .map((href) => ({
              tag: 'link',
              attrs: { rel: 'modulepreload', crossorigin: true, href: `/${href}` },
              injectTo: 'head' as const,
            })),
          ...[...css].map((href) => ({
            tag: 'link',
            attrs: { rel: 'stylesheet', crossorigin: true, href: `/${href}` },
            injectTo: 'head' as const,
          })),
        ];
      },
    },
  };
}
