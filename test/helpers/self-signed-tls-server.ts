/**
 * An HTTPS server on 127.0.0.1 with a certificate nobody trusts: self-signed, made for
 * the test run by the `openssl` command (no key or certificate is kept in the
 * repository). It answers every request with an empty JSON object, which no client
 * that checks certificates ever sees.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const haveOpenssl = spawnSync('openssl', ['version'], { encoding: 'utf8' }).status === 0;

export interface TlsServer {
  url: string;
  close(): Promise<void>;
}

export async function startSelfSignedTlsServer(): Promise<TlsServer> {
  const dir = mkdtempSync(join(tmpdir(), 'visibility-tls-'));
  try {
    const made = spawnSync(
      'openssl',
      [
        ...['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2'],
        ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
        ...['-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'],
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`openssl could not make a certificate: ${made.stderr}`);
    const server = createServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `https://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
