/**
 * The steps of a free certificate's issuance (decision 019), in order; the job's progress is
 * `ACME_STEP_PROGRESS` of the step it is in, 100 when installed.
 */
export const ACME_STEPS = ['order', 'challenge', 'validation', 'finalisation', 'installation'] as const;
export type AcmeStep = (typeof ACME_STEPS)[number];
export const ACME_STEP_PROGRESS: Record<AcmeStep, number> = {
  order: 10,
  challenge: 30,
  validation: 50,
  finalisation: 70,
  installation: 90,
};
/** The step a progress figure stands for (the last one reached). */
export const acmeStepOf = (progress: number): AcmeStep =>
  [...ACME_STEPS].reverse().find((step) => progress >= ACME_STEP_PROGRESS[step]) ?? 'order';

/** Where a free certificate stands: never asked, being issued, issued, or the last attempt failed. */
export const ACME_STATUSES = ['off', 'working', 'done', 'failed'] as const;
export type AcmeStatus = (typeof ACME_STATUSES)[number];

/** Where a site's stored certificate came from. */
export const CERT_SOURCES = ['upload', 'acme'] as const;

/** Redirect types: permanent, temporary, and a frame that keeps the domain shown. */
export const REDIRECT_TYPES = ['301', '302', 'frame'] as const;
export type RedirectType = (typeof REDIRECT_TYPES)[number];

/** The 26 application categories. */
export const APP_CATEGORIES = [
  'blogs',
  'cms',
  'ecommerce',
  'forums',
  'socialnetworking',
  'educational',
  'erp',
  'video',
  'admanager',
  'galleries',
  'projectman',
  'files',
  'frameworks',
  'wikis',
  'mail',
  'customersupport',
  'others',
  'dbtools',
  'music',
  'polls',
  'libraries',
  'calendars',
  'games',
  'microblogs',
  'rss',
  'guestbooks',
] as const;
export type AppCategory = (typeof APP_CATEGORIES)[number];

export const APP_TYPES = ['php', 'js'] as const;
export type AppType = (typeof APP_TYPES)[number];

export const INSTALL_INPUT_TYPES = ['select', 'textarea', 'checkbox', 'hidden', 'text'] as const;
export type InstallInputType = (typeof INSTALL_INPUT_TYPES)[number];

/** Config inputs of the installer travel as `config_<name>` next to the wizard's own fields. */
export const INSTALL_INPUT_PREFIX = 'config_';

export const SITES_LIMITS = {
  /** Each PEM field (certificate, key, chain): the most a pasted or uploaded PEM may hold. */
  pemMax: 64 * 1024,
  folderMax: 255,
  siteNameMax: 200,
  originMax: 255,
  urlMax: 2048,
  iframeTitleMax: 200,
  iframeDescriptionMax: 500,
  iframeKeywordsMax: 500,
  subpathMax: 200,
  installInputMax: 2000,
  /** Certificates with more names than this are refused before any name matching. */
  certNamesMax: 1000,
  /** How often the SPA polls a running installation. */
  installPollMs: 1000,
} as const;
