import * as vscode from 'vscode';
import { newNonce, webviewPage } from './webviewPage';

/** The webviews' bundles (esbuild.mjs): dist/webview/<name>.js and .css. */
export type WebviewBundle = 'table' | 'usage';

/**
 * Scripts on, and nothing loadable but the webviews' own files: no other folder of the extension, no
 * workspace file, no command links. No retainContextWhenHidden: a hidden panel is rebuilt from the
 * extension's state and the page's saved state when shown again, which costs no memory meanwhile.
 */
export function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewPanelOptions & vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist', 'webview')] };
}

/** The page of a webview: its bundle, its stylesheet, and its first data (see webviewPage). */
export function bundlePage(webview: vscode.Webview, extensionUri: vscode.Uri, bundle: WebviewBundle, title: string, initial: unknown): string {
  const file = (extension: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview', `${bundle}.${extension}`)).toString();
  return webviewPage({ cspSource: webview.cspSource, scriptUri: file('js'), styleUri: file('css'), nonce: newNonce(), lang: vscode.env.language, title, initial });
}
