/** Server messages of the domain area, in es, en and ca. */
export const domain = { es: {}, en: {}, ca: {} };
