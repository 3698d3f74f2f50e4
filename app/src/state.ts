import { useEffect, useState } from 'preact/hooks';

/** A value components can watch (a tiny store: the app has a handful of shared values, no store library needed). */
export interface Signal<T> {
  readonly value: T;
  set(next: T): void;
  subscribe(listener: () => void): () => void;
}

export function signal<T>(initial: T): Signal<T> {
  let value = initial;
  const listeners = new Set<() => void>();
  return {
    get value() {
      return value;
    },
    set(next: T) {
      value = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Re-renders the component when the signal changes; returns its value. */
export function useSignal<T>(s: Signal<T>): T {
  const [, bump] = useState(0);
  useEffect(() => s.subscribe(() => bump((n) => n + 1)), [s]);
  return s.value;
}
