import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { apiRoutes } from './apiRoutes.ts';
import { bootTexts } from './bootTexts.ts';
import { listStartup, startupGroups } from './chunks.ts';
import { precompress } from './precompress.ts';
import { shellImports } from './shellImports.ts';

const startup = fileURLToPath(new URL('./src/start.tsx', import.meta.url));
const bootModule = fileURLToPath(new URL('./src/locales/boot.ts', import.meta.url));

export default defineConfig({
  plugins: [react(), shellImports(), apiRoutes(), bootTexts(bootModule), precompress(), listStartup(startup)],
  server: { proxy: { '/p247': { target: 'http://localhost:8080', ws: true } } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    // The contract's modules only declare schemas and tables: what the SPA does not use (the zod
    // schemas of the server's routes) must not reach the sign-in bundle.
    rolldownOptions: {
      preserveEntrySignatures: false,
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/contract/') },
      output: {
        codeSplitting: {
          groups: startupGroups({
            startup,
            panel: [fileURLToPath(new URL('./src/app/App.tsx', import.meta.url))],
          }),
        },
      },
    },
  },
});
