import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A load balancer for tests: an HTTP proxy on 127.0.0.1 that sends each request to the next backend in turn,
 * skipping one that refuses the connection (a process being restarted) or that has none yet (null). `backends[i]` may be replaced while it
 * runs; `served[i]` counts the requests each one answered.
 */
export async function startRoundRobinProxy(backends: (string | null)[]) {
  const served = backends.map(() => 0);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });
  let next = 0;

  function forward(req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, tries: number): void {
    const index = next++ % backends.length;
    const backend = backends[index];
    if (!backend) return tries > 0 ? forward(req, body, res, tries - 1) : void res.writeHead(502).end();
    const upstream = http.request(`${backend}${req.url}`, { method: req.method, headers: req.headers, agent }, (answer) => {
      served[index]++;
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    // Only a refused connection is tried elsewhere: a request that reached a backend may have done its work.
    upstream.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNREFUSED' && tries > 0 ? forward(req, body, res, tries - 1) : res.destroy()));
    upstream.end(body);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => forward(req, Buffer.concat(chunks), res, backends.length * 3));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    backends,
    served,
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
