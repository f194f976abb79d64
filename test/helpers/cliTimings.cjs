// Preloaded into the runner (`node --require test/helpers/cliTimings.cjs dist/cli.js ...`) by the runners
// bench and the runner's test: when its requests left and answered (fetch's diagnostics channels) and
// when it first wrote to stdout (the line that opens its first file, right before that file's first
// request is handed to the client), in ms since the process started. Written at exit as JSON to
// $TENANT_API_TIMINGS_FILE. The runner itself measures nothing for this.
'use strict';
const channels = require('node:diagnostics_channel');
const fs = require('node:fs');

const file = process.env.TENANT_API_TIMINGS_FILE;
if (file) {
  const requests = [];
  const byRequest = new WeakMap();
  let firstStdoutAt;
  channels.subscribe('undici:request:create', ({ request }) => {
    const entry = { origin: request.origin, path: request.path, createdAt: performance.now() };
    byRequest.set(request, entry);
    requests.push(entry);
  });
  channels.subscribe('undici:request:headers', ({ request }) => {
    const entry = byRequest.get(request);
    if (entry) entry.headersAt = performance.now();
  });
  const write = process.stdout.write;
  process.stdout.write = function (...args) {
    firstStdoutAt ??= performance.now();
    return write.apply(this, args);
  };
  process.on('exit', () => fs.writeFileSync(file, JSON.stringify({ requests, firstStdoutAt })));
}
