/** Texts of the dns screens, in es, en and ca. */
export const dns = { es: {}, en: {}, ca: {} };
