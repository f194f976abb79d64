import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** `node --require` this into the runner, with TENANT_API_TIMINGS_FILE set (see cliTimings.cjs). */
export const CLI_TIMINGS_PRELOAD = join(__dirname, 'cliTimings.cjs');

interface Recorded {
  requests: Array<{ origin: string; path: string; createdAt: number; headersAt?: number }>;
  firstStdoutAt?: number;
}

export interface CliTimings {
  /** From the first request to the authorization server to the answer of its last one before the first API call. */
  signInMs?: number;
  /** From the process's start to its first request handed to the client, sign-in excluded. */
  firstRequestMs?: number;
  /** From the process's start to its first API request on the wire (after its rate-limit slot), sign-in excluded. */
  firstOnWireMs?: number;
}

/** Requests to the authorization server: discovery and the OpenID Connect endpoints. */
const isSignIn = (path: string) => path.startsWith('/.well-known/') || path.startsWith('/connect/');

/** What a run preloaded with cliTimings.cjs recorded in `file`, worked out as the runners bench reports it. */
export function readCliTimings(file: string): CliTimings {
  const recorded = JSON.parse(readFileSync(file, 'utf8')) as Recorded;
  const firstCall = recorded.requests.find((request) => !isSignIn(request.path));
  const signIn = recorded.requests.filter((request) => isSignIn(request.path) && (!firstCall || request.createdAt < firstCall.createdAt));
  const answered = signIn.map((request) => request.headersAt).filter((at): at is number => at !== undefined);
  const signInMs = signIn.length > 0 && answered.length > 0 ? Math.max(...answered) - signIn[0].createdAt : undefined;
  const minus = (at: number | undefined) => (at === undefined ? undefined : Math.round(at - (signInMs ?? 0)));
  return {
    signInMs: signInMs === undefined ? undefined : Math.round(signInMs),
    firstRequestMs: minus(recorded.firstStdoutAt),
    firstOnWireMs: minus(firstCall?.createdAt),
  };
}
