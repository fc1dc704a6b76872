/** The status light's colours. White text on these is above 4.5:1 (WCAG 2.1 AA): Mantine's green.9 was 4.36:1. */
export const VALID = '#1f6f31';
export const EXPIRED = '#c92a2a';
