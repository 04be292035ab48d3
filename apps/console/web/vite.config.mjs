// The console's single-page application, built by tools/build.mjs into dist/apps/console/web
// (served by the console's backend-for-frontend, apps/console/src/web/web.controller.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');

/** @type {import('vite').UserConfig} */
export default {
  root: here,
  base: '/',
  logLevel: 'warn',
  plugins: [react()],
  resolve: { alias: { '@kyc/client': path.join(root, 'libs/client/src/index.ts') } },
  build: {
    outDir: path.join(root, 'dist/apps/console/web'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 900,
  },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:4000' } },
};
