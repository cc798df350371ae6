#!/usr/bin/env node
// A connection balancer for the bench stack: what a Kubernetes Service or
// compose's DNS round robin gives the gateway in front of several processes
// of one service. Each new connection goes to the next backend; a backend
// that refuses is skipped (tried once each, as nginx's stream proxy with
// proxy_next_upstream does). It never reads the bytes: GET /health through it
// is a backend's answer.
// Usage: node tcp-balancer.mjs <listen port> <backend port>...
import { createConnection, createServer } from 'node:net';

const [listenPort, ...backendPorts] = process.argv.slice(2).map(Number);
if (!listenPort || backendPorts.length === 0) {
  console.error('usage: tcp-balancer.mjs <listen port> <backend port>...');
  process.exit(2);
}
let next = 0;

function connect(client, tries) {
  const port = backendPorts[next++ % backendPorts.length];
  const upstream = createConnection({ host: '127.0.0.1', port });
  upstream.setNoDelay(true);
  const onConnectError = () => {
    upstream.destroy();
    if (tries + 1 < backendPorts.length) connect(client, tries + 1);
    else client.destroy();
  };
  upstream.once('error', onConnectError);
  upstream.once('connect', () => {
    upstream.off('error', onConnectError);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
    client.resume();
  });
}

const server = createServer({ pauseOnConnect: true, noDelay: true }, (client) => connect(client, 0));
server.listen(listenPort, '127.0.0.1');
const stop = () => {
  server.close(() => process.exit(0));
  // Keep-alive connections would hold close() open.
  setTimeout(() => process.exit(0), 2000).unref();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
