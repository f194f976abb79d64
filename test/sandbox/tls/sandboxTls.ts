// The sandbox's HTTPS: a certificate authority made at start, one server certificate for every server
// (127.0.0.1, localhost and the sandbox's host name), and with client certificates a client certificate
// whose key is encrypted. The files clients need go into a folder of their own, removed at close.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ServerAddress } from '../server';
import type { SandboxOptions, SandboxTls } from '../types';
import { encryptKey, TestAuthority } from './certificates';

export interface SandboxSecurity {
  address: ServerAddress;
  files?: SandboxTls;
  /** Removes the files. */
  remove(): void;
}

export async function sandboxSecurity(options: SandboxOptions): Promise<SandboxSecurity> {
  const hostName = options.hostName;
  if (!options.tls) return { address: { hostName }, remove: () => undefined };
  const authority = await TestAuthority.create();
  const server = await authority.issue({ hosts: ['127.0.0.1', 'localhost', ...(hostName && hostName !== '127.0.0.1' && hostName !== 'localhost' ? [hostName] : [])] });
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'tenant-api-sandbox-tls-'));
  const write = (name: string, text: string) => {
    const file = path.join(folder, name);
    fs.writeFileSync(file, text, { mode: 0o600 });
    return file;
  };
  const files: SandboxTls = { caFile: write('ca.pem', authority.cert), ca: authority.cert };
  const clientCertificates = typeof options.tls === 'object' && options.tls.clientCertificates === true;
  if (clientCertificates) {
    const client = await authority.issue({ client: { commonName: 'tenant-api sandbox client' } });
    const keyPassphrase = randomBytes(12).toString('base64url');
    files.client = { certFile: write('client.pem', client.cert), keyFile: write('client-key.pem', encryptKey(client.key, keyPassphrase)), keyPassphrase };
  }
  return {
    address: { hostName, tls: { ...server, ...(clientCertificates ? { clientCa: authority.cert } : {}) } },
    files,
    remove: () => fs.rmSync(folder, { recursive: true, force: true }),
  };
}
