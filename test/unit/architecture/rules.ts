/**
 * The boundaries of src/, as data: each rule says which files it covers, what they must not import,
 * and why. The architecture test applies them to every file; rules.test.ts breaks each one on purpose.
 */
import type { SourceFacts } from './sourceFacts';

export interface ImportRule {
  name: string;
  why: string;
  /** Files the rule covers (repository-relative path). */
  covers: (file: string) => boolean;
  /** An import target the covered files must not use. */
  forbids: (target: string) => boolean;
}

const under = (folder: string) => (file: string) => file === folder || file.startsWith(`${folder}/`);

/**
 * The layers of src/, lowest first: a folder imports only the folders before it (src/extension.ts,
 * the composition root, sits above them all). Why each sits where it does:
 */
export const LAYERS: ReadonlyArray<{ folder: string; why: string }> = [
  { folder: 'src/common', why: 'small shared interfaces every layer uses' },
  { folder: 'src/api', why: 'the client, the tenant directory and resolver, the header policy: any front end needs them, and they need no sign-in code (the token source is an interface in src/common)' },
  { folder: 'src/catalog', why: 'the OpenAPI catalogues in plain Node (reading, references, operations, the routes they imply, schema checks): the settings, the engine and every front end read them; they need only src/api\'s route types and header policy' },
  { folder: 'src/settings', why: 'reads the configuration into the shapes the layers above take' },
  { folder: 'src/auth', why: 'sign-in, configured by src/settings, giving tokens to the client through src/common\'s interface' },
  { folder: 'src/coordination', why: 'shares the sessions and the rate-limit ledger of src/auth and src/api between windows' },
  { folder: 'src/engine', why: 'the request engine in plain Node: every front end (Send Request, request files, the Testing view, the command line) is built on it, so it knows none of them' },
  { folder: 'src/views', why: 'the tree, status bars and response tabs: commands use views, never the other way round, so a view can be reused by any command' },
  { folder: 'src/commands', why: 'the palette\'s front end over the engine and the views' },
  { folder: 'src/requestFiles', why: 'the request files\' front end in the editor, over the engine and the views' },
  { folder: 'src/cli', why: 'the headless runner (`tenant-api`): a front end of its own over the engine, the client, sign-in and the shared ledger; nothing imports it' },
];

function layerRules(): ImportRule[] {
  return LAYERS.slice(0, -1).map(({ folder, why }, index) => {
    const above = LAYERS.slice(index + 1).map((layer) => layer.folder);
    return {
      name: `${folder} imports no layer above it (${above.join(', ')})`,
      why,
      covers: under(folder),
      forbids: (target: string) => target === 'src/extension' || above.some((upper) => under(upper)(target)),
    };
  });
}

/** What a webview's script may import from the extension's side: the messages, their texts, the chart's frame. */
const WEBVIEW_SHAPES = [
  'src/views/table/tableProtocol',
  'src/views/table/tableStrings',
  'src/views/usage/usageProtocol',
  'src/views/usage/usageView',
  'src/views/usage/usageChart',
];

export const IMPORT_RULES: readonly ImportRule[] = [
  {
    name: 'src/api has no vscode',
    why: 'the API client takes a clock, a secret store and a fetch as parameters and is unit-tested in plain Node',
    covers: under('src/api'),
    forbids: (target) => target === 'vscode',
  },
  {
    name: 'src/common has no vscode',
    why: 'shared interfaces every layer uses, the Node-only ones included',
    covers: under('src/common'),
    forbids: (target) => target === 'vscode',
  },
  {
    name: 'src/auth has no vscode outside src/auth/vscode',
    why: 'sign-in logic is tested in plain Node; only the provider, the sign-in UI and their registration touch the editor',
    covers: (file) => under('src/auth')(file) && !under('src/auth/vscode')(file),
    forbids: (target) => target === 'vscode',
  },
  {
    name: 'src/catalog has no vscode',
    why: 'the catalogues are read, matched and checked in plain Node: the command line uses them too',
    covers: under('src/catalog'),
    forbids: (target) => target === 'vscode',
  },
  {
    name: 'src/engine has no vscode',
    why: 'the request engine runs in plain Node: the Testing view and the command line are front ends over it too',
    covers: under('src/engine'),
    forbids: (target) => target === 'vscode',
  },
  {
    name: 'src/cli has no vscode and no editor front end',
    why: 'the runner is bundled alone into dist/cli.js and runs in plain Node, where neither vscode nor the editor\'s views and commands exist',
    covers: under('src/cli'),
    forbids: (target) => target === 'vscode' || ['src/views', 'src/commands', 'src/requestFiles'].some((folder) => under(folder)(target)),
  },
  {
    name: 'src/extension does not import src/cli',
    why: 'the runner is the top of its own bundle; the extension starts it as a process (dist/cli.js), never imports it (the layers keep every other folder from it)',
    covers: (file) => !LAYERS.some((layer) => under(layer.folder)(file)),
    forbids: (target) => under('src/cli')(target),
  },
  {
    name: 'src/coordination/redis imports only src/api and src/common',
    why: 'the Redis ledger is a RateLedger for any front end (the command line, the editor): it needs the scheduler\'s contract, not the local broker, the settings or sign-in',
    covers: under('src/coordination/redis'),
    forbids: (target) => target === 'vscode' || (target.startsWith('src/') && !['src/api', 'src/common', 'src/coordination/redis'].some((folder) => under(folder)(target))),
  },
  {
    name: 'src/webview runs in the browser: no vscode, no Node, nothing of the extension but the shapes of its messages',
    why: 'a webview page is bundled alone into dist/webview/ and talks to the extension only by messages: it may import the pure modules that describe them (WEBVIEW_SHAPES) and nothing that needs the extension host',
    covers: under('src/webview'),
    forbids: (target) =>
      target === 'vscode' ||
      target.startsWith('node:') ||
      (target.startsWith('src/') && !under('src/webview')(target) && !WEBVIEW_SHAPES.includes(target)),
  },
  {
    name: 'nothing imports src/webview',
    why: 'the webviews\' scripts run in their pages, never in the extension host',
    covers: (file) => !under('src/webview')(file),
    forbids: (target) => under('src/webview')(target),
  },
  ...layerRules(),
];

