// The domain kernel: shared words, the Property's shape and the one domain error. It imports nothing
// of ours, so every layer (the database schema included) may import it.
export * from "./words";
export * from "./errors";
export * from "./property";
export * from "./dates";
export * from "./coverage";
export * from "./batch";
export * from "./member-order";
export * from "./idempotency";
export * from "./validation";
export * from "./writes";
export * from "./roles";
