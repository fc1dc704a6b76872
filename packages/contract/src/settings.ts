export const LANGUAGES = ['es', 'en', 'ca'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'es';
export const toLanguage = (value: unknown): Language =>
  (LANGUAGES as readonly unknown[]).includes(value) ? (value as Language) : DEFAULT_LANGUAGE;

export const THEMES = ['system', 'light', 'dark'] as const;
export type Theme = (typeof THEMES)[number];

/** The 22 named palette colours (Tailwind-style names, as Mantine and PrimeReact palettes use). */
export const PALETTE = [
  'emerald',
  'green',
  'lime',
  'red',
  'orange',
  'amber',
  'yellow',
  'teal',
  'cyan',
  'sky',
  'blue',
  'indigo',
  'violet',
  'purple',
  'fuchsia',
  'pink',
  'rose',
  'slate',
  'gray',
  'zinc',
  'neutral',
  'stone',
] as const;
export type PaletteColor = (typeof PALETTE)[number];
export const DEFAULT_COLOR: PaletteColor = 'indigo';
export const toColor = (value: unknown): PaletteColor =>
  (PALETTE as readonly unknown[]).includes(value) ? (value as PaletteColor) : DEFAULT_COLOR;

/** Business constants: the #constants sections of docs/behaviour/. */
export const LIMITS = {
  toastMs: 5000,
  escapeWindowMs: 200,
  fadeDelayMs: 400,
  addressDebounceMs: 200,
  copyConfirmMs: 2000,
  langCookieDays: 1,
  pageSize: 10,
  skeletonDelayMs: 400,
  appFilterDebounceMs: 300,
  /** A paged list's filter is sent once typing pauses this long (one request, not one per key). */
  listFilterDebounceMs: 250,
  generatedPasswordLength: 14,
  ftpUserMax: 10,
  /** A mailbox's quota in MB (1 TB). */
  mailQuotaMbMax: 1_048_576,
  autoreplySubjectMax: 200,
  autoreplyTextMax: 4000,
  /** RFC 5230 lets a server cap the days between replies; a year is plenty. */
  autoreplyDaysMax: 365,
  passwordMin: 10,
  passwordMax: 128,
  dnsServersMin: 2,
  dnsServersMax: 7,
  summaryItems: 2,
} as const;
