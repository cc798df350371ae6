import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    assetsDir: 'assets',
    sourcemap: true,
    // scripts/build.mjs measures every chunk's gzip size itself (scripts/bundle-report.mjs).
    reportCompressedSize: false,
    // In kB, minified. Vite's 500 kB default flags three chunks that are as small as they get: swagger-ui's
    // prebuilt ES bundle (~1.5 MB, only the API docs page loads it), AG Grid Community (~790 kB, only the grid
    // screens, only the modules used) and the entry (~510 kB: react-dom, Chakra; react-router loads after sign-in). Splitting them
    // further adds requests without loading less; the first load is watched by the build's summary line
    // (initial JS gzip). 1600 still warns when a chunk grows past the largest one we have.
    chunkSizeWarningLimit: 1600,
  },
  server: { proxy: { '/api': 'http://localhost:8080' } },
});
