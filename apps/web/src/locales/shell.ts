/** Texts of the shell screens, in es, en and ca. */
export const shell = { es: {}, en: {}, ca: {} };
