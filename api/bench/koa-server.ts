import Koa from 'koa';

/**
 * The framework floor: Koa (our fixed HTTP framework) answering the same JSON /v1/me/ answers, with nothing of
 * ours: no auth, rate limit, routing, logging or metrics. Its ratio to the bare node:http server is the most the
 * full stack could reach on this machine.
 */
const body = JSON.parse(process.env.BARE_BODY ?? '{}') as unknown;
const app = new Koa();
app.use((ctx) => {
  ctx.body = body;
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address() as { port: number };
  process.stdout.write(`listening ${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
