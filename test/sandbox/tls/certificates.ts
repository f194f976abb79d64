// Certificates made at test time with @peculiar/x509 (X.509 over Node's WebCrypto, no openssl process):
// a certificate authority, server and client certificates it signs, and the bad ones the tests need
// (self-signed, expired, for another host, from an authority nobody trusts). ECDSA P-256 keys: made
// in milliseconds, so every sandbox makes its own authority at start. @peculiar/x509 resolves its parts
// through tsyringe, which needs the reflect-metadata polyfill loaded first.
import 'reflect-metadata';
import { createPrivateKey, webcrypto } from 'node:crypto';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

const ALGORITHM = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' };
const DAY_MS = 24 * 60 * 60 * 1000;

/** A certificate and its private key, both PEM (the key unencrypted PKCS#8). */
export interface KeyPair {
  cert: string;
  key: string;
}

export interface LeafOptions {
  /** Host names and IP addresses the certificate names (subjectAltName); the first is its common name. */
  hosts?: string[];
  /** A client certificate (extendedKeyUsage clientAuth) instead of a server one. */
  client?: { commonName: string };
  notBefore?: Date;
  notAfter?: Date;
}

async function newKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(ALGORITHM, true, ['sign', 'verify'])) as CryptoKeyPair;
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  const der = Buffer.from(await webcrypto.subtle.exportKey('pkcs8', key));
  return `-----BEGIN PRIVATE KEY-----\n${der.toString('base64').replace(/.{1,64}/g, '$&\n')}-----END PRIVATE KEY-----\n`;
}

const isIp = (host: string) => /^[\d.]+$/.test(host) || host.includes(':');

function leafExtensions(options: LeafOptions): x509.Extension[] {
  const hosts = options.hosts ?? ['127.0.0.1', 'localhost'];
  return [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
    new x509.ExtendedKeyUsageExtension([options.client ? x509.ExtendedKeyUsage.clientAuth : x509.ExtendedKeyUsage.serverAuth]),
    ...(options.client ? [] : [new x509.SubjectAlternativeNameExtension(hosts.map((host) => ({ type: (isIp(host) ? 'ip' : 'dns') as x509.GeneralNameType, value: host })))]),
  ];
}

function validity(options: LeafOptions): { notBefore: Date; notAfter: Date } {
  const now = Date.now();
  return { notBefore: options.notBefore ?? new Date(now - DAY_MS), notAfter: options.notAfter ?? new Date(now + 30 * DAY_MS) };
}

function commonName(options: LeafOptions): string {
  return `CN=${options.client?.commonName ?? (options.hosts ?? ['127.0.0.1'])[0]}`;
}

/** A certificate authority made now; `cert` is what a client is told to trust (a CA file). */
export class TestAuthority {
  private constructor(
    private readonly keys: CryptoKeyPair,
    private readonly certificate: x509.X509Certificate,
    readonly cert: string,
  ) {}

  static async create(name = 'Tenant API sandbox CA'): Promise<TestAuthority> {
    const keys = await newKeys();
    const certificate = await x509.X509CertificateGenerator.createSelfSigned({
      name: `CN=${name}`,
      notBefore: new Date(Date.now() - DAY_MS),
      notAfter: new Date(Date.now() + 365 * DAY_MS),
      signingAlgorithm: ALGORITHM,
      keys,
      extensions: [
        new x509.BasicConstraintsExtension(true, 0, true),
        new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
        await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      ],
    });
    return new TestAuthority(keys, certificate, certificate.toString('pem'));
  }

  /** A server certificate for `hosts` (default 127.0.0.1 and localhost), or a client certificate, signed by this authority. */
  async issue(options: LeafOptions = {}): Promise<KeyPair> {
    const keys = await newKeys();
    const certificate = await x509.X509CertificateGenerator.create({
      subject: commonName(options),
      issuer: this.certificate.subject,
      ...validity(options),
      signingAlgorithm: ALGORITHM,
      publicKey: keys.publicKey,
      signingKey: this.keys.privateKey,
      extensions: [...leafExtensions(options), await x509.AuthorityKeyIdentifierExtension.create(this.certificate)],
    });
    return { cert: certificate.toString('pem'), key: await privateKeyPem(keys.privateKey) };
  }
}

/** A server certificate that signs itself (no authority vouches for it). */
export async function selfSignedCertificate(options: LeafOptions = {}): Promise<KeyPair> {
  const keys = await newKeys();
  const certificate = await x509.X509CertificateGenerator.createSelfSigned({
    name: commonName(options),
    ...validity(options),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: leafExtensions(options),
  });
  return { cert: certificate.toString('pem'), key: await privateKeyPem(keys.privateKey) };
}

/** The key encrypted with `passphrase` (PKCS#8, AES-256-CBC), as a client key usually is. */
export function encryptKey(keyPem: string, passphrase: string): string {
  return createPrivateKey(keyPem).export({ format: 'pem', type: 'pkcs8', cipher: 'aes-256-cbc', passphrase }).toString();
}
