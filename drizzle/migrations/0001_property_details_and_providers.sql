ALTER TABLE "enrichment_attempts" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "enrichment_sources" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "properties" ADD COLUMN "details" jsonb DEFAULT '{}'::jsonb NOT NULL;