import { useMergedRef } from '@mantine/hooks';
import type { Ref, RefCallback } from 'react';

/**
 * Stands in for `@floating-ui/react`'s `useMergeRefs` where Mantine's ScrollArea imports it
 * (shellImports.ts): one callback ref that sets every ref given, through Mantine's own hook.
 */
export function useMergeRefs<T>(refs: Array<Ref<T> | undefined>): RefCallback<T> {
  return useMergedRef(...refs);
}
