// Where the runner keeps things. Everything under .vscode-test/ is git-ignored.
import * as path from 'node:path';

export const repoRoot = path.resolve(__dirname, '..', '..', '..');
export const cacheRoot = path.join(repoRoot, '.vscode-test');
export const logsDir = path.join(cacheRoot, 'logs');
export const runsDir = path.join(cacheRoot, 'runs');
export const screenshotsDir = path.join(repoRoot, 'test', 'vscode', 'screenshots');
export const suiteEntry = path.join(repoRoot, 'dist', 'test', 'suite', 'index.js');
export const extensionId = 'tenant-api.tenant-api-workbench';
