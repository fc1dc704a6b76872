import { useId as useReactId } from 'react';

export { useMergedRef } from '@mantine/hooks';

/**
 * Mantine's `useId` as AppShell and its sections use it (shellImports.ts), without the swap to a
 * random id after mount: that swap is a state update in a layout effect, which made React re-render
 * the frame synchronously and run every effect of the page inside the first commit, one long task
 * on a phone. The id is the one Mantine's hook gives on the first render; AppShell uses it for a
 * style selector and its sections for their resize handles, only in the resizable and static
 * modes, which the panel does not use.
 */
export function useId(staticId?: string): string {
  const reactId = useReactId();
  return typeof staticId === 'string' ? staticId : `mantine-${reactId.replace(/:/g, '')}`;
}
