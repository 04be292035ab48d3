// STACK_HTTPS=1: identity (the end user's page and the API it calls) over HTTPS on the local network, so a
// phone can open a process link and use its camera (browsers give the camera to HTTPS pages and localhost
// only). A TLS proxy on 0.0.0.0:<STACK_HTTPS_PORT, 8443> in front of identity, with a self-signed
// certificate made by Debian's openssl at start for this machine's addresses (kept in .stack/keys/ and
// made again when the addresses change). The phone shows a certificate warning once: accept it.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import { networkInterfaces } from 'node:os';
import path from 'node:path';

import { StackError } from './util.mjs';

/** This machine's IPv4 addresses on its networks (not loopback). */
export function lanAddresses() {
  return Object.values(networkInterfaces())
    .flat()
    .filter((a) => a && a.family === 'IPv4' && !a.internal)
    .map((a) => a.address);
}

/** The certificate for localhost and `addresses` (made with openssl when missing or for other addresses). */
async function certificate(dir, addresses) {
  const key = path.join(dir, 'https-key.pem');
  const cert = path.join(dir, 'https-cert.pem');
  const names = path.join(dir, 'https-names.json');
  const wanted = JSON.stringify(['localhost', '127.0.0.1', ...addresses]);
  if (!existsSync(cert) || !existsSync(names) || (await readFile(names, 'utf8')) !== wanted) {
    await mkdir(dir, { recursive: true });
    const san = ['DNS:localhost', 'IP:127.0.0.1', ...addresses.map((a) => `IP:${a}`)].join(',');
    try {
      execFileSync(
        'openssl',
        [
          'req',
          '-x509',
          '-newkey',
          'rsa:2048',
          '-nodes',
          '-days',
          '365',
          '-subj',
          '/CN=kyc local stack',
          '-addext',
          `subjectAltName=${san}`,
          '-keyout',
          key,
          '-out',
          cert,
        ],
        { stdio: 'ignore' },
      );
    } catch (err) {
      throw new StackError(`STACK_HTTPS: openssl could not make the certificate (apt-get install openssl): ${err}`);
    }
    await writeFile(names, wanted, { mode: 0o600 });
  }
  return { key: await readFile(key), cert: await readFile(cert) };
}

/**
 * Starts the TLS proxy to `target` (identity's http://127.0.0.1:<port>). Resolves with its URLs (one per
 * address of this machine) and stop(). X-Forwarded-* name the phone and https (identity trusts loopback).
 */
export async function startHttpsProxy({ dir, port, target, log }) {
  const addresses = lanAddresses();
  const tls = await certificate(dir, addresses);
  const upstream = new URL(target);
  const server = https.createServer(tls, (req, res) => {
    const forwarded = {
      ...req.headers,
      host: upstream.host,
      'x-forwarded-for': req.socket.remoteAddress ?? '',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': req.headers.host ?? '',
    };
    const out = http.request(
      { hostname: upstream.hostname, port: upstream.port, path: req.url, method: req.method, headers: forwarded },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('identity is not answering');
    });
    req.pipe(out);
  });
  await new Promise((resolve, reject) => {
    server.once('error', (err) => reject(new StackError(`STACK_HTTPS: port ${port} is taken (${err.message})`)));
    server.listen(port, '0.0.0.0', resolve);
  });
  const urls = [...addresses, 'localhost'].map((a) => `https://${a}:${port}`);
  log(`HTTPS for phones on the local network: ${urls.join(', ')} -> ${target}`);
  return { urls, url: urls[0], stop: () => new Promise((resolve) => server.close(() => resolve())) };
}
