// esbuild bundles a stylesheet imported by a webview script into a .css file beside the script.
declare module '*.css';
