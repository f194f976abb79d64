/**
 * What the architecture test needs to know about a source file, read with TypeScript's own parser
 * (so comments, strings and template literals can never be mistaken for an import or a function).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export interface ImportFact {
  /** As written: 'vscode', '../commands/requestHistory'. */
  specifier: string;
  /** Repository-relative path of the imported file without extension ('src/commands/requestHistory'), or the bare module name. */
  target: string;
  line: number;
}

export interface FunctionFact {
  name: string;
  line: number;
  /** Lines from the function's first to its last line, both included. */
  lines: number;
}

export interface SourceFacts {
  /** Repository-relative, with forward slashes: 'src/views/activeTenant.ts'. */
  file: string;
  imports: ImportFact[];
  functions: FunctionFact[];
  /** Uses of the editor's configuration API (`workspace.getConfiguration(...)`, `event.affectsConfiguration(...)`). */
  configurationUses: Array<{ name: string; line: number }>;
  /** Lines that name vscode's ExtensionContext (a type, an import, a qualified name). */
  extensionContextUses: number[];
}

/** The editor's configuration API: only src/settings may use it. */
export const CONFIGURATION_API: ReadonlySet<string> = new Set(['getConfiguration', 'onDidChangeConfiguration', 'affectsConfiguration']);

export const repoRoot = path.resolve(__dirname, '..', '..', '..');

export function sourceFiles(directory = 'src'): string[] {
  const found: string[] = [];
  const walk = (relative: string) => {
    for (const entry of fs.readdirSync(path.join(repoRoot, relative), { withFileTypes: true })) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) found.push(child);
    }
  };
  walk(directory);
  return found.sort();
}

export function readFacts(file: string, text = fs.readFileSync(path.join(repoRoot, file), 'utf8')): SourceFacts {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const imports: ImportFact[] = [];
  const functions: FunctionFact[] = [];
  const configurationUses: SourceFacts['configurationUses'] = [];
  const extensionContextUses: number[] = [];
  const addImport = (literal: ts.Expression | undefined, node: ts.Node) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    imports.push({ specifier: literal.text, target: resolveTarget(file, literal.text), line: lineOf(node.getStart(source)) });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) addImport(node.moduleSpecifier, node);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      addImport(node.moduleReference.expression, node);
    } else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || isRequire(node.expression))) {
      addImport(node.arguments[0], node);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      addImport(node.argument.literal as ts.Expression, node);
    }
    if (ts.isPropertyAccessExpression(node) && CONFIGURATION_API.has(node.name.text)) {
      configurationUses.push({ name: node.name.text, line: lineOf(node.name.getStart(source)) });
    }
    if (ts.isIdentifier(node) && node.text === 'ExtensionContext') extensionContextUses.push(lineOf(node.getStart(source)));
    if (isFunctionWithBody(node)) {
      const first = lineOf(node.getStart(source));
      functions.push({ name: functionName(node), line: first, lines: lineOf(node.getEnd()) - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { file, imports, functions, configurationUses, extensionContextUses };
}

function isRequire(expression: ts.Expression): boolean {
  return ts.isIdentifier(expression) && expression.text === 'require';
}

function isFunctionWithBody(node: ts.Node): node is ts.FunctionLikeDeclaration {
  return (
    (ts.isFunctionDeclaration(node) ||
      ts.isFunctionExpression(node) ||
      ts.isArrowFunction(node) ||
      ts.isMethodDeclaration(node) ||
      ts.isConstructorDeclaration(node) ||
      ts.isGetAccessorDeclaration(node) ||
      ts.isSetAccessorDeclaration(node)) &&
    node.body !== undefined
  );
}

function functionName(node: ts.FunctionLikeDeclaration): string {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText();
  if (ts.isCallExpression(parent)) return `callback of ${parent.expression.getText().slice(0, 60)}`;
  return '(anonymous)';
}

function resolveTarget(file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
  return joined.replace(/\.(ts|js)$/, '').replace(/\/index$/, '');
}
