/** Texts of the domain screens, in es, en and ca. */
export const domain = { es: {}, en: {}, ca: {} };
