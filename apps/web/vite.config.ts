import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';
import { startupGroups } from './chunks.ts';

export default defineConfig({
  plugins: [react(), precompress()],
  server: { proxy: { '/p247': { target: 'http://localhost:8080', ws: true } } },
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 400,
    // The contract's modules only declare schemas and tables: what the SPA does not use (the zod
    // schemas of the server's routes) must not reach the sign-in bundle.
    rolldownOptions: {
      treeshake: { moduleSideEffects: (id: string) => !id.includes('/packages/contract/') },
      output: {
        codeSplitting: {
          groups: startupGroups({
            entry: fileURLToPath(new URL('./src/main.tsx', import.meta.url)),
            panel: fileURLToPath(new URL('./src/app/App.tsx', import.meta.url)),
          }),
        },
      },
    },
  },
});
