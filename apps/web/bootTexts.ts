import { pathToFileURL } from 'node:url';
import type { Plugin } from 'vite';

/** `virtual:atalaya/boot-texts-es` (en, ca): start-up's texts in one language (lib/startupCalls.ts loads them). */
export const BOOT_TEXTS_PREFIX = 'virtual:atalaya/boot-texts-';
const LANGUAGES = ['es', 'en', 'ca'];

/**
 * Start-up's texts (`bootModule`, locales/boot.ts: every language of each file side by side) cut
 * into one module per language, so the sign-in page downloads only the visitor's, not all three
 * (decision 011). A build evaluates the texts once and writes
 * each language's as JSON; the dev server and the tests pick the language from the real module
 * at run time, so an edited text shows at once.
 */
export function bootTexts(bootModule: string): Plugin {
  let build = false;
  return {
    name: 'atalaya-boot-texts',
    configResolved(config) {
      build = config.command === 'build';
    },
    resolveId: (id) => (id.startsWith(BOOT_TEXTS_PREFIX) ? `\0${id}` : null),
    async load(id) {
      if (!id.startsWith(`\0${BOOT_TEXTS_PREFIX}`)) return null;
      const language = id.slice(BOOT_TEXTS_PREFIX.length + 1);
      if (!LANGUAGES.includes(language)) throw new Error(`${id}: no such language`);
      if (!build)
        return `import { BOOT_TEXTS, merge } from ${JSON.stringify(bootModule)};\nexport default merge(BOOT_TEXTS).${language};\n`;
      this.addWatchFile(bootModule);
      const { BOOT_TEXTS, merge } = await import(pathToFileURL(bootModule).href);
      return `export default ${JSON.stringify(merge(BOOT_TEXTS)[language])};\n`;
    },
  };
}
