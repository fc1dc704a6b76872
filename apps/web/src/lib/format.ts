/** Expired when expireTS (Unix seconds) times 1000 is before now. */
export const isExpired = (expireTS: number, now = Date.now()) => expireTS * 1000 < now;

/**
 * One formatter per language and style, made on first use. Making an Intl.DateTimeFormat costs far
 * more than formatting with one: the dashboard's and the lists' rows made one per date, which held
 * the first render of /admin/ on a slow phone.
 */
function formatterCache(options: Intl.DateTimeFormatOptions) {
  const made = new Map<string, Intl.DateTimeFormat>();
  return (language: string) => {
    let formatter = made.get(language);
    if (!formatter) {
      formatter = new Intl.DateTimeFormat(language, options);
      made.set(language, formatter);
    }
    return formatter;
  };
}

const dateFormat = formatterCache({ dateStyle: 'medium', timeZone: 'UTC' });
const dateTimeFormat = formatterCache({ dateStyle: 'medium', timeStyle: 'short' });

/** A date in the user's language (Catalan months included). */
export const formatDate = (ts: number, language: string) => dateFormat(language).format(new Date(ts * 1000));

export const formatDateTime = (ts: number, language: string) => dateTimeFormat(language).format(new Date(ts * 1000));
