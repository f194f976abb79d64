/** Same shape as vscode.Event, so an Emitter's event can be handed to VS Code APIs directly. */
export interface Disposable {
  dispose(): void;
}

export type Event<T> = (listener: (value: T) => void) => Disposable;

/** A minimal typed event emitter for modules that must not import `vscode`. */
export class Emitter<T> implements Disposable {
  private listeners = new Set<(value: T) => void>();

  readonly event: Event<T> = (listener) => {
    this.listeners.add(listener);
    return { dispose: () => this.listeners.delete(listener) };
  };

  fire(value: T): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(value);
      } catch {
        // One failing listener must not keep the others from hearing the event.
      }
    }
  }

  dispose(): void {
    this.listeners.clear();
  }
}
