import type { Disposable } from './event';

/**
 * One value per key, made on first use and kept until the pool is disposed: the rate-limit scheduler
 * of each application and the quota readings of each environment outlive a switch of environment.
 */
export class KeyedPool<T extends Disposable> implements Disposable {
  private readonly values = new Map<string, T>();

  constructor(private readonly create: (key: string) => T) {}

  get(key: string): T {
    let value = this.values.get(key);
    if (!value) {
      value = this.create(key);
      this.values.set(key, value);
    }
    return value;
  }

  get size(): number {
    return this.values.size;
  }

  dispose(): void {
    for (const value of this.values.values()) value.dispose();
    this.values.clear();
  }
}
