/** Browser families by their user-agent token, most specific first (Edge and Opera also say Chrome). */
const FAMILIES: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, 'Edge'],
  [/\bOPR\/|\bOpera\b/, 'Opera'],
  [/\bFirefox\/|\bFxiOS\//, 'Firefox'],
  [/\bSamsungBrowser\//, 'Samsung Internet'],
  [/\b(Headless)?Chrom(e|ium)\/|\bCriOS\//, 'Chrome'],
  [/\bSafari\//, 'Safari'],
  [/^curl\//, 'curl'],
];

/**
 * The family of the browser behind a user agent (Firefox, Chrome, Safari…), not its version: a
 * browser that updates itself must not look new every month to the sign-in notice.
 */
export function agentFamily(userAgent: string | undefined): string {
  if (!userAgent) return '';
  return FAMILIES.find(([pattern]) => pattern.test(userAgent))?.[1] ?? 'Other';
}
