import { foldText, type HostingApplication } from '@atalaya/contract';

/**
 * The catalogue filter, accent- and case-insensitive, over the category (its code and
 * its label in the user's language), the description, the short name and the full name.
 */
export function filterApps(apps: readonly HostingApplication[], query: string, categoryLabel: (category: string) => string) {
  const needle = foldText(query.trim());
  if (!needle) return [...apps];
  return apps.filter((app) =>
    foldText([app.category, categoryLabel(app.category), app.description, app.softName, app.fullName].join('\n')).includes(needle),
  );
}

/** The language select starts on the option matching the app language (Spanish or English). */
export function languageOption(options: readonly { value: string }[], language: string): string | undefined {
  const wanted = language === 'en' ? 'en' : 'es';
  return options.find((o) => o.value.toLowerCase().startsWith(wanted))?.value;
}

/** Sizes in MB with two decimals. */
export const sizeInMb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
