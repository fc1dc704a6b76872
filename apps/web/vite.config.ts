import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  server: { proxy: { '/p247': { target: 'http://localhost:8080', ws: true } } },
  build: { target: 'es2022', chunkSizeWarningLimit: 400 },
});
