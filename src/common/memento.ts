/** The part of vscode.Memento (globalState) the extension uses, so that plain-Node code and tests can provide one. */
export interface Memento {
  get<T>(key: string): T | undefined;
  update(key: string, value: unknown): PromiseLike<void>;
}