/** About 80 lines, as the team's guide says; a function longer than this does more than one thing. */
export const MAX_FUNCTION_LINES = 80;

export function importViolations(facts: readonly SourceFacts[], rules: readonly ImportRule[] = IMPORT_RULES): string[] {
  const found: string[] = [];
  for (const file of facts) {
    for (const rule of rules) {
      if (!rule.covers(file.file)) continue;
      for (const used of file.imports) {
        if (rule.forbids(used.target)) found.push(`${file.file}:${used.line} imports '${used.specifier}': ${rule.name} (${rule.why})`);
      }
    }
  }
  return found;
}

export function configurationViolations(facts: readonly SourceFacts[]): string[] {
  return facts
    .filter(({ file }) => !file.startsWith('src/settings/'))
    .flatMap(({ file, configurationUses }) =>
      configurationUses.map(({ name, line }) => `${file}:${line} uses ${name}: only src/settings reads settings (every setting is read in one place)`),
    );
}

/** The composition root: the one file that holds the extension's context. */
export const COMPOSITION_ROOT = 'src/extension.ts';

/**
 * The extension's context holds the secret storage of every environment: a part that had it could
 * store a secret outside its environment's namespace, or keep one that crosses to another's hosts.
 * Only the composition root names it; the parts get an EnvironmentScope (src/settings/environmentScope.ts)
 * or the pieces they need (subscriptions, the extension's folder).
 */
export function extensionContextViolations(facts: readonly SourceFacts[]): string[] {
  return facts
    .filter(({ file }) => file !== COMPOSITION_ROOT)
    .flatMap(({ file, extensionContextUses }) =>
      extensionContextUses.map((line) => `${file}:${line} names ExtensionContext: only ${COMPOSITION_ROOT} holds the extension's context (its secrets are every environment's); take an EnvironmentScope`),
    );
}

export interface LengthExemption {
  file: string;
  name: string;
  why: string;
}

/**
 * Functions known to be too long that another branch is splitting now. Each must still be too long:
 * the test fails on a stale entry, so the list empties itself as that work lands.
 */
export const LENGTH_EXEMPTIONS: readonly LengthExemption[] = [];

const exempt = (file: string, name: string, exemptions: readonly LengthExemption[]) =>
  exemptions.some((entry) => entry.file === file && entry.name === name);

export function lengthViolations(
  facts: readonly SourceFacts[],
  max = MAX_FUNCTION_LINES,
  exemptions: readonly LengthExemption[] = LENGTH_EXEMPTIONS,
): string[] {
  return facts.flatMap((file) =>
    file.functions
      .filter((fn) => fn.lines > max && !exempt(file.file, fn.name, exemptions))
      .map((fn) => `${file.file}:${fn.line} ${fn.name} is ${fn.lines} lines (at most ${max})`),
  );
}

/** Exemptions whose function is no longer too long (or no longer exists): remove them. */
export function staleExemptions(
  facts: readonly SourceFacts[],
  max = MAX_FUNCTION_LINES,
  exemptions: readonly LengthExemption[] = LENGTH_EXEMPTIONS,
): string[] {
  return exemptions
    .filter((entry) => !facts.some((file) => file.file === entry.file && file.functions.some((fn) => fn.name === entry.name && fn.lines > max)))
    .map((entry) => `${entry.file} ${entry.name} is no longer longer than ${max} lines: remove its exemption`);
}
