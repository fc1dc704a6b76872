/** Texts of the foundation; each feature adds its own file and registers it in locales/index.ts (screens) or locales/boot.ts (start-up). */
export const core = {
  es: { 'main.loading': 'Cargando…', 'main.app_name': 'Panel de control' },
  en: { 'main.loading': 'Loading…', 'main.app_name': 'Control panel' },
  ca: { 'main.loading': 'Carregant…', 'main.app_name': 'Tauler de control' },
};
