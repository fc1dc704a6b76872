/** The dns area's tables; part of the store's Database type. */
// biome-ignore lint/complexity/noBannedTypes: filled in by the dns issue.
export type DnsTables = {};
