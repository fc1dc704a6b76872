/** Expired when expireTS (Unix seconds) times 1000 is before now. */
export const isExpired = (expireTS: number, now = Date.now()) => expireTS * 1000 < now;

/** A date in the user's language (Catalan months included). */
export const formatDate = (ts: number, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(ts * 1000));

export const formatDateTime = (ts: number, language: string) =>
  new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ts * 1000));
