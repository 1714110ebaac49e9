// Email (issue #43 §7): templates as plain functions, an outbox written in the transaction of what
// causes each message, and the job that sends it through SMTP_URL or holds it for operators.
export * from "./templates";
export * from "./outbox";
export * from "./links";
export * from "./send";
export * from "./notices";
