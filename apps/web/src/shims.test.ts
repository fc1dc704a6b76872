import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useMergeRefs as floatingMergeRefs } from '@floating-ui/react';
import { useId as mantineUseId } from '@mantine/hooks';
import { createElement, type Ref, type RefCallback } from 'react';
import { renderToString } from 'react-dom/server';
import { RemoveScroll } from 'react-remove-scroll';
import { describe, expect, it } from 'vitest';
import { SHIMS, shimFor } from '../shellImports.ts';
import * as appShellId from '../shims/appShellId.ts';
import * as mergeRefs from '../shims/mergeRefs.ts';
import * as removeScrollClasses from '../shims/removeScrollClasses.ts';

const MANTINE = path.resolve(import.meta.dirname, '../../../node_modules/@mantine/core');
const shimOf = { [SHIMS[0].file]: mergeRefs, [SHIMS[1].file]: removeScrollClasses, [SHIMS[2].file]: appShellId } as Record<string, object>;

/** What a merged ref does to its refs when React attaches a node and then detaches it. */
function effects(useMerge: (refs: Array<Ref<object> | undefined>) => RefCallback<object> | null) {
  const object: { current: object | null } = { current: null };
  const seen: (object | null)[] = [];
  const callback = (node: object | null) => {
    seen.push(node);
  };
  let merged: RefCallback<object> | null = null;
  renderToString(
    createElement(() => {
      merged = useMerge([undefined, object, callback]);
      return null;
    }),
  );
  const node = {};
  const cleanup = (merged as unknown as RefCallback<object>)(node);
  const attached = { object: object.current === node, seen: [...seen] };
  if (typeof cleanup === 'function') cleanup();
  else (merged as unknown as RefCallback<object>)(null);
  return { attached, detached: { object: object.current, seen } };
}

describe("Mantine's imports that would put whole libraries into the panel (shellImports.ts)", () => {
  it('are still made by those Mantine files, and only of what the stand-ins provide', () => {
    for (const { source, file, importers } of SHIMS) {
      for (const importer of importers) {
        const mantineFile = path.join(MANTINE, 'esm/components', importer);
        const code = readFileSync(mantineFile, 'utf8');
        const names = [...code.matchAll(new RegExp(`import \\{([^}]*)\\} from "${source}"`, 'g'))].flatMap((m) =>
          m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]),
        );
        expect(names.length, importer).toBeGreaterThan(0);
        for (const name of names) expect(Object.keys(shimOf[file]), `${importer}: ${name}`).toContain(name);
        expect(shimFor(source, mantineFile)).toBe(file);
      }
    }
  });

  it('leave every other importer with the real libraries', () => {
    expect(shimFor('@floating-ui/react', path.join(MANTINE, 'esm/components/Popover/use-popover.mjs'))).toBeNull();
    expect(shimFor('react-remove-scroll', path.join(MANTINE, 'esm/components/ModalBase/ModalBase.mjs'))).toBeNull();
    expect(shimFor('react', path.join(MANTINE, 'esm/components/ScrollArea/ScrollArea.mjs'))).toBeNull();
  });
  it('give the same class names as react-remove-scroll', () => {
    expect(removeScrollClasses.RemoveScroll.classNames).toEqual(RemoveScroll.classNames);
  });

  it("merge refs as Floating UI's useMergeRefs does: set each ref to the node, then back to null", () => {
    const ours = effects(mergeRefs.useMergeRefs);
    const theirs = effects(floatingMergeRefs as never);
    expect(ours).toEqual(theirs);
    expect(ours.attached).toEqual({ object: true, seen: [expect.any(Object)] });
    expect(ours.detached).toEqual({ object: null, seen: [expect.any(Object), null] });
  });

  it("give AppShell the id Mantine's useId gives on the first render, or the one passed", () => {
    const idOf = (useId: (staticId?: string) => string, staticId?: string) => {
      let id = '';
      renderToString(
        createElement(() => {
          id = useId(staticId);
          return null;
        }),
      );
      return id;
    };
    expect(idOf(appShellId.useId)).toBe(idOf(mantineUseId));
    expect(idOf(appShellId.useId)).toMatch(/^mantine-\S+$/);
    expect(idOf(appShellId.useId, 'shell')).toBe(idOf(mantineUseId, 'shell'));
  });
});
