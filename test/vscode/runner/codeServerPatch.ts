// One patch to the installed code-server 4.100.3, applied at install time and checked on every start.
//
// code-server rewrites a loopback http URL that an extension opens (vscode.env.openExternal,
// asExternalUri) to its port proxy, and in doing so drops the URL's path, query and fragment:
// http://127.0.0.1:5000/connect/authorize?client_id=... becomes http://127.0.0.1:<cs>/proxy/5000/.
// That is coder/code-server#7668 and #7573, fixed upstream by #8012 only in versions that need
// Node 22. The patch (a) keeps path, query and fragment, as the upstream fix does, and (b) leaves the
// URI untouched when the server was started with VSCODE_PROXY_URI=${directLoopbackTemplate} (browser
// and server on one machine, so no proxy is needed: the same as a desktop VS Code). The template must
// stay a valid URL: code-server also hands it to the extension host, through new URL().
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** VSCODE_PROXY_URI for 'direct' loopback URLs (see startCodeServer's loopbackUrls). */
export const directLoopbackTemplate = 'http://127.0.0.1/tenant-api-direct-loopback/{{port}}/';

const original = 'o=N.parse(new URL(l,window.location.href).toString())';
const sentinel = '/*tenant-api-workbench:proxy-uri-patch-2*/';
const replacement =
  sentinel +
  String.raw`{const u=new URL(l,window.location.href);` +
  String.raw`if(/\/tenant-api-direct-loopback\/\d+\/$/.test(u.pathname))return Promise.resolve(r);` +
  String.raw`u.pathname=u.pathname.replace(/\/$/,"")+(o.path||"/");` +
  String.raw`u.search=o.query?"?"+o.query:"";u.hash=o.fragment?"#"+o.fragment:"";o=N.parse(u.toString())}`;

export function workbenchScript(vscodeDir: string): string {
  return path.join(vscodeDir, 'out', 'vs', 'code', 'browser', 'workbench', 'workbench.js');
}

/** Applies the patch once; throws when the bundle is not the one this patch was written for. */
export function patchProxyUriRewrite(vscodeDir: string): 'applied' | 'already' {
  const file = workbenchScript(vscodeDir);
  const text = fs.readFileSync(file, 'utf8');
  if (text.includes(sentinel)) return 'already';
  if (text.includes('/*tenant-api-workbench:proxy-uri-patch')) {
    throw new Error(`${file} carries an older version of this patch: delete ${path.dirname(path.dirname(path.dirname(path.dirname(path.dirname(path.dirname(file))))))} to reinstall`);
  }
  const count = text.split(original).length - 1;
  if (count !== 1) {
    throw new Error(`cannot patch code-server's loopback URL rewrite: expected the code once in ${file}, found it ${count} times (another code-server version?)`);
  }
  const patched = text.replace(original, replacement);
  // The bundle is an ES module: check that the patched text still parses before using it.
  const probe = path.join(os.tmpdir(), `workbench-patch-check-${process.pid}.mjs`);
  fs.writeFileSync(probe, patched);
  const check = spawnSync(process.execPath, ['--check', probe], { encoding: 'utf8' });
  fs.rmSync(probe, { force: true });
  if (check.status !== 0) throw new Error(`patching ${file} would break it: ${check.stderr.split('\n').slice(0, 5).join(' ')}`);
  // Write and rename, so that a server starting meanwhile never reads half a file.
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, patched);
  fs.renameSync(temporary, file);
  return 'applied';
}
