import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: true,
    // Bundle report: vite prints every chunk with its gzip size.
    reportCompressedSize: true,
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
