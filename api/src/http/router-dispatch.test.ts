import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import { describe, expect, it } from 'vitest';
import { dispatchByPathPrefix, exactRoutes } from './router-dispatch.ts';

/** Routers shaped like the app's: router-level middleware, shared prefixes, one route with a parameter first. */
function routers(): Router[] {
  const teams = new Router();
  teams.use(async (ctx, next) => {
    ctx.set('X-Teams-Middleware', 'ran');
    await next();
  });
  teams.get('/v1/teams/', (ctx) => (ctx.body = { router: 'teams' }));
  teams.delete('/v1/teams/:uuid/', (ctx) => (ctx.body = { router: 'teams', uuid: ctx.params.uuid }));
  // A router.param() check, a named route, two routes for one path (the first passes on), a router.use() that
  // reads what routing set.
  teams.param('uuid', (uuid, ctx, next) => (uuid === 'bad' ? ((ctx.status = 422), (ctx.body = { bad: uuid })) : next()));
  teams.get('team', '/v1/teams/:uuid/', (ctx) => (ctx.body = { router: 'teams', uuid: ctx.params.uuid, name: ctx.routerName, route: ctx._matchedRoute }));
  teams.put('/v1/teams/:uuid/', async (ctx, next) => {
    ctx.set('X-First', String(ctx.params.uuid));
    await next();
  });
  teams.put('/v1/teams/:uuid/', (ctx) => (ctx.body = { second: ctx.params.uuid, route: ctx._matchedRoute, path: ctx.routerPath }));
  // A static path a parameterised route of the same router answers first.
  teams.get('/v1/teams/search/', (ctx) => (ctx.body = { router: 'teams', search: true }));
  const checkins = new Router();
  // ctx.matched may differ by router.use() layers of routers that were skipped (they carry no method, so
  // allowedMethods cannot see them): what is compared is the methods it holds.
  checkins.use(async (ctx, next) => {
    await next();
    const methods = [...new Set((ctx.matched ?? []).flatMap((layer) => layer.methods))].sort();
    ctx.set('X-Checkins-Saw', JSON.stringify({ route: ctx._matchedRoute ?? null, params: ctx.params ?? null, methods }));
  });
  checkins.get('/v1/checkins/', (ctx) => (ctx.body = { router: 'checkins' }));
  checkins.get('/v1/teams/:uuid/checkins/', (ctx) => (ctx.body = { router: 'checkins', team: ctx.params.uuid }));
  checkins.get('/v1/teams/:uuid/checkins/:day', async (ctx, next) => {
    if (ctx.params.day === 'pass') return next();
    ctx.body = { router: 'checkins', team: ctx.params.uuid, day: ctx.params.day };
  });
  checkins.get('/v1/teams/:uuid/checkins/:day', (ctx) => (ctx.body = { passed: ctx.params, captures: ctx.captures }));
  const anywhere = new Router();
  anywhere.get('/:tenant/status', (ctx) => (ctx.body = { router: 'anywhere', tenant: ctx.params.tenant }));
  const meta = new Router();
  meta.get('/healthz', (ctx) => (ctx.body = { router: 'meta' }));
  // A static path two routers declare: the first answers.
  meta.get('/v1/checkins/', (ctx) => (ctx.body = { router: 'meta', shadowed: true }));
  return [teams, checkins, anywhere, meta];
}

async function serve(mount: (app: Koa, list: Router[]) => void) {
  const app = new Koa();
  app.use(async (ctx, next) => {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) ctx.body = { error: 404 };
    } catch (err) {
      ctx.status = (err as { status?: number }).status ?? 500;
      ctx.body = { error: ctx.status };
    }
  });
  const list = routers();
  mount(app, list);
  app.use(list[0].allowedMethods({ throw: true }));
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('dispatchByPathPrefix', () => {
  it('answers every request exactly as the routers chained one after another', async () => {
    const chained = await serve((app, list) => list.forEach((router) => app.use(router.routes())));
    const dispatched = await serve((app, list) => app.use(dispatchByPathPrefix(list)));
    // The frame's way (http/frame.ts): a static route by lookup, the rest by matching.
    const looked = await serve((app, list) => {
      const table = exactRoutes(list);
      const matched = dispatchByPathPrefix(list);
      app.use((ctx, next) => (table.get(`${ctx.method} ${ctx.path.toLowerCase()}`)?.run ?? matched)(ctx, next));
    });
    const requests: [string, string][] = [
      ['GET', '/v1/teams/'],
      ['GET', '/V1/Teams/'],
      ['DELETE', '/v1/teams/t1/'],
      ['POST', '/v1/teams/'],
      ['GET', '/v1/teams/t1/checkins/'],
      ['GET', '/v1/checkins/'],
      ['PUT', '/v1/checkins/'],
      ['GET', '/acme/status'],
      ['GET', '/v1/status'],
      ['GET', '/healthz'],
      ['GET', '/v1/nothing/'],
      ['GET', '/'],
      ['GET', '//v1/teams/'],
      ['GET', '/v1/teams/t1/'],
      ['GET', '/v1/teams/bad/'],
      ['PUT', '/v1/teams/t2/'],
      ['PATCH', '/v1/teams/t2/'],
      ['GET', '/v1/teams/t1/checkins/2026-01-02'],
      ['GET', '/v1/teams/t1/checkins/pass'],
      ['GET', '/v1/teams/bad/checkins/'],
      ['GET', '/v1/teams/%E2%9C%93/'],
      ['GET', '/v1/teams'],
      ['GET', '/v1//teams/'],
      ['GET', '/V1/TEAMS/T1/CHECKINS/'],
      ['GET', '/v1/'],
      ['GET', '/v1/teams/search/'],
      ['HEAD', '/v1/teams/'],
      ['GET', '/HEALTHZ'],
    ];
    try {
      for (const [method, path] of requests) {
        const [a, b, c] = await Promise.all(
          [chained, dispatched, looked].map(async ({ url }) => {
            const res = await fetch(url + path, { method });
            const seen = ['allow', 'x-teams-middleware', 'x-first', 'x-checkins-saw'].map((name) => res.headers.get(name));
            return { status: res.status, seen, body: await res.text() };
          }),
        );
        expect({ method, path, ...b }).toEqual({ method, path, ...a });
        expect({ method, path, ...c }).toEqual({ method, path, ...a });
      }
    } finally {
      await chained.close();
      await dispatched.close();
      await looked.close();
    }
  });

  it('looks up only the static paths exactly one route answers', () => {
    const keys = [...exactRoutes(routers()).keys()].sort();
    expect(keys).toEqual(['GET /healthz', 'GET /v1/teams/', 'HEAD /healthz', 'HEAD /v1/teams/']);
  });
});
