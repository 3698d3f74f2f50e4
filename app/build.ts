/**
 * Builds the web app into dist/ (or OUT_DIR): one HTML page for every address under /app/, hashed scripts and
 * styles under /app/assets/, the Plan board split into its own chunk (loaded when a board opens), so sign-in and
 * "today" stay light. esbuild does it in well under a second, so `npm start` builds on every start and the app
 * is never older than the checkout. Prints the compressed size of what the first page loads.
 */
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.resolve(process.env.OUT_DIR ?? path.join(here, 'dist'));

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  entryPoints: { app: path.join(here, 'src/main.tsx') },
  bundle: true,
  splitting: true,
  format: 'esm',
  target: ['es2022'],
  outdir: path.join(out, 'assets'),
  publicPath: '/app/assets/',
  entryNames: '[name]-[hash]',
  chunkNames: 'chunk-[hash]',
  assetNames: '[name]-[hash]',
  minify: true,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  metafile: true,
  legalComments: 'linked',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
});

const outputs = Object.entries(result.metafile.outputs);
const entry = outputs.find(([, o]) => o.entryPoint?.endsWith('src/main.tsx'))!;
const name = (file: string) => path.basename(file);
const script = name(entry[0]);
const style = entry[1].cssBundle ? name(entry[1].cssBundle) : null;
// The entry's static imports load with it: preload them so the first page needs one round trip.
const preloads = entry[1].imports.filter((i) => i.kind === 'import-statement').map((i) => name(i.path));

/** Writes `content` into assets/ under a name with its hash (cached for a year like the scripts); answers the name. */
function hashed(name: string, content: Buffer | string): string {
  const ext = path.extname(name);
  const file = `${path.basename(name, ext)}-${createHash('sha256').update(content).digest('hex').slice(0, 8)}${ext}`;
  writeFileSync(path.join(out, 'assets', file), content);
  return file;
}
// The icons (public/, drawn by icons.ts from the site's mark) and the manifest that lets a phone install the app.
const icons = Object.fromEntries(readdirSync(path.join(here, 'public')).map((f) => [f, hashed(f, readFileSync(path.join(here, 'public', f)))]));
const manifest = hashed(
  'manifest.webmanifest',
  JSON.stringify({
    name: 'Rollcall',
    short_name: 'Rollcall',
    start_url: '/app/',
    scope: '/app/',
    display: 'standalone',
    background_color: '#f5f6f8',
    theme_color: '#0b5cad',
    icons: [
      { src: `/app/assets/${icons['icon.svg']}`, type: 'image/svg+xml', sizes: 'any' },
      { src: `/app/assets/${icons['icon-192.png']}`, type: 'image/png', sizes: '192x192' },
      { src: `/app/assets/${icons['icon-512.png']}`, type: 'image/png', sizes: '512x512' },
      { src: `/app/assets/${icons['icon-maskable-512.png']}`, type: 'image/png', sizes: '512x512', purpose: 'maskable' },
    ],
  }),
);

writeFileSync(
  path.join(out, 'index.html'),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<meta name="theme-color" content="#f5f6f8" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="#111318" media="(prefers-color-scheme: dark)">
<title>Rollcall</title>
<link rel="icon" href="/app/assets/${icons['icon.svg']}" type="image/svg+xml">
<link rel="apple-touch-icon" href="/app/assets/${icons['icon-180.png']}">
<link rel="manifest" href="/app/assets/${manifest}">
${style ? `<link rel="stylesheet" href="/app/assets/${style}">\n` : ''}${preloads.map((p) => `<link rel="modulepreload" href="/app/assets/${p}">\n`).join('')}<script type="module" src="/app/assets/${script}"></script>
</head>
<body>
<div id="app"><noscript>Rollcall's web app needs JavaScript.</noscript></div>
</body>
</html>
`,
);

// Compressed once here, so the server sends .br or .gz as the browser accepts without compressing per request.
for (const file of readdirSync(path.join(out, 'assets'))) {
  if (!/\.(js|css)$/.test(file)) continue;
  const source = readFileSync(path.join(out, 'assets', file));
  writeFileSync(path.join(out, 'assets', `${file}.gz`), gzipSync(source, { level: 9 }));
  writeFileSync(path.join(out, 'assets', `${file}.br`), brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}

const gz = (file: string) => gzipSync(readFileSync(path.join(out, 'assets', file))).length;
const first = [script, ...preloads].reduce((sum, f) => sum + gz(f), 0) + (style ? gz(style) : 0);
if (!process.env.QUIET) console.log(`app built into ${path.relative(process.cwd(), out) || '.'}: first page ${(first / 1024).toFixed(1)} KB gzipped (script and style)`);
