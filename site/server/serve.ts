/**
 * A small static file server for the built site, so what the tests see is what a host serves:
 *  - applies the rules of <dir>/_headers (the Netlify / Cloudflare Pages format the build writes)
 *  - serves /<lang>/404.html for unknown addresses under /<lang>/, /404.html elsewhere, with status 404
 *  - directory addresses need their trailing slash (redirect otherwise), like the hosts
 *  - ETag / If-None-Match revalidation
 *  - with `api` (the preview sets it): the API server's own pages the site links to (/docs, /v1/…) redirect
 *    there, or, when nothing answers at that address, get a page saying how to start it; in the API
 *    container the API answers them itself and the site handler never sees them
 *
 * Use: `npm run preview -w site` (PORT, HOST, SITE_DIR), or import { startServer } (tests, API container).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createReadStream, existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.gif': 'image/gif',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

export interface HeaderRule {
  pattern: RegExp;
  headers: [string, string][];
}

/**
 * Parse a _headers file: an unindented path pattern, then indented "Name: value" lines. "*" matches any
 * run of characters (the "splat") and ":name" one path segment, as on Netlify and Cloudflare Pages.
 */
export function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    if (!raw.trim() || raw.trim().startsWith('#')) continue;
    if (!/^\s/.test(raw)) {
      const source = raw.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/:\w+/g, '[^/]+');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
    } else if (rules.length) {
      const colon = raw.indexOf(':');
      if (colon > 0) rules.at(-1)!.headers.push([raw.slice(0, colon).trim(), raw.slice(colon + 1).trim()]);
    }
  }
  return rules;
}

export function headersFor(rules: readonly HeaderRule[], path: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rule of rules) {
    if (!rule.pattern.test(path)) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      // Both hosts join repeated headers from several matching rules with a comma.
      out[key] = out[key] ? `${out[key]}, ${value}` : value;
    }
  }
  return out;
}

export interface ServeOptions {
  dir: string;
  port?: number;
  host?: string;
  /** Address of the Rollcall API for /docs and /v1/… (see apiRedirect). */
  api?: string;
}

/** Where the preview and `astro dev` send /docs and /v1/…: API_URL, else the API's default address. */
export const DEFAULT_API = 'http://localhost:8080';

/** The API server's paths the site links to: the reference (/docs) and everything under /v1/. */
export const API_PATH = /^\/(docs|v1)(\/|$)/;

/**
 * A preview serves the site alone, so its links to the API server's pages (/docs, /v1/openapi.json) would
 * be 404s. This handler sends them to the API at `api` (307, same path and query) when something answers
 * there, and otherwise answers 503 with a page naming the address, how to start the API and API_URL.
 */
export function apiRedirect(api: string) {
  const base = api.replace(/\/+$/, '');
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const target = `${base}${req.url ?? '/'}`;
    try {
      await fetch(target, { method: 'HEAD', redirect: 'manual', signal: AbortSignal.timeout(2000) });
      res.writeHead(307, { location: target, 'cache-control': 'no-store' }).end();
    } catch {
      const body =
        `<!doctype html><html lang="en"><meta charset="utf-8"><title>The Rollcall API is not running</title>` +
        `<body style="font:16px/1.6 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem">` +
        `<h1>The Rollcall API is not running</h1><p>This preview serves the site alone. <code>${escapeHtml(req.url ?? '/')}</code> ` +
        `is a page of the Rollcall API server, and nothing answers at <code>${escapeHtml(base)}</code>.</p>` +
        `<p>Start the API in another terminal with <code>npm start</code>, or point the preview at a running one: ` +
        `<code>API_URL=https://rollcall.example.com npm run preview -w site</code>.</p></body></html>`;
      res.writeHead(503, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(req.method === 'HEAD' ? undefined : body);
    }
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

export interface RunningServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

function fileAt(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

export function createHandler(dir: string) {
  const root = resolve(dir);
  const headersPath = join(root, '_headers');
  const rules = existsSync(headersPath) ? parseHeaders(readFileSync(headersPath, 'utf8')) : [];

  function send(req: IncomingMessage, res: ServerResponse, file: string, stats: Stats, status: number, urlPath: string) {
    const etag = `"${stats.size.toString(16)}-${stats.mtimeMs.toString(16)}"`;
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
      etag,
      ...headersFor(rules, urlPath),
    };
    if (status === 200 && req.headers['if-none-match'] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    headers['content-length'] = String(stats.size);
    res.writeHead(status, headers);
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  }

  function notFound(req: IncomingMessage, res: ServerResponse, urlPath: string) {
    const lang = /^\/([a-z]{2})\//.exec(urlPath)?.[1];
    for (const candidate of [lang && `${lang}/404.html`, '404.html']) {
      if (!candidate) continue;
      const file = join(root, candidate);
      const stats = fileAt(file);
      if (stats?.isFile()) return send(req, res, file, stats, 404, urlPath);
    }
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
  }

  return (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    let urlPath: string;
    try {
      urlPath = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400).end();
      return;
    }
    const file = resolve(root, `.${urlPath}`);
    // Never leave the site folder, and never serve the hosting control files themselves.
    if ((file !== root && !file.startsWith(root + sep)) || /\/_(headers|redirects)$/.test(urlPath)) {
      return notFound(req, res, urlPath);
    }
    const stats = fileAt(file);
    if (stats?.isFile()) return send(req, res, file, stats, 200, urlPath);
    if (stats?.isDirectory()) {
      if (!urlPath.endsWith('/')) {
        const query = req.url?.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
        res.writeHead(301, { location: `${urlPath}/${query}` }).end();
        return;
      }
      const index = join(file, 'index.html');
      const indexStats = fileAt(index);
      if (indexStats?.isFile()) return send(req, res, index, indexStats, 200, urlPath);
    }
    notFound(req, res, urlPath);
  };
}

/** Start serving `dir`; port 0 picks a free port. Resolves once listening. */
export function startServer({ dir, port = 4321, host = '127.0.0.1', api }: ServeOptions): Promise<RunningServer> {
  const site = createHandler(dir);
  const toApi = api ? apiRedirect(api) : null;
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    // Only addresses the build has no file for: a site that ships its own /docs keeps it.
    if (toApi && API_PATH.test(path) && !existsSync(resolve(dir, `.${path}`))) void toApi(req, res);
    else site(req, res);
  });
  return new Promise((resolveStart, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const address = server.address();
      const actual = typeof address === 'object' && address ? address.port : port;
      resolveStart({
        server,
        url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

// `node server/serve.ts`: serve SITE_DIR (default: the build in ./dist).
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dir = process.env.SITE_DIR ?? fileURLToPath(new URL('../dist/', import.meta.url));
  if (!existsSync(join(dir, 'index.html'))) {
    console.error(`No built site in ${dir}: run \`npm run build -w site\` first (or set SITE_DIR).`);
    process.exit(1);
  }
  const api = process.env.API_URL || DEFAULT_API;
  const running = await startServer({ dir, port: Number(process.env.PORT ?? 4321), host: process.env.HOST ?? '127.0.0.1', api });
  console.log(`Serving ${dir} at ${running.url}/ (/docs and /v1/… go to the API at ${api}; set API_URL to change it)`);
}
