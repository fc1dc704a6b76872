/** The sites area's tables; part of the store's Database type. */
// biome-ignore lint/complexity/noBannedTypes: filled in by the sites issue.
export type SitesTables = {};
