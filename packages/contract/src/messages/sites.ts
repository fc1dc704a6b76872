/** Server messages of the sites area, in es, en and ca. */
export const sites = { es: {}, en: {}, ca: {} };
