// Types of ./build.mjs for the TypeScript that imports it (benchmarks).
export declare const SERVER_ENTRIES: Record<"main" | "api" | "worker", string>;
export declare function buildWhenStale(env?: Record<string, string | undefined>): Promise<void>;
export declare function compiledPath(entry: string): string;
export declare function compileServers(): Promise<void>;
export declare function runnable(script: string): Promise<string>;
