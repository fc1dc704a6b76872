import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { precompress } from './precompress.ts';

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
      // The libraries every screen needs travel as one file: on a phone, Lighthouse measured 82 instead
      // of 77 on /login/ (fewer round trips), although the file also holds the shell's Mantine parts.
      output: {
        codeSplitting: {
          groups: [{ name: 'vendor', test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next|@mantine[\\/](core|hooks|store))[\\/]/ }],
        },
      },
    },
  },
});
