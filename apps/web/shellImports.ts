import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const shim = (file: string) => fileURLToPath(new URL(`./shims/${file}`, import.meta.url));

/**
 * Two imports inside Mantine that put whole libraries into the panel's chunk (decision 011):
 * - ScrollArea (through Table, the dashboard's expiry card) imports one small hook, `useMergeRefs`,
 *   from `@floating-ui/react`; bundled by module, that brought all of Floating UI (≈ 15 KB brotli,
 *   none of it run on a first render) into the chunk every signed-in page loads first;
 * - AppShell's header, footer and aside import `react-remove-scroll` for two class names, which
 *   brought the scroll lock itself (≈ 4 KB) along.
 * Those importers get a module of ours instead (shims/); every other importer (Popover, Tooltip,
 * Menu, Modal…) keeps the libraries, which now load with the screens that use them.
 */
export const SHIMS: { source: string; file: string; importers: string[] }[] = [
  { source: '@floating-ui/react', file: shim('mergeRefs.ts'), importers: ['ScrollArea/ScrollArea.mjs'] },
  {
    source: 'react-remove-scroll',
    file: shim('removeScrollClasses.ts'),
    importers: [
      'AppShell/AppShellHeader/AppShellHeader.mjs',
      'AppShell/AppShellFooter/AppShellFooter.mjs',
      'AppShell/AppShellAside/AppShellAside.mjs',
    ],
  },
];

/** Where `importer` (a Mantine component file, by absolute path) should take `source` from, or null. */
export function shimFor(source: string, importer: string | undefined): string | null {
  const file = importer?.replaceAll('\\', '/');
  const found = SHIMS.find((s) => s.source === source && s.importers.some((i) => file?.endsWith(`/@mantine/core/esm/components/${i}`)));
  return found?.file ?? null;
}

export function shellImports(): Plugin {
  return {
    name: 'atalaya-shell-imports',
    apply: 'build',
    enforce: 'pre',
    resolveId: (source, importer) => shimFor(source, importer),
  };
}
