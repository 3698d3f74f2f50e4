import type { Context, Middleware } from 'koa';

/** The answer of a step that had nothing to wait for: one settled promise shared by every request. */
export const DONE: Promise<void> = Promise.resolve();

/**
 * Middlewares one after another, as koa-compose runs them (each gets `next`, which runs the rest), except that a
 * step which returns no promise costs none: `next()` then returns `DONE`, so the frame (http/frame.ts) sees that
 * nothing is pending and answers without a promise hop. A synchronous throw stays synchronous; every caller
 * (the frame, `await next()` in a middleware) catches it either way.
 */
export function inOrder(middlewares: readonly Middleware[]): Middleware {
  const count = middlewares.length;
  if (count === 1) {
    const [only] = middlewares;
    return (ctx, next) => settled(only(ctx, next));
  }
  return (ctx, next) => {
    let last = -1;
    const run = (i: number): Promise<unknown> => {
      if (i <= last) throw new Error('next() called multiple times');
      last = i;
      if (i === count) return next ? settled(next()) : DONE;
      return settled(middlewares[i](ctx as Context, () => run(i + 1)));
    };
    return run(0);
  };
}

/** What a step returned, as the promise its caller may chain on: its own promise (or thenable), else DONE. */
function settled(result: unknown): Promise<unknown> {
  if (result instanceof Promise) return result;
  return typeof (result as { then?: unknown } | undefined)?.then === 'function' ? Promise.resolve(result) : DONE;
}
