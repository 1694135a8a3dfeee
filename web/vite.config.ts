// The reference web client: `vite build --config web/vite.config.ts` writes web/dist, which the
// local server serves at http://localhost:4000/. `vite --config web/vite.config.ts` runs a dev
// server that forwards the API to a running `npm start`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const root = fileURLToPath(new URL('.', import.meta.url));
const api = process.env.API_URL ?? 'http://127.0.0.1:4000';

export default defineConfig({
  root,
  base: '/',
  logLevel: 'warn',
  build: { outDir: 'dist', emptyOutDir: true, target: 'es2022', sourcemap: true },
  server: { proxy: { '/graphql': api, '/games': api, '/health': api, '/push': { target: api, ws: true } } },
});
