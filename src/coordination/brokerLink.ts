import type { Socket } from 'node:net';
import { newNonce, proof, proofMatches } from './brokerServer';
import { LineChannel } from './lineChannel';
import { PROTOCOL_VERSION, parseBrokerMessage, type BrokerMessage, type ClientMessage, type EndedCall } from './protocol';

/** How a window reaches the broker: over a socket, or by direct calls when it is the broker. */
export interface BrokerLink {
  send(message: Exclude<ClientMessage, { t: 'hello' } | { t: 'join' }>): void;
  close(): void;
}

const HANDSHAKE_TIMEOUT_MS = 2000;

export class HandshakeError extends Error {}

/**
 * Joins the broker listening on `socket`: hello, its challenge (which must prove the key), join with
 * this window's calls, welcome. Later broker messages go to `onMessage`; `onLost` is called once.
 */
export function joinBroker(
  socket: Socket,
  key: Buffer,
  join: { w: string; inFlight: number[]; ended: EndedCall[] },
  onMessage: (message: BrokerMessage) => void,
  onLost: (reason: string) => void,
): Promise<{ link: BrokerLink; welcome: Extract<BrokerMessage, { t: 'welcome' }> }> {
  return new Promise((resolve, reject) => {
    const nonce = newNonce();
    let stage: 'challenge' | 'welcome' | 'joined' | 'failed' = 'challenge';
    const timer = setTimeout(() => fail('the broker did not answer the handshake in time'), HANDSHAKE_TIMEOUT_MS);
    const fail = (reason: string) => {
      if (stage === 'joined') return onLost(reason);
      if (stage === 'failed') return;
      clearTimeout(timer);
      stage = 'failed';
      channel.close(reason);
      reject(new HandshakeError(reason));
    };
    const channel = new LineChannel(
      socket,
      (line) => {
        const message = parseBrokerMessage(line);
        if (!message) return false;
        if (stage === 'joined') {
          onMessage(message);
          return true;
        }
        if (stage === 'failed') return true;
        if (stage === 'challenge') {
          if (message.t !== 'challenge' || !proofMatches(key, 'broker', nonce, message.proof)) {
            fail('the broker did not prove the key');
            return true;
          }
          stage = 'welcome';
          channel.send({ t: 'join', proof: proof(key, 'window', message.nonce), ...join });
          return true;
        }
        if (message.t !== 'welcome') return false;
        clearTimeout(timer);
        stage = 'joined';
        resolve({ link: { send: (m) => channel.send(m), close: () => channel.close() }, welcome: message });
        return true;
      },
      (reason) => fail(reason),
    );
    channel.send({ t: 'hello', v: PROTOCOL_VERSION, nonce });
  });
}
