// A real database whose reads are counted: `select`s made through the proxy (a test's bound on how
// often code reads, never a stand-in for the database).
import type { DbOrTx } from "@/lib/db";

export function countingSelects<D extends DbOrTx>(db: D) {
  const counter = { selects: 0 };
  const proxy = new Proxy(db, {
    get(target, name, receiver) {
      if (name === "select") counter.selects++;
      return Reflect.get(target, name, receiver);
    },
  });
  return { db: proxy, counter };
}
