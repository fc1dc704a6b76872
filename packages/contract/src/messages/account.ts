/** Server messages of the account area, in es, en and ca. */
export const account = { es: {}, en: {}, ca: {} };
