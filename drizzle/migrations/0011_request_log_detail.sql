ALTER TABLE "request_logs" ADD COLUMN "query" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "request_headers" jsonb;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "request_body" text;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "problem" jsonb;--> statement-breakpoint
ALTER TABLE "request_logs" ADD COLUMN "property_id" uuid;