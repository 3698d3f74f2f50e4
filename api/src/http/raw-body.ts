import type { Context } from 'koa';
import { ApiError, badRequest } from '../lib/errors.ts';

/**
 * 413 `payload_too_large`, answered with `Connection: close`: the rest of the body is never read, so the
 * connection cannot carry another request (on keep-alive, the next request would wait behind bytes nobody reads,
 * and a reverse proxy reusing the connection would give someone else's request that wait). Node closes the
 * connection once the answer is written. Every body reader refuses with this one (JSON bodies too: json-body.ts).
 */
export function payloadTooLarge(detail: string): ApiError {
  return new ApiError(413, 'payload_too_large', detail, { headers: { Connection: 'close' } });
}

/** A body that ended before its Content-Length, or whose connection dropped. */
export const bodyCutOff = () => badRequest('request_incomplete', 'The request body was cut off before its end.');

/**
 * The request body as bytes, at most `limit` of them; past it `payloadTooLarge(detail)`. A Content-Length over the
 * limit is refused before a byte is read; otherwise reading stops at the first chunk past the limit (nothing more is
 * kept or read). The stream is paused, never destroyed: destroying it mid-body leaves the connection open with the
 * rest of the body unread.
 */
export function readRawBody(ctx: Context, limit: number, detail: string): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (declared > limit) return Promise.reject(payloadTooLarge(detail));
  const req = ctx.req;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (err: Error | null) => {
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (err) {
        req.pause();
        reject(err);
      } else resolve(Buffer.concat(chunks, size));
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) finish(payloadTooLarge(detail));
      else chunks.push(chunk);
    };
    const onEnd = () => finish(null);
    const onError = () => finish(bodyCutOff());
    const onClose = () => finish(bodyCutOff());
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}
