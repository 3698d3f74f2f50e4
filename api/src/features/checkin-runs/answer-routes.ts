import Router from '@koa/router';
import type { Context } from 'koa';
import { randomBytes } from 'node:crypto';
import type { Deps } from '../../http/deps.ts';
import type { Middlewares } from '../../http/middlewares.ts';
import { readRawBody } from '../../http/raw-body.ts';
import { safeEqual } from '../../lib/secrets.ts';
import { ANSWER_PAGE_CSP, answerPage, forgeryPage, invalidPage, pickLanguage } from './answer-page.ts';
import { openAnswer, saveAnswer } from './answer-service.ts';
import type { FormValues } from './answer-service.ts';
import { ANSWER_PATH } from './tokens.ts';

const FORM_COOKIE = 'rollcall_answer_form';
const MAX_FORM_BYTES = 256 * 1024;

/** Headers of every answer page: no framing, no script, nothing cached or leaked through Referer. */
function pageHeaders(ctx: Context, status: number): void {
  ctx.status = status;
  ctx.type = 'text/html; charset=utf-8';
  ctx.set('Content-Security-Policy', ANSWER_PAGE_CSP);
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('Cache-Control', 'no-store');
}

/**
 * The anti-forgery value: a random value in a same-site, HTTP-only cookie, repeated in the form. A POST
 * answers only when both are present and equal (another site can neither read the cookie nor set it).
 */
function formKey(ctx: Context): string {
  const current = ctx.cookies.get(FORM_COOKIE);
  if (current && /^[0-9a-f]{32}$/.test(current)) return current;
  const fresh = randomBytes(16).toString('hex');
  ctx.cookies.set(FORM_COOKIE, fresh, { httpOnly: true, sameSite: 'strict', path: ANSWER_PATH, secure: ctx.protocol === 'https', overwrite: true });
  return fresh;
}

/** The urlencoded form, read here (the JSON body parser leaves other types alone), at most 256 KiB. */
async function readForm(ctx: Context): Promise<FormValues | null> {
  if (!ctx.is('application/x-www-form-urlencoded')) return null;
  const body = await readRawBody(ctx, MAX_FORM_BYTES, 'The form is larger than 256 KiB.');
  const values: FormValues = new Map();
  for (const [name, value] of new URLSearchParams(body.toString('utf8'))) {
    if (value.includes('\u0000')) return null;
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  return values;
}

/** `GET|POST /checkins/answer/{token}`: the answer page of a prompt's link (served by the API, not under /v1/). */
export function answerRoutes(deps: Deps, _mw: Middlewares): Router {
  const router = new Router();
  const path = `${ANSWER_PATH}:token`;

  router.get(path, async (ctx) => {
    const found = await openAnswer(deps.db, ctx.params.token, deps.clock.now());
    const lang = pickLanguage(ctx.query.lang, ctx.get('accept-language'), found.state === 'ok' ? found.view.person.language : null);
    if (found.state !== 'ok') {
      pageHeaders(ctx, 404);
      ctx.body = invalidPage(lang);
      return;
    }
    pageHeaders(ctx, 200);
    ctx.body = answerPage(lang, found.view, formKey(ctx));
  });

  router.post(path, async (ctx) => {
    const lang = pickLanguage(ctx.query.lang, ctx.get('accept-language'));
    const form = await readForm(ctx);
    const cookie = ctx.cookies.get(FORM_COOKIE);
    const sent = form?.get('form_key')?.[0];
    if (!form || !cookie || !sent || !safeEqual(cookie, sent)) {
      pageHeaders(ctx, 403);
      ctx.body = forgeryPage(lang, ctx.path);
      return;
    }
    const outcome = await saveAnswer(deps.db, deps.config, ctx.params.token, form, deps.clock.now());
    if (outcome.state === 'invalid') {
      pageHeaders(ctx, 404);
      ctx.body = invalidPage(lang);
      return;
    }
    const theirs = pickLanguage(ctx.query.lang, ctx.get('accept-language'), outcome.view.person.language);
    if (outcome.state === 'saved') {
      deps.delivery.kick();
      pageHeaders(ctx, 200);
      ctx.body = answerPage(theirs, outcome.view, cookie, { notice: 'saved' });
      return;
    }
    pageHeaders(ctx, outcome.state === 'closed' ? 409 : 400);
    ctx.body = answerPage(theirs, outcome.view, cookie, outcome.state === 'closed' ? { notice: 'closed' } : { problems: outcome.problems, unanswered: outcome.unanswered, submitted: form });
  });
  return router;
}
