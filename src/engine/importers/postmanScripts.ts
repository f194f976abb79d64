/**
 * Postman's scripts are never run: the import lists each one. A test script that only checks the
 * status (`pm.response.to.have.status(200)`, `pm.expect(pm.response.code).to.eql(201)`) becomes the
 * assertion `?? status == 200`. No `vscode` here.
 */

export interface PostmanEvent {
  listen?: string;
  script?: { exec?: string[] | string; disabled?: boolean };
  disabled?: boolean;
}

const STATUS_CHECKS = [
  /pm\.response\.to\.have\.status\(\s*(\d{3})\s*\)/g,
  /pm\.expect\(\s*pm\.response\.(?:code|status)\s*\)\.to\.(?:eql|equal|be\.equal|deep\.equal|eq)\(\s*(\d{3})\s*\)/g,
  /tests\[\s*(["'])[^"']*\1\s*\]\s*=\s*responseCode\.code\s*===?\s*(\d{3})/g,
];

/** The script's text, its lines joined. */
export function scriptText(event: PostmanEvent): string {
  const exec = event.script?.exec;
  return (Array.isArray(exec) ? exec.join('\n') : (exec ?? '')).trim();
}

/** The statuses a test script checks, when checking them is all it does; undefined otherwise. */
export function onlyStatusChecks(script: string): number[] | undefined {
  const statuses: number[] = [];
  let rest = script.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  for (const check of STATUS_CHECKS) {
    rest = rest.replace(check, (...groups: string[]) => {
      statuses.push(Number(groups.slice(1).find((group) => /^\d{3}$/.test(group))));
      return '';
    });
  }
  if (statuses.length === 0) return undefined;
  // What is left once the checks are out must be only their wrappers: pm.test("...", function () { }); and the like.
  const wrappers = rest
    .replace(/pm\.test\(\s*(["'`])(?:(?!\1)[^\\]|\\.)*\1\s*,\s*(?:function\s*\(\s*\)|\(\s*\)\s*=>)\s*\{/g, '')
    .replace(/[\s;{})]/g, '');
  return wrappers === '' ? [...new Set(statuses)] : undefined;
}
