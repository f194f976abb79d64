import { createHash, randomBytes } from 'node:crypto';
import { promises as fs, constants as fsConstants } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { dirname, join } from 'node:path';
import { applicationKey as settingsApplicationKey } from '../settings/environments';

/**
 * The user-only directory that holds the brokers' sockets, their keys and the refresh locks.
 *
 * Who can reach it is decided once, on the directory, never on a file inside it: a 0700 directory
 * owned by us, in a parent where nobody else can rename or replace it (sticky like /tmp, or ours like
 * $XDG_RUNTIME_DIR). Nobody else can then create, swap or open anything in it, so there is no window
 * between a check and a use to exploit (checking the socket file's owner and then connecting to the
 * path, as one well-known extension did, leaves one). On Windows, where the pipe namespace is shared,
 * the key in the 0600 file authenticates both ends of every connection instead (see brokerHandshake).
 */
export class UnsafeRuntimeDirError extends Error {}

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const KEY_HEX = 64;

export interface RuntimeDir {
  path: string;
  /** The socket (POSIX) or pipe (Windows) of one application's broker. */
  endpoint(appKey: string): string;
  /** The 256-bit key that the broker and the windows of this user prove to each other. */
  key(): Promise<Buffer>;
  /** A file path in the directory (refresh locks). */
  file(name: string): string;
}

/** A short, file-name-safe key for one application: a hash of the settings' application key (one normalisation of authUrl + clientId). */
export function applicationKey(authUrl: string, clientId: string): string {
  return createHash('sha256').update(settingsApplicationKey({ authUrl, clientId })).digest('hex').slice(0, 20);
}

function defaultBase(): string {
  return process.platform !== 'win32' && process.env.XDG_RUNTIME_DIR ? process.env.XDG_RUNTIME_DIR : tmpdir();
}

/** Creates (or checks) the directory; throws UnsafeRuntimeDirError when it cannot be made user-only. */
export async function openRuntimeDir(base = defaultBase()): Promise<RuntimeDir> {
  const user = userInfo();
  const path = join(base, `tenant-api-workbench-${process.platform === 'win32' ? createHash('sha256').update(user.username).digest('hex').slice(0, 12) : user.uid}`);
  await fs.mkdir(path, { mode: DIR_MODE }).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EEXIST') throw error;
  });
  if (process.platform !== 'win32') await checkPosix(path, user.uid);
  const pipePrefix = `\\\\.\\pipe\\tenant-api-workbench-${createHash('sha256').update(`${user.username}\n${path}`).digest('hex').slice(0, 16)}`;
  let key: Promise<Buffer> | undefined;
  return {
    path,
    endpoint: (appKey) => (process.platform === 'win32' ? `${pipePrefix}-${appKey}` : join(path, `${appKey}.sock`)),
    key: () => (key ??= readOrCreateKey(join(path, 'broker.key'))),
    file: (name) => join(path, name),
  };
}

async function checkPosix(path: string, uid: number): Promise<void> {
  const parent = await fs.stat(dirname(path));
  const parentSafe = (parent.mode & 0o1000) !== 0 || (parent.uid === uid && (parent.mode & 0o022) === 0);
  if (!parentSafe) throw new UnsafeRuntimeDirError(`${dirname(path)} is writable by others and not sticky`);
  let stat = await fs.lstat(path);
  if (!stat.isDirectory() || stat.uid !== uid) throw new UnsafeRuntimeDirError(`${path} is not a directory of this user`);
  if ((stat.mode & 0o077) !== 0) {
    await fs.chmod(path, DIR_MODE);
    stat = await fs.lstat(path);
    if ((stat.mode & 0o077) !== 0) throw new UnsafeRuntimeDirError(`${path} cannot be made private`);
  }
}

async function readOrCreateKey(file: string): Promise<Buffer> {
  try {
    const handle = await fs.open(file, fsConstants.O_WRONLY | fsConstants.O_CREAT | fsConstants.O_EXCL, FILE_MODE);
    try {
      await handle.writeFile(randomBytes(KEY_HEX / 2).toString('hex'));
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  // Another window may be writing it right now: wait for the whole key.
  for (let attempt = 0; ; attempt++) {
    const text = (await fs.readFile(file, 'utf8')).trim();
    if (/^[0-9a-f]+$/.test(text) && text.length === KEY_HEX) return Buffer.from(text, 'hex');
    if (attempt >= 20) throw new UnsafeRuntimeDirError(`${file} does not hold a key`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
