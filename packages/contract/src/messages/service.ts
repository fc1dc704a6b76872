/** Server messages of the service area, in es, en and ca. */
export const service = { es: {}, en: {}, ca: {} };
