import * as assert from 'node:assert/strict';
import { DEFAULT_API_SETTINGS, readApiSettings } from '../../../src/api';

describe('readApiSettings', () => {
  const reader = (values: Record<string, unknown>) => <T>(key: string, fallback: T): T => (key in values ? (values[key] as T) : fallback);

  it('uses the defaults when nothing is set', () => {
    assert.deepEqual(readApiSettings(reader({})), DEFAULT_API_SETTINGS);
  });

  it('reads every setting of the section', () => {
    const settings = readApiSettings(
      reader({
        baseUrl: ' https://api.example.com ',
        allowedHosts: ['example.net', 42],
        routes: [{ prefix: '/hr/', host: 'cluster' }],
        endpoints: [{ path: '/hr/x' }],
        requestTimeoutSeconds: 10,
        'rateLimit.safetyMarginMs': 5,
        'rateLimit.maxQueueLength': 50,
        maxRetries: 1,
      }),
    );
    assert.deepEqual(settings, {
      baseUrl: 'https://api.example.com',
      allowedHosts: ['example.net'],
      routes: [{ prefix: '/hr/', host: 'cluster' }],
      endpoints: [{ path: '/hr/x' }],
      requestTimeoutSeconds: 10,
      safetyMarginMs: 5,
      maxQueueLength: 50,
      maxRetries: 1,
    });
  });

  it('brings bad numbers back in range', () => {
    const settings = readApiSettings(reader({ requestTimeoutSeconds: -3, 'rateLimit.safetyMarginMs': 'x', 'rateLimit.maxQueueLength': 0, maxRetries: 99 }));
    assert.equal(settings.requestTimeoutSeconds, 1);
    assert.equal(settings.safetyMarginMs, DEFAULT_API_SETTINGS.safetyMarginMs);
    assert.equal(settings.maxQueueLength, 1);
    assert.equal(settings.maxRetries, 10);
    assert.equal(readApiSettings(reader({ requestTimeoutSeconds: 99_999 })).requestTimeoutSeconds, 3600);
    assert.equal(readApiSettings(reader({ requestTimeoutSeconds: 'x' })).requestTimeoutSeconds, 30);
  });
});
