// `npm start` runs this first (prestart): builds the web client into web/dist with Vite when
// the build is missing or older than its sources. Offline and quick (about a second).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const web = fileURLToPath(new URL('.', import.meta.url));
const built = join(web, 'dist', 'index.html');

function newest(path) {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(s.mtimeMs, ...readdirSync(path).map((f) => newest(join(path, f))));
}

const sources = ['index.html', 'vite.config.ts', 'src'].map((p) => join(web, p));
if (!existsSync(built) || Math.max(...sources.map(newest)) > statSync(built).mtimeMs) {
  const { build } = await import('vite');
  await build({ configFile: join(web, 'vite.config.ts'), logLevel: 'warn' });
  console.log('web client built into web/dist');
}
