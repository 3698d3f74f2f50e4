import type { Context } from 'koa';
import { ApiError } from '../lib/errors.ts';

/**
 * A request's body as its bytes, at most `maxBytes` (413 past it), for the routes that read their own body:
 * raw MIME, forms, and requests signed over their exact bytes (the JSON body parser leaves those alone:
 * `Feature.rawBodyPaths`).
 */
export async function readRawBody(ctx: Context, maxBytes: number, what = 'The request body'): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new ApiError(413, 'payload_too_large', `${what} is larger than ${maxBytes >= 1024 * 1024 ? `${maxBytes / (1024 * 1024)} MiB` : `${maxBytes / 1024} KiB`}.`);
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
