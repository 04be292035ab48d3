// A round-robin HTTP proxy for bench/checks-scale.mjs (a Kubernetes Service over pods, on one
// machine): forked by the scenario, it reports { ready, port } and takes its targets as
// { targets: [url, ...] } messages; keep-alive to the targets, one agent for all.
import http from 'node:http';

const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
let targets = [];
let next = 0;

const server = http.createServer((req, res) => {
  if (!targets.length) return res.writeHead(503).end();
  const target = targets[next++ % targets.length];
  const upstream = http.request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers, agent },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502);
    res.end();
  });
  req.pipe(upstream);
});
server.keepAliveTimeout = 30_000;

process.on('message', (msg) => {
  if (Array.isArray(msg?.targets)) {
    targets = msg.targets.map((t) => new URL(t));
    next = 0;
    process.send({ targets: targets.length });
  }
});
server.listen(0, '127.0.0.1', () => process.send({ ready: true, port: server.address().port }));
