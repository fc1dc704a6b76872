/** The account area's tables; part of the store's Database type. */
// biome-ignore lint/complexity/noBannedTypes: filled in by the account issue.
export type AccountTables = {};
