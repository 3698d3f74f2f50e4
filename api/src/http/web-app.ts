import type { Context, Next } from 'koa';
import { createReadStream, existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The web app's pages (CSP): scripts, styles, images and API calls from this origin only; no inline script or
 * style, no plugin, no framing, forms post nowhere else. The app renders user-written text as sanitized HTML
 * (DOMPurify), and this policy is the second wall should anything slip through.
 */
export const APP_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

/** The .br or .gz copy of `file` the request's Accept-Encoding takes (brotli first), when the build wrote one. */
function precompressed(file: string, accept: string): { name: string; path: string; size: number } | null {
  for (const [name, ext] of [['br', '.br'], ['gzip', '.gz']] as const) {
    if (!new RegExp(`\\b${name}\\b`).test(accept) || !existsSync(file + ext)) continue;
    return { name, path: file + ext, size: statSync(file + ext).size };
  }
  return null;
}

/**
 * The web app at /app/ (a single-page app built by `npm run build -w app` into `dir`): hashed assets under
 * /app/assets/ are cached for a year; every other address under /app/ is the app's one page (its router reads
 * the path), never cached, with the CSP above. When the app is not built, /app/ says how to build it.
 */
export function serveWebApp(dir: string) {
  const root = path.resolve(dir);
  const assets = path.join(root, 'assets');
  // Not async: every other request passes through without a promise of its own.
  return function webApp(ctx: Context, next: Next): Promise<void> {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
    if (ctx.path === '/app') return Promise.resolve(ctx.redirect('/app/'));
    // Invitation e-mails sent before 1.8.0 linked to /invitations/accept?token=…: the app's page accepts them.
    if (ctx.path === '/invitations/accept' || ctx.path === '/invitations/accept/') return Promise.resolve(ctx.redirect(`/app/invitations/accept${ctx.search}`));
    return ctx.path.startsWith('/app/') ? Promise.resolve(serve(ctx)) : next();
  };

  function serve(ctx: Context): void {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'same-origin');
    if (ctx.path.startsWith('/app/assets/')) {
      const file = path.join(assets, path.normalize(ctx.path.slice('/app/assets/'.length)));
      const stat = file.startsWith(assets + path.sep) && existsSync(file) ? statSync(file) : null;
      if (!stat?.isFile()) {
        ctx.status = 404;
        ctx.body = 'Not found.';
        return;
      }
      ctx.type = TYPES[path.extname(file)] ?? 'application/octet-stream';
      ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
      // The build writes .br and .gz beside each script and stylesheet: send the smallest the browser takes.
      const encoding = precompressed(file, ctx.get('Accept-Encoding'));
      if (encoding) ctx.set('Content-Encoding', encoding.name);
      if (encoding || existsSync(`${file}.gz`)) ctx.vary('Accept-Encoding');
      ctx.length = encoding?.size ?? stat.size;
      ctx.body = ctx.method === 'HEAD' ? null : createReadStream(encoding?.path ?? file);
      return;
    }
    ctx.set('Content-Security-Policy', APP_CSP);
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Cache-Control', 'no-cache');
    const index = path.join(root, 'index.html');
    if (!existsSync(index)) {
      ctx.status = 503;
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `The web app is not built. Run \`npm run build -w app\` (npm start does it), or set APP_DIR to a built copy.\n`;
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = readFileSync(index);
  }
}
