import type { Config } from '../config/config.ts';

/** The SPA's own images (apps/web/public): the default logos, which index.html also names as the icon. */
export const PUBLIC_IMAGE = /[/\\]assets[/\\]images[/\\][^/\\]+$/;

/**
 * Kept an hour without asking again. With `no-cache` every use of a logo was a revalidation: the
 * favicon's request put the mini logo in the cache, then the frame's <img>, the largest thing on a
 * phone's first paint of /admin/, waited one more round trip for a 304 (decision 011). An
 * operator's new file under the same name shows within the hour; a configured logo
 * (ATALAYA_LOGO, ATALAYA_LOGO_MINI) elsewhere is cached as its own server says.
 */
export const PUBLIC_IMAGE_CACHE = 'public, max-age=3600';

/**
 * The `Link` preload for the logo a page shows first: the sign-in page's large one, the frame's
 * mini one on every other page. The <img> is only drawn once the scripts have run; named with
 * the page, it downloads alongside them instead of a round trip after the first render.
 * A URL that could break out of the header's `<…>` is not preloaded (the <img> still loads it).
 */
export function logoPreload(company: Config['company'], pathname: string): string | null {
  const logo = /^\/login\/?$/.test(pathname) ? company.logo : company.logoMini;
  if (!/^[^\s<>"',;\\]+$/.test(logo)) return null;
  return `<${logo}>; rel=preload; as=image; fetchpriority=high`;
}
