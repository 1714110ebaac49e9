// The layer order of docs/architecture.md, enforced (`npm test` runs depcruise): each lib/
// folder stands on a floor and imports only folders on lower floors, never one on its own floor
// (so no two folders import each other); lib/ imports nothing of Next.js, next-auth, jobs/,
// server/, app/ or the root; jobs/ nothing of server/ or app/.
// A new lib/ folder must be given its floor here (test/architecture.test.ts fails until it is).
const FLOORS = [
  ["domain"],
  ["config"],
  ["observability"],
  ["db"],
  ["queue", "cadastral-reference", "addresses", "reference-data", "http", "spreadsheets", "audit", "partners"],
  ["enrichment", "email"],
  ["webhooks", "api-keys", "auth", "rate-limit", "request-logs"],
  ["properties", "registers"],
  ["batches"],
  ["partner-api"],
  ["portal", "ops"],
];

// Tests may import anything (a unit test of lib/webhooks starts the worker of jobs/, say).
const TESTS = "\\.test\\.tsx?$";
const alternatives = (names) => `(${names.join("|")})`;

/** Imports from the folders of floor `i` to folders of floor `i` or above. */
const upward = FLOORS.map((floor, i) => ({
  name: `lib-floor-${i}-imports-down-only`,
  comment: `lib/${floor.join(", lib/")} may import only folders on lower floors (docs/architecture.md).`,
  severity: "error",
  from: { path: `^lib/${alternatives(floor)}/`, pathNot: TESTS },
  to: {
    path: `^lib/${alternatives(FLOORS.slice(i).flat())}/`,
    // A folder's own files import each other freely.
    pathNot: `^lib/$1/`,
  },
}));

module.exports = {
  forbidden: [
    ...upward,
    {
      name: "lib-is-framework-free",
      comment: "lib/ imports nothing of Next.js, next-auth, jobs/, server/, app/ or the root.",
      severity: "error",
      from: { path: "^lib/", pathNot: TESTS },
      to: { path: "(^node_modules/(next|next-auth)/)|(^(jobs|server|app)/)|(^[^/]+\\.(ts|tsx|mjs)$)" },
    },
    {
      name: "the-sdk-stands-alone",
      comment: "packages/sdk is a partner's library: nothing of the server's code, only the API it talks to.",
      severity: "error",
      from: { path: "^packages/", pathNot: [TESTS, "^packages/sdk/src/cli/"] },
      to: { path: "^(lib|server|app|jobs|scripts|test)/" },
    },
    {
      name: "the-sdk-cli-bundles-pure-code-only",
      comment:
        "The SDK's CLI is bundled (dist/cli.mjs) with what it uses of lib/: pure modules only (workbooks, sandbox references).",
      severity: "error",
      from: { path: "^packages/sdk/src/cli/" },
      to: {
        path: "^(lib|server|app|jobs|scripts|test)/",
        pathNot: "^lib/(spreadsheets|cadastral-reference)/|^lib/enrichment/sources/(sandbox|types)\\.ts$",
      },
    },
    {
      name: "jobs-are-thin",
      comment: "jobs/ (pg-boss workers) use lib/ only; the composition root (server/) registers them.",
      severity: "error",
      from: { path: "^jobs/" },
      to: { path: "^(server|app)/" },
    },
    {
      name: "no-circular",
      severity: "error",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|\\.next|\\.data|bench/results|drizzle/migrations)/" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
