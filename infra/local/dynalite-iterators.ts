// dynalite 4 reads LevelDB (and its in-memory store) through Node streams whose destroy() releases
// the underlying abstract-level iterator by calling `iterator.return()`. abstract-level 3 iterators
// have no `return()` (they are released with `close()`), so no iterator of a Query or a Scan is ever
// released. Each open iterator pins the store as it was: LevelDB keeps the table files that
// compaction made obsolete (on disk and memory-mapped) and the memtables it has since replaced, and
// the in-memory store keeps the tree the iterator was opened on. A twin serving runs for hours
// then grows by hundreds of kilobytes per run, on disk and in RSS. Giving the iterators the
// `return()` dynalite calls makes its streams release them.
import { createRequire } from "node:module";

const PATCHED = Symbol.for("rewoo.local.dynaliteIteratorReturn");

export interface IteratorPrototype {
  close(): Promise<void>;
  return?: () => Promise<IteratorResult<never, undefined>>;
  [PATCHED]?: true;
}

/**
 * Adds `return()` (releasing the iterator, with the async-iterator protocol's result) to the
 * iterators of every abstract-level copy dynalite's stores are built on. Idempotent.
 */
export function releaseDynaliteIterators(): void {
  for (const base of dynaliteIteratorBases()) {
    if (base[PATCHED] || typeof base.return === "function") continue;
    Object.defineProperty(base, "return", {
      configurable: true,
      writable: true,
      enumerable: false,
      value: async function release(this: IteratorPrototype) {
        await this.close();
        return { done: true, value: undefined };
      },
    });
    base[PATCHED] = true;
  }
}

/** The base prototype of the iterators of dynalite's on-disk and in-memory stores (one per abstract-level copy). */
export function dynaliteIteratorBases(): IteratorPrototype[] {
  const fromHere = createRequire(import.meta.url);
  const fromDynalite = createRequire(fromHere.resolve("dynalite"));
  // The on-disk store (level → classic-level) and the in-memory one (memory-level) may each bring
  // their own abstract-level.
  const stores = [
    createRequire(fromDynalite.resolve("level")).resolve("classic-level"),
    fromDynalite.resolve("memory-level"),
  ];
  const bases = new Set<IteratorPrototype>();
  for (const path of new Set(stores.map((store) => createRequire(store).resolve("abstract-level")))) {
    const exported = fromHere(path) as Record<string, { prototype: object } | undefined>;
    for (const name of ["AbstractIterator", "AbstractKeyIterator", "AbstractValueIterator"]) {
      // The three share one (unexported) base class, which has close().
      const base = Object.getPrototypeOf(exported[name]?.prototype ?? {}) as IteratorPrototype;
      if (typeof base.close === "function") bases.add(base);
    }
  }
  if (bases.size === 0) throw new Error("dynalite's stores have no abstract-level iterators to release");
  return [...bases];
}
