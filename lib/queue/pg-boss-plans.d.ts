// pg-boss ships no types for its SQL plans module; only what lib/queue uses.
declare module "pg-boss/src/plans.js" {
  const plans: {
    completeJobs(schema: string): string;
    failJobsById(schema: string): string;
    insertJobs(schema: string): string;
  };
  export = plans;
}
