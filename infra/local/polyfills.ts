// aws-local-stepfunctions 3 calls `Promise.withResolvers` (ES2024, Node 22+) inside every Task state;
// Node 20 lacks it, so the first Task would throw a TypeError that the interpreter reports as a task
// failure. Import this module before the interpreter is loaded (see step-functions.ts).

interface Resolvers<T> {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
}

type PromiseWithResolvers = PromiseConstructor & { withResolvers?: <T>() => Resolvers<T> };

export function installPolyfills(): void {
  const ctor = Promise as PromiseWithResolvers;
  if (typeof ctor.withResolvers === "function") return;
  Object.defineProperty(Promise, "withResolvers", {
    configurable: true,
    writable: true,
    enumerable: false,
    value: function withResolvers<T>(this: PromiseConstructor): Resolvers<T> {
      let resolve!: Resolvers<T>["resolve"];
      let reject!: Resolvers<T>["reject"];
      // `this` keeps subclass semantics of the spec'd method (Promise.withResolvers.call(Sub)).
      const promise = new (this ?? Promise)<T>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      return { promise, resolve, reject };
    },
  });
}

installPolyfills();
