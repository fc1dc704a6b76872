/** Texts of the service screens, in es, en and ca. */
export const service = { es: {}, en: {}, ca: {} };
