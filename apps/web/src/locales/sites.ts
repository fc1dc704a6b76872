/** Texts of the sites, redirections and installer screens, in es, en and ca. */
export const sites = { es: {}, en: {}, ca: {} };
