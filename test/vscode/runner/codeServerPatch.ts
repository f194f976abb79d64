// Two small patches to the installed code-server 4.100.3 workbench, applied at install time and
// checked on every start (each is applied once, recognised by its marker comment).
//
// 1. Loopback URLs. code-server rewrites a loopback http URL that an extension opens
//    (vscode.env.openExternal, asExternalUri) to its port proxy, and in doing so drops the URL's
//    path, query and fragment: http://127.0.0.1:5000/connect/authorize?client_id=... becomes
//    http://127.0.0.1:<cs>/proxy/5000/. That is coder/code-server#7668 and #7573, fixed upstream by
//    #8012 only in versions that need Node 22. The patch (a) keeps path, query and fragment, as the
//    upstream fix does, and (b) leaves the URI untouched when the server was started with
//    VSCODE_PROXY_URI=directLoopbackTemplate (browser and server on one machine, so no proxy is
//    needed: the same as a desktop VS Code). The template must stay a valid URL: code-server also
//    hands it to the extension host, through new URL().
//
// 2. Dialogs in test runs. With an extensionTestsPath, VS Code answers confirm() itself and refuses
//    prompt() ("DialogService: refused to show dialog in tests"), so a test can never see, say, "The
//    extension ... wants to sign in using Tenant API". The patch lets the runner's driver turn real
//    dialogs on for a while (window.tenantApiTestShowDialogs = true); off, VS Code behaves as shipped.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** VSCODE_PROXY_URI for 'direct' loopback URLs (see startCodeServer's loopbackUrls). */
export const directLoopbackTemplate = 'http://127.0.0.1/tenant-api-direct-loopback/{{port}}/';

/** The workbench global that switches real dialogs on in a test run (set by the driver). */
export const showDialogsGlobal = 'tenantApiTestShowDialogs';

interface Patch {
  name: string;
  marker: string;
  original: string;
  replacement: string;
}

const patches: Patch[] = [
  {
    name: 'loopback URL rewrite',
    marker: '/*tenant-api-workbench:proxy-uri-patch-2*/',
    original: 'o=N.parse(new URL(l,window.location.href).toString())',
    replacement:
      '/*tenant-api-workbench:proxy-uri-patch-2*/' +
      String.raw`{const u=new URL(l,window.location.href);` +
      String.raw`if(/\/tenant-api-direct-loopback\/\d+\/$/.test(u.pathname))return Promise.resolve(r);` +
      String.raw`u.pathname=u.pathname.replace(/\/$/,"")+(o.path||"/");` +
      String.raw`u.search=o.query?"?"+o.query:"";u.hash=o.fragment?"#"+o.fragment:"";o=N.parse(u.toString())}`,
  },
  {
    name: 'dialogs in test runs',
    marker: '/*tenant-api-workbench:dialogs-patch-1*/',
    original: 'c(){return this.a.isExtensionDevelopment&&this.a.extensionTestsLocationURI?!0:!!this.a.enableSmokeTestDriver}',
    replacement:
      `c(){/*tenant-api-workbench:dialogs-patch-1*/if(globalThis.${showDialogsGlobal}===!0)return!1;` +
      'return this.a.isExtensionDevelopment&&this.a.extensionTestsLocationURI?!0:!!this.a.enableSmokeTestDriver}',
  },
];

export function workbenchScript(vscodeDir: string): string {
  return path.join(vscodeDir, 'out', 'vs', 'code', 'browser', 'workbench', 'workbench.js');
}

/** Applies the patches not applied yet; throws when the bundle is not the one they were written for. */
export function patchWorkbench(vscodeDir: string): string[] {
  const file = workbenchScript(vscodeDir);
  let text = fs.readFileSync(file, 'utf8');
  const applied: string[] = [];
  for (const patch of patches) {
    if (text.includes(patch.marker)) continue;
    const count = text.split(patch.original).length - 1;
    if (count !== 1) {
      throw new Error(
        `cannot patch code-server (${patch.name}): expected the code once in ${file}, found it ${count} times ` +
          `(another code-server version, or an older patch: delete ${path.join(vscodeDir, '..', '..', '..', '..')} to reinstall)`,
      );
    }
    text = text.replace(patch.original, patch.replacement);
    applied.push(patch.name);
  }
  if (applied.length === 0) return applied;
  // The bundle is an ES module: check that the patched text still parses before using it.
  const probe = path.join(os.tmpdir(), `workbench-patch-check-${process.pid}.mjs`);
  fs.writeFileSync(probe, text);
  const check = spawnSync(process.execPath, ['--check', probe], { encoding: 'utf8' });
  fs.rmSync(probe, { force: true });
  if (check.status !== 0) throw new Error(`patching ${file} would break it: ${check.stderr.split('\n').slice(0, 5).join(' ')}`);
  // Write and rename, so that a server starting meanwhile never reads half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, text);
  fs.renameSync(temporary, file);
  return applied;
}
