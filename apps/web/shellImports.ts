import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const shim = (file: string) => fileURLToPath(new URL(`./shims/${file}`, import.meta.url));

/**
 * Imports inside Mantine that weighed on the first load of every signed-in page (decision 011):
 * - ScrollArea (through Table, the dashboard's expiry card) imports one small hook, `useMergeRefs`,
 *   from `@floating-ui/react`; bundled by module, that brought all of Floating UI (none of it run on a first render) into the chunk every signed-in page loads first;
 * - AppShell's header, footer and aside import `react-remove-scroll` for two class names, which
 *   brought the scroll lock itself along;
 * - AppShell and its sections take `useId` from `@mantine/hooks`, whose swap to a random id after
 *   mount made the first commit of every signed-in page re-render synchronously (shims/appShellId.ts).
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
  {
    source: '@mantine/hooks',
    file: shim('appShellId.ts'),
    importers: [
      'AppShell/AppShell.mjs',
      'AppShell/AppShellHeader/AppShellHeader.mjs',
      'AppShell/AppShellNavbar/AppShellNavbar.mjs',
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
