import { fullWidthClassName, zeroRightClassName } from 'react-remove-scroll-bar/constants';

/**
 * Stands in for `react-remove-scroll` where Mantine's AppShell header, footer and aside import it
 * (shellImports.ts): they only read the two class names that keep fixed bars clear of the
 * scrollbar while a modal locks the page, which come from the same constants as the library's.
 */
export const RemoveScroll = { classNames: { fullWidth: fullWidthClassName, zeroRight: zeroRightClassName } };
