/** Server messages of the dns area, in es, en and ca. */
export const dns = { es: {}, en: {}, ca: {} };
