// A piece of the page's state with one owner: the module named above its declaration (in
// web/state/) is the only one that sets it; the others read it (get) and subscribe to its
// changes, so that nobody has to import the module that reacts to them. The shape of Svelte's
// writable stores (Transformer Explainer's src/store/), without the framework;
// tests/wasm/web-imports.test.js checks that only the owner sets each.
export function store(initial) {
  let value = initial;
  const subscribers = new Set();
  return {
    get: () => value,
    // Subscribers run in the order they subscribed, each with the new value.
    set(next) {
      value = next;
      for (const fn of [...subscribers]) fn(value);
    },
    // Sets the value to a copy of it with these fields changed.
    update(fields) {
      this.set({ ...value, ...fields });
    },
    // fn(value) on every change from now on; returns the function that unsubscribes it.
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}

// An event with no state of its own (runs moved on, a batch ended): the owner emits it, and
// each subscriber's fn(detail) runs.
export function signal() {
  const subscribers = new Set();
  return {
    emit(detail) {
      for (const fn of [...subscribers]) fn(detail);
    },
    subscribe(fn) {
      subscribers.add(fn);
      return () => subscribers.delete(fn);
    },
  };
}
