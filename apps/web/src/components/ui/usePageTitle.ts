import { useEffect } from 'react';
import { useSiteConfig } from '../../lib/siteConfig.ts';

/** docs/behaviour/shell-session-domains.md#navigation-guard: '{section} / {company}' ('{company} / Login' on the sign-in page: pass `companyFirst`). */
export function usePageTitle(section: string | undefined, companyFirst = false) {
  const company = useSiteConfig()?.company ?? 'Atalaya';
  useEffect(() => {
    if (!section) return;
    document.title = companyFirst ? `${company} / ${section}` : `${section} / ${company}`;
  }, [section, company, companyFirst]);
}
